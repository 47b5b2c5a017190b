//! Charon: `ClauseDeque` (src/clause_deque.rs) against `VecDeque` on long random
//! sequences of every operation the engine makes on a predicate's skeleton, at
//! lengths of several chunks.

use scryer_prolog::clause_deque::{ClauseDeque, CHUNK};
use std::collections::VecDeque;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

fn same(c: &ClauseDeque<u64>, v: &VecDeque<u64>, step: usize) {
    assert_eq!(c.len(), v.len(), "step {step}");
    assert!(c.iter().eq(v.iter()), "step {step}: the elements differ");
    assert!(c.iter().rev().eq(v.iter().rev()), "step {step}: reversed");
    assert_eq!(c.front(), v.front(), "step {step}");
    assert_eq!(c.back(), v.back(), "step {step}");
}

#[test]
fn a_clause_deque_answers_as_a_vec_deque_does() {
    let mut longest = 0;
    for seed in 1..=6u64 {
        let mut rng = Rng(seed * 0x9E37_79B9_7F4A_7C15);
        let mut c = ClauseDeque::new();
        let mut v = VecDeque::new();
        let mut next = 0u64;
        for step in 0..40_000 {
            next += 1;
            let len = v.len();
            longest = longest.max(len);
            match rng.below(16) {
                0..=3 => {
                    c.push_back(next);
                    v.push_back(next);
                }
                4 => {
                    c.push_front(next);
                    v.push_front(next);
                }
                5..=6 => {
                    let i = rng.below(len + 1);
                    c.insert(i, next);
                    v.insert(i, next);
                }
                7..=9 => {
                    let i = rng.below(len + 1);
                    assert_eq!(c.remove(i), v.remove(i), "step {step}: remove({i})");
                }
                10 => assert_eq!(c.pop_back(), v.pop_back(), "step {step}"),
                11 => assert_eq!(c.pop_front(), v.pop_front(), "step {step}"),
                12 if rng.below(200) == 0 => {
                    let n = len - rng.below(len / 4 + 1);
                    c.truncate(n);
                    v.truncate(n);
                }
                13 if rng.below(50) == 0 => {
                    assert_eq!(c.make_contiguous(), v.make_contiguous(), "step {step}");
                }
                14 if len > 0 => {
                    let i = rng.below(len);
                    c[i] += 1;
                    v[i] += 1;
                    assert_eq!(c.get(i), v.get(i));
                    assert_eq!(c.get(len), None);
                }
                15 => {
                    let a = rng.below(len + 1);
                    let b = a + rng.below(len + 1 - a);
                    assert!(
                        c.range(a..b).eq(v.range(a..b)),
                        "step {step}: range {a}..{b}"
                    );
                    // A sorted run: the positions hold ever larger values from `a` on
                    // only by chance, so search what `VecDeque` itself would answer.
                    let x = rng.below(next as usize + 1) as u64;
                    let sorted = v
                        .range(a..b)
                        .zip(v.range(a..b).skip(1))
                        .all(|(p, q)| p <= q);
                    if sorted {
                        let expected = a + v.range(a..b).take_while(|e| **e < x).count();
                        assert_eq!(c.partition_point_in(a..b, |e| *e < x), expected);
                    }
                }
                _ => {}
            }
            if step % 97 == 0 || len < 3 * CHUNK {
                same(&c, &v, step);
            }
        }
        same(&c, &v, usize::MAX);
        let cloned = c.clone();
        assert!(cloned.into_iter().eq(v));
    }
    assert!(
        longest > 3 * CHUNK,
        "the deques reached {longest} elements only"
    );
}
