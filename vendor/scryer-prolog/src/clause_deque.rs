//! Charon: [`ClauseDeque`], the sequence a predicate's skeleton keeps its clauses
//! and their `'$clause'/2` locations in (`forms::PredicateSkeleton`).
//!
//! For now it is a `VecDeque`, with the methods the engine calls on a skeleton and
//! one of its own, [`ClauseDeque::partition_point_in`] (a binary search of a
//! range in place: `make_contiguous`, which 0.10.0 called for such searches,
//! rotates the whole deque once a removal near its front has wrapped it). It is
//! the one place where a skeleton's layout is chosen: a `remove` still moves every
//! element between the removed one and the nearer end, a quarter of a million
//! 56-byte entries on average for a retract from a predicate of a million clauses,
//! twice (the predicate's skeleton and `'$clause'/2`'s), which is most of what a
//! retract by key still costs at that size. Chunks of bounded size behind this
//! same interface would bound that move: see `CHARON.md`, item 21.

use std::ops::{Index, IndexMut, Range};

/// A double-ended sequence with `VecDeque`'s meaning (see the module's text).
#[derive(Clone, Default)]
pub struct ClauseDeque<T> {
    inner: std::collections::VecDeque<T>,
}

impl<T: std::fmt::Debug> std::fmt::Debug for ClauseDeque<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T> ClauseDeque<T> {
    pub fn new() -> Self {
        ClauseDeque {
            inner: Default::default(),
        }
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.inner.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }
    pub fn get(&self, i: usize) -> Option<&T> {
        self.inner.get(i)
    }
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.inner.get_mut(i)
    }
    pub fn front(&self) -> Option<&T> {
        self.inner.front()
    }
    pub fn back(&self) -> Option<&T> {
        self.inner.back()
    }
    pub fn front_mut(&mut self) -> Option<&mut T> {
        self.inner.front_mut()
    }
    pub fn back_mut(&mut self) -> Option<&mut T> {
        self.inner.back_mut()
    }
    pub fn push_back(&mut self, value: T) {
        self.inner.push_back(value)
    }
    pub fn push_front(&mut self, value: T) {
        self.inner.push_front(value)
    }
    pub fn insert(&mut self, i: usize, value: T) {
        self.inner.insert(i, value)
    }
    pub fn remove(&mut self, i: usize) -> Option<T> {
        self.inner.remove(i)
    }
    pub fn pop_back(&mut self) -> Option<T> {
        self.inner.pop_back()
    }
    pub fn pop_front(&mut self) -> Option<T> {
        self.inner.pop_front()
    }
    pub fn truncate(&mut self, n: usize) {
        self.inner.truncate(n)
    }
    pub fn clear(&mut self) {
        self.inner.clear()
    }
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + Clone {
        self.inner.iter()
    }
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut T> {
        self.inner.iter_mut()
    }
    pub fn range(&self, range: Range<usize>) -> impl Iterator<Item = &T> {
        self.inner.range(range)
    }
    pub fn make_contiguous(&mut self) -> &mut [T] {
        self.inner.make_contiguous()
    }
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
        &self.inner[i]
    }
}

impl<T> IndexMut<usize> for ClauseDeque<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.inner[i]
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
    type IntoIter = std::collections::vec_deque::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.inner.into_iter()
    }
}

impl<T> FromIterator<T> for ClauseDeque<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut deque = ClauseDeque::new();
        deque.extend(iter);
        deque
    }
}
