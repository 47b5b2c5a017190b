#![allow(clippy::new_without_default)] // annotating structs annotated with #[bitfield] doesn't work

use crate::parser::ast::MAX_ARITY;
use crate::raw_block::*;
use crate::types::*;

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::mem;
use std::ops::Deref;
use std::ptr;
use std::str;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::RwLock;
use std::sync::Weak;

use arcu::atomic::Arcu;
use arcu::epoch_counters::GlobalEpochCounterPool;
use arcu::Rcu;
use indexmap::IndexSet;
use parking_lot::{RwLock as TableLock, RwLockReadGuard as TableReadGuard};

use scryer_modular_bitfield::prelude::*;

#[bitfield]
#[repr(u64)]
#[derive(Copy, Clone, Debug)]
pub struct AtomCell {
    name: B48,
    arity: B8,
    #[allow(unused)]
    f: bool,
    #[allow(unused)]
    m: bool,
    #[allow(unused)]
    is_inlined: bool,
    #[allow(unused)]
    tag: B5,
}

const INLINED_ATOM_MAX_LEN: usize = 6;

const_assert!(INLINED_ATOM_MAX_LEN < mem::size_of::<AtomCell>());
const_assert!(mem::size_of::<AtomCell>() == 8);

const_assert!(INLINED_ATOM_MAX_LEN < mem::size_of::<Atom>());
const_assert!(mem::size_of::<Atom>() == 8);

impl AtomCell {
    #[inline]
    fn new_static(index: u64) -> Self {
        // upper 23 bits of index must be 0
        debug_assert_eq!(index & !((1 << 49) - 1), 0);
        AtomCell::new()
            .with_name(index)
            .with_arity(0u8)
            .with_m(false)
            .with_f(false)
            .with_is_inlined(false)
            .with_tag(HeapCellValueTag::Atom as u8)
    }

    #[inline]
    fn new_inlined(string: &str, arity: u8) -> Self {
        debug_assert!(string.len() <= INLINED_ATOM_MAX_LEN);

        let mut string_buf: [u8; 8] = [0u8; 8];
        string_buf[..string.len()].copy_from_slice(string.as_bytes());
        let encoding = u64::from_le_bytes(string_buf);

        AtomCell::new()
            .with_name(encoding)
            .with_arity(arity)
            .with_m(false)
            .with_f(false)
            .with_is_inlined(true)
            .with_tag(HeapCellValueTag::Atom as u8)
    }

    #[inline]
    pub fn new_char_inlined(c: char) -> Self {
        if c == '\u{0}' {
            return Self::new_static(NULL_ATOM.flat_index());
        }

        let mut char_buf = [0u8; 8];
        c.encode_utf8(&mut char_buf);

        let encoding = u64::from_le_bytes(char_buf);

        AtomCell::new()
            .with_name(encoding)
            .with_arity(0u8)
            .with_m(false)
            .with_f(false)
            .with_is_inlined(true)
            .with_tag(HeapCellValueTag::Atom as u8)
    }

    #[inline]
    pub fn build_with(atom_index: u64, arity: u8) -> Self {
        debug_assert!((arity as usize) <= MAX_ARITY);

        AtomCell::new()
            .with_name(atom_index >> 1)
            .with_arity(arity)
            .with_f(false)
            .with_m(false)
            .with_is_inlined(atom_index & 1 == 1)
            .with_tag(HeapCellValueTag::Atom as u8)
    }

    #[inline]
    pub fn get_name(self) -> Atom {
        Atom {
            index: (self.name() << 1) | self.is_inlined() as u64,
        }
    }

    #[inline]
    pub fn get_arity(self) -> usize {
        self.arity() as usize
    }

    #[inline]
    pub fn get_name_and_arity(self) -> (Atom, usize) {
        (self.get_name(), self.get_arity())
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub index: u64,
}

include!(concat!(env!("OUT_DIR"), "/static_atoms.rs"));

// populate these in STRINGS so they can be used from build_functor
const _: Atom = atom!(".");
const _: Atom = atom!("[]");
const NULL_ATOM: Atom = atom!("\0");

impl<'a> From<&'a Atom> for Atom {
    #[inline]
    fn from(atom: &'a Atom) -> Self {
        *atom
    }
}

impl indexmap::Equivalent<Atom> for str {
    fn equivalent(&self, key: &Atom) -> bool {
        &*key.as_str() == self
    }
}

impl PartialEq<str> for Atom {
    fn eq(&self, other: &str) -> bool {
        self.as_str().deref() == other
    }
}

impl PartialEq<&str> for Atom {
    fn eq(&self, &other: &&str) -> bool {
        self.as_str().deref() == other
    }
}

const ATOM_TABLE_INIT_SIZE: usize = 1 << 16;
const ATOM_TABLE_ALIGN: usize = 8;

#[inline(always)]
fn global_atom_table() -> &'static RwLock<Weak<AtomTable>> {
    static GLOBAL_ATOM_TABLE: RwLock<Weak<AtomTable>> = RwLock::new(Weak::new());
    &GLOBAL_ATOM_TABLE
}

