//! Charon: [`ClauseDeque`], the sequence a predicate's skeleton keeps its clauses
//! and their `'$clause'/2` locations in (`forms::PredicateSkeleton`).
//!
//! 0.10.0 kept them in a `VecDeque`, whose `remove` moves every element between
//! the removed one and the nearer end: a retract from a predicate of a million
//! clauses moved a quarter of a million 56-byte entries on average, twice (the
//! predicate's skeleton and `'$clause'/2`'s). Here the elements are kept in chunks
//! of at most [`CHUNK`] elements, with the position each chunk starts at: an
//! insertion or a removal moves at most a chunk's elements and the start of each
//! later chunk, and reaching position `i` is a binary search over the starts.
//!
//! It has the `VecDeque` methods the engine calls, with their meaning, and
//! [`ClauseDeque::partition_point_in`], a binary search of a range in place.
//! `make_contiguous` gathers the chunks into one (only a code generator's own
//! skeleton and a merge of indexed runs after a retract call it); the next
//! insertion or removal in that chunk splits it again. `tests/scryer/clause_deque.rs`
//! compares it with `VecDeque` on random sequences of these operations.

use std::ops::{Index, IndexMut, Range};

/// The most elements a chunk holds after an insertion or a removal splits it.
pub const CHUNK: usize = 1024;

/// A double-ended sequence with `VecDeque`'s meaning, whose insertions and
/// removals anywhere cost at most a chunk's moves (see the module's text).
#[derive(Clone)]
pub struct ClauseDeque<T> {
    /// No chunk is empty.
    chunks: Vec<Vec<T>>,
    /// `starts[c]` is the position of `chunks[c]`'s first element.
    starts: Vec<usize>,
    len: usize,
}