#[inline(always)]
fn arc_atom_table() -> Option<Arc<AtomTable>> {
    global_atom_table().read().unwrap().upgrade()
}

impl RawBlockTraits for AtomTable {
    #[inline]
    fn init_size() -> usize {
        ATOM_TABLE_INIT_SIZE
    }

    #[inline]
    fn align() -> usize {
        ATOM_TABLE_ALIGN
    }
}

#[bitfield]
#[derive(Copy, Clone, Debug)]
struct AtomHeader {
    #[allow(unused)]
    m: bool,
    len: B50,
    #[allow(unused)]
    padding: B13,
}

#[repr(C)]
pub struct AtomData {
    header: AtomHeader,
    data: str,
}

impl AtomHeader {
    fn build_with(len: u64) -> Self {
        AtomHeader::new().with_len(len).with_m(false)
    }
}

impl Hash for Atom {
    #[inline]
    fn hash<H: Hasher>(&self, hasher: &mut H) {
        self.as_str().hash(hasher)
    }
}

pub enum AtomString<'a> {
    Static(&'a str),
    Inlined([u8; 8]),
    Dynamic(AtomTableRef<str>),
}

#[inline(always)]
fn inlined_to_str(bytes: &[u8; 8]) -> &str {
    let slice_len = bytes
        .iter()
        .position(|&b| b == 0u8)
        .unwrap_or(INLINED_ATOM_MAX_LEN);

    unsafe { str::from_utf8_unchecked(&bytes[..slice_len]) }
}

impl std::fmt::Debug for AtomString<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.deref(), f)
    }
}

impl std::fmt::Display for AtomString<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        std::fmt::Display::fmt(self.deref(), f)
    }
}

impl std::ops::Deref for AtomString<'_> {
    type Target = str;
    fn deref(&self) -> &Self::Target {
        match self {
            Self::Static(reference) => reference,
            Self::Inlined(inlined) => inlined_to_str(inlined),
            Self::Dynamic(guard) => guard.deref(),
        }
    }
}

#[cfg(feature = "repl")]
impl rustyline::completion::Candidate for AtomString<'_> {
    fn display(&self) -> &str {
        self.deref()
    }

    fn replacement(&self) -> &str {
        self.deref()
    }
}

impl Atom {
    #[inline]
    fn new_inlined(string: &str) -> Self {
        AtomCell::new_inlined(string, 0).get_name()
    }

    #[inline(always)]
    fn is_static(self) -> bool {
        if self.is_inlined() {
            true
        } else {
            (self.flat_index() as usize) < STRINGS.len()
        }
    }

    #[inline]
    pub(crate) fn flat_index(self) -> u64 {
        self.index >> 1
    }

    #[inline(always)]
    pub(crate) fn is_inlined(self) -> bool {
        self.index & 1 == 1
    }

    #[inline(always)]
    fn as_ptr(self) -> Option<AtomTableRef<AtomData>> {
        if self.is_static() {
            None
        } else {
            let atom_table =
                arc_atom_table().expect("We should only have an Atom while there is an AtomTable");

            AtomTableRef::try_map(atom_table.inner.read(), |buf| unsafe {
                Some(self.data_in(buf))
            })
        }
    }

    /// The text of a non-static atom in the table's buffer `buf`.
    ///
    /// # Safety
    /// `self` is not static (`!self.is_static()`) and was made by this table.
    #[inline(always)]
    unsafe fn data_in(self, buf: &InnerAtomTable) -> &AtomData {
        let ptr = buf
            .block
            .base
            .add(self.flat_index() as usize - STRINGS.len());
        // TODO use std::ptr::from_raw_parts instead when feature ptr_metadata is stable rust-lang/rust#81513
        let atom_data = &*(std::ptr::slice_from_raw_parts(ptr, 0) as *const AtomData);
        let len = atom_data.header.len();
        &*(std::ptr::slice_from_raw_parts(ptr, len as usize) as *const AtomData)
    }

    #[inline(always)]
    pub fn from(index: u64) -> Self {
        Self { index }
    }

    #[inline(always)]
    pub fn len(self) -> usize {
        if let Some(s) = self.inlined_str() {
            s.len()
        } else if self.is_static() {
            let index = self.flat_index();
            STRINGS[index as usize].len()
        } else {
            let len: u64 = self.as_ptr().unwrap().header.len();
            len as usize
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub fn as_char(self) -> Option<char> {
        let s = self.as_str();
        let mut it = s.chars();

        let c1 = it.next();
        let c2 = it.next();

        if c2.is_none() {
            c1
        } else {
            None
        }
    }

    #[inline]
    fn inlined_str<'a>(&self) -> Option<AtomString<'a>> {
        if self.is_inlined() {
            Some(AtomString::Inlined(self.flat_index().to_le_bytes()))
        } else {
            None
        }
    }

    #[inline]
    pub fn as_str(&self) -> AtomString<'static> {
        if let Some(s) = self.inlined_str() {
            s
        } else if self.is_static() {
            let index = self.flat_index() as usize;
            AtomString::Static(STRINGS[index])
        } else if let Some(ptr) = self.as_ptr() {
            AtomString::Dynamic(AtomTableRef::map(ptr, |ptr| &ptr.data))
        } else {
            AtomString::Static(STRINGS[(self.index >> 1) as usize])
        }
    }

    pub fn defrock_brackets(&self, atom_tbl: &AtomTable) -> Self {
        let s = self.as_str();

        let sub_str = if s.starts_with('(') && s.ends_with(')') {
            &s['('.len_utf8()..s.len() - ')'.len_utf8()]
        } else {
            return *self;
        };

        AtomTable::build_with(atom_tbl, sub_str)
    }
}

unsafe fn write_to_ptr(string: &str, ptr: *mut u8) {
    ptr::write(ptr as *mut _, AtomHeader::build_with(string.len() as u64));
    let str_ptr = ptr.add(mem::size_of::<AtomHeader>());
    ptr::copy_nonoverlapping(string.as_ptr(), str_ptr, string.len());
}

impl PartialOrd for Atom {
    #[inline]
    fn partial_cmp(&self, other: &Atom) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Atom {
    /// Charon (CHARON.md item 28): the standard order of atoms, by their text, with
    /// two shortcuts. An atom is interned, so the same index is the same text; and
    /// two atoms of the table are read under one reference to it, where each
    /// `as_str` takes the global table's lock and its reference count (6 % of the
    /// time of `examples/rbac.pl`'s list query, which sorts 106 user ids).
    #[inline]
    fn cmp(&self, other: &Atom) -> Ordering {
        if self.index == other.index {
            return Ordering::Equal;
        }
        if !self.is_static() && !other.is_static() {
            if let Some(atom_table) = arc_atom_table() {
                let buf = atom_table.inner.read();
                // SAFETY: both atoms are of the table (not static), as `as_ptr` reads them.
                return unsafe { self.data_in(&buf).data.cmp(&other.data_in(&buf).data) };
            }
        }
        self.as_str().cmp(&*other.as_str())
    }
}

/// The text of an atom, read once for the many comparisons of a sort.
enum AtomText<'a> {
    Borrowed(&'a str),
    Inlined([u8; 8]),
}

impl AtomText<'_> {
    #[inline]
    fn as_bytes(&self) -> &[u8] {
        match self {
            AtomText::Borrowed(s) => s.as_bytes(),
            AtomText::Inlined(bytes) => inlined_to_str(bytes).as_bytes(),
        }
    }
}

impl Atom {
    /// The text of `self`; `buf` is the table's buffer, present whenever `self` is
    /// not static.
    #[inline]
    fn text_in(self, buf: Option<&InnerAtomTable>) -> AtomText<'_> {
        if self.is_inlined() {
            AtomText::Inlined(self.flat_index().to_le_bytes())
        } else if self.is_static() {
            AtomText::Borrowed(STRINGS[self.flat_index() as usize])
        } else {
            let buf = buf.expect("a table atom is read with the table's buffer");
            // SAFETY: `self` is not static, so it was made by this table.
            AtomText::Borrowed(unsafe { &self.data_in(buf).data })
        }
    }