impl<T> Default for ClauseDeque<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for ClauseDeque<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T> ClauseDeque<T> {
    pub fn new() -> Self {
        ClauseDeque {
            chunks: Vec::new(),
            starts: Vec::new(),
            len: 0,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The chunk that holds position `i` (< `len`), and `i`'s offset in it.
    #[inline]
    fn locate(&self, i: usize) -> (usize, usize) {
        debug_assert!(i < self.len);
        let c = if self.chunks.len() == 1 {
            0
        } else {
            self.starts.partition_point(|&start| start <= i) - 1
        };
        (c, i - self.starts[c])
    }

    /// Sets `starts` from chunk `from` on.
    fn restart(&mut self, from: usize) {
        self.starts.truncate(from);
        let mut start = match from {
            0 => 0,
            _ => self.starts[from - 1] + self.chunks[from - 1].len(),
        };
        for chunk in &self.chunks[from..] {
            self.starts.push(start);
            start += chunk.len();
        }
    }

    /// Splits chunk `c` into chunks of [`CHUNK`] elements if it holds more than
    /// twice that many (after an insertion, or `make_contiguous`).
    fn split(&mut self, c: usize) {
        if self.chunks[c].len() <= 2 * CHUNK {
            return;
        }
        let mut whole = std::mem::take(&mut self.chunks[c]);
        let mut pieces = Vec::with_capacity(whole.len() / CHUNK + 1);
        while whole.len() > CHUNK {
            let rest = whole.split_off(CHUNK);
            pieces.push(std::mem::replace(&mut whole, rest));
        }
        pieces.push(whole);
        self.chunks.splice(c..=c, pieces);
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        let (c, o) = self.locate(i);
        Some(&self.chunks[c][o])
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i >= self.len {
            return None;
        }
        let (c, o) = self.locate(i);
        Some(&mut self.chunks[c][o])
    }

    pub fn front(&self) -> Option<&T> {
        self.chunks.first().and_then(|chunk| chunk.first())
    }

    pub fn back(&self) -> Option<&T> {
        self.chunks.last().and_then(|chunk| chunk.last())
    }

    pub fn front_mut(&mut self) -> Option<&mut T> {
        self.chunks.first_mut().and_then(|chunk| chunk.first_mut())
    }

    pub fn back_mut(&mut self) -> Option<&mut T> {
        self.chunks.last_mut().and_then(|chunk| chunk.last_mut())
    }

    pub fn push_back(&mut self, value: T) {
        match self.chunks.last_mut() {
            Some(chunk) if chunk.len() < CHUNK => chunk.push(value),
            _ => {
                // (Not `with_capacity(CHUNK)`: most deques are short, a
                // predicate's of a clause or two, and a load makes one for every
                // clause it compiles.)
                let chunk = vec![value];
                self.starts.push(self.len);
                self.chunks.push(chunk);
            }
        }
        self.len += 1;
    }

    pub fn push_front(&mut self, value: T) {
        self.insert(0, value);
    }

    /// Inserts `value` at position `i` (≤ `len`).
    pub fn insert(&mut self, i: usize, value: T) {
        assert!(
            i <= self.len,
            "insertion index {i} past the length {}",
            self.len
        );
        if i == self.len {
            return self.push_back(value);
        }
        let (c, o) = self.locate(i);
        self.chunks[c].insert(o, value);
        self.len += 1;
        self.split(c);
        self.restart(c);
    }

    /// Removes and returns the element at position `i`, if there is one.
    pub fn remove(&mut self, i: usize) -> Option<T> {
        if i >= self.len {
            return None;
        }
        let (c, o) = self.locate(i);
        let value = self.chunks[c].remove(o);
        self.len -= 1;
        if self.chunks[c].is_empty() {
            self.chunks.remove(c);
        } else {
            self.split(c);
        }
        self.restart(c);
        Some(value)
    }

    pub fn pop_back(&mut self) -> Option<T> {
        let chunk = self.chunks.last_mut()?;
        let value = chunk.pop();
        if chunk.is_empty() {
            self.chunks.pop();
            self.starts.pop();
        }
        self.len -= 1;
        value
    }

    pub fn pop_front(&mut self) -> Option<T> {
        self.remove(0)
    }

    /// Keeps the first `n` elements.
    pub fn truncate(&mut self, n: usize) {
        if n >= self.len {
            return;
        }
        if n == 0 {
            return self.clear();
        }
        let (c, o) = self.locate(n);
        self.chunks[c].truncate(o);
        let keep = if o == 0 { c } else { c + 1 };
        self.chunks.truncate(keep);
        self.starts.truncate(keep);
        self.len = n;
    }

    pub fn clear(&mut self) {
        self.chunks.clear();
        self.starts.clear();
        self.len = 0;
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + Clone {
        self.chunks.iter().flatten()
    }

    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut T> {
        self.chunks.iter_mut().flatten()
    }

    /// The elements at the positions `range` (within `0..len`).
    pub fn range(&self, range: Range<usize>) -> impl Iterator<Item = &T> {
        assert!(
            range.start <= range.end && range.end <= self.len,
            "range {range:?} out of 0..{}",
            self.len
        );
        let (c, o) = if range.start < self.len {
            self.locate(range.start)
        } else {
            (self.chunks.len(), 0)
        };
        let first = self.chunks.get(c).map_or(&[][..], |chunk| &chunk[o..]);
        first
            .iter()
            .chain(self.chunks.get(c + 1..).into_iter().flatten().flatten())
            .take(range.end - range.start)
    }

    /// Gathers every element into one slice (`VecDeque::make_contiguous`).
    pub fn make_contiguous(&mut self) -> &mut [T] {
        if self.chunks.len() > 1 {
            let mut whole = Vec::with_capacity(self.len);
            for chunk in self.chunks.drain(..) {
                whole.extend(chunk);
            }
            self.chunks.push(whole);
            self.starts.truncate(1);
        }
        match self.chunks.first_mut() {
            Some(chunk) => chunk,
            None => &mut [],
        }
    }

    /// The first position in `range` at which `pred` is false, `pred` being true
    /// then false along the range (`slice::partition_point`).
    pub fn partition_point_in(
        &self,
        range: Range<usize>,
        mut pred: impl FnMut(&T) -> bool,
    ) -> usize {
        let (mut lo, mut hi) = (range.start, range.end);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(&self[mid]) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

impl<T> Index<usize> for ClauseDeque<T> {
    type Output = T;

    #[inline]
    fn index(&self, i: usize) -> &T {
        assert!(i < self.len, "index {i} out of 0..{}", self.len);
        let (c, o) = self.locate(i);
        &self.chunks[c][o]
    }
}

impl<T> IndexMut<usize> for ClauseDeque<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        assert!(i < self.len, "index {i} out of 0..{}", self.len);
        let (c, o) = self.locate(i);
        &mut self.chunks[c][o]
    }
}

impl<T> Extend<T> for ClauseDeque<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for value in iter {
            self.push_back(value);
        }
    }
}

impl<'a, T: Copy + 'a> Extend<&'a T> for ClauseDeque<T> {
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        for value in iter {
            self.push_back(*value);
        }
    }
}

impl<T> IntoIterator for ClauseDeque<T> {
    type Item = T;
    type IntoIter = std::iter::Flatten<std::vec::IntoIter<Vec<T>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.chunks.into_iter().flatten()
    }
}

impl<T> FromIterator<T> for ClauseDeque<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut deque = ClauseDeque::new();
        deque.extend(iter);
        deque
    }
}