    /// Charon (CHARON.md item 32): sorts `atoms` in the standard order (`Atom::cmp`)
    /// and drops repeats, as `sort/2` does, reading each text once under one hold of
    /// the table. Comparing two table atoms takes the table's locks and reference
    /// count each time (`Atom::cmp`), most of the cost of sorting a list of atoms.
    pub fn sort_dedup(atoms: &mut Vec<Atom>) {
        let table = if atoms.iter().all(|atom| atom.is_static()) {
            None
        } else if let Some(table) = arc_atom_table() {
            Some(table)
        } else {
            atoms.sort_unstable();
            atoms.dedup_by(|a, b| a.cmp(&b) == Ordering::Equal);
            return;
        };
        let buf = table.as_ref().map(|table| table.inner.read());
        let mut texts: Vec<(AtomText<'_>, Atom)> = atoms
            .iter()
            .map(|&atom| (atom.text_in(buf.as_deref()), atom))
            .collect();
        texts.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        texts.dedup_by(|a, b| a.0.as_bytes() == b.0.as_bytes());
        let sorted: Vec<Atom> = texts.into_iter().map(|(_, atom)| atom).collect();
        drop(buf);
        *atoms = sorted;
    }
}

#[derive(Debug)]
pub struct InnerAtomTable {
    block: RawBlock<AtomTable>,
}

#[derive(Debug)]
pub struct AtomTable {
    inner: Arcu<InnerAtomTable, GlobalEpochCounterPool>,
    // Charon's change to 0.10.0: the set of interned atoms is updated in place under
    // a lock. 0.10.0 kept it behind an RCU cell and replaced it with a clone holding
    // one more atom on every new atom, so interning N atoms cost O(N^2) time.
    table: TableLock<IndexSet<Atom>>,
    // this lock is taking during resizing
    update: Mutex<()>,
}

pub type AtomTableRef<M> = arcu::rcu_ref::RcuRef<InnerAtomTable, M>;

impl AtomTable {
    #[inline(always)]
    fn lookup_str(&self, string: &str) -> Option<Atom> {
        STATIC_ATOMS_MAP
            .get(string)
            .cloned()
            .or_else(|| self.table.read().get(string).cloned())
    }
}

impl AtomTable {
    #[inline]
    pub fn new() -> Arc<Self> {
        let upgraded = global_atom_table().read().unwrap().upgrade();
        // don't inline upgraded, otherwise temporary will be dropped too late in case of None
        if let Some(atom_table) = upgraded {
            atom_table
        } else {
            let mut guard = global_atom_table().write().unwrap();
            // try to upgrade again in case we lost the race on the write lock
            if let Some(atom_table) = guard.upgrade() {
                atom_table
            } else {
                let atom_table = Arc::new(Self {
                    inner: Arcu::new(
                        InnerAtomTable {
                            block: RawBlock::new(),
                        },
                        GlobalEpochCounterPool,
                    ),
                    table: TableLock::new(IndexSet::new()),
                    update: Mutex::new(()),
                });
                *guard = Arc::downgrade(&atom_table);
                atom_table
            }
        }
    }

    pub fn active_table(&self) -> TableReadGuard<'_, IndexSet<Atom>> {
        self.table.read()
    }

    pub fn build_with(atom_table: &AtomTable, string: &str) -> Atom {
        if !string.is_empty() && string.len() <= INLINED_ATOM_MAX_LEN && !string.contains('\u{0}') {
            return Atom::new_inlined(string);
        }

        if let Some(atom) = atom_table.lookup_str(string) {
            return atom;
        }

        // take a lock to prevent concurrent updates
        let update_guard = atom_table.update.lock().unwrap();

        // some other thread may have raced us between our lookup and
        // us acquiring the update lock
        if let Some(atom) = atom_table.lookup_str(string) {
            return atom;
        }

        let size = mem::size_of::<AtomHeader>() + string.len();
        let size = size.next_multiple_of(AtomTable::align());

        unsafe {
            let mut block_epoch = atom_table.inner.read();

            let len_ptr = loop {
                let ptr = block_epoch.block.alloc(size);

                if ptr.is_null() {
                    // garbage collection would go here
                    let new_block = block_epoch.block.grow_new().unwrap();
                    atom_table
                        .inner
                        .replace(InnerAtomTable { block: new_block });
                    block_epoch = atom_table.inner.read();
                } else {
                    break ptr;
                }
            };

            let ptr_base = block_epoch.block.base.addr();

            write_to_ptr(string, len_ptr);

            let atom = AtomCell::new()
                .with_name((STRINGS.len() + len_ptr.addr() - ptr_base) as u64)
                .with_arity(0)
                .with_f(false)
                .with_m(false)
                .with_is_inlined(false)
                .with_tag(HeapCellValueTag::Atom as u8)
                .get_name();

            // the block holding the atom's text is the current one, so the set can
            // hash it; readers of the set wait for this insertion only
            atom_table.table.write().insert(atom);

            // expicit drop to ensure we don't accidentally drop it early
            drop(update_guard);

            atom
        }
    }
}

unsafe impl Send for AtomTable {}
unsafe impl Sync for AtomTable {}
