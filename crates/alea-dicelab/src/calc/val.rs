//! [`Val`], the outcome type of calc's distributions: a dicelab value (a list) and whether a
//! `while` cut off its path.
//!
//! Most outcomes are short lists (a single value, a handful of dice), and a distribution may
//! hold up to 10^7 of them (the outcome cap). A `Vec<i32>` plus a flag took 32 bytes and a heap
//! block (another 32 with the allocator's header) per outcome, about 1 GB at the cap with the
//! weights; a list of up to [`INLINE`] values is stored here in place, in 24 bytes, and only
//! longer lists allocate (exactly their length, as a boxed slice).

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// The longest list stored without an allocation.
pub(crate) const INLINE: usize = 5;

/// A list of values plus the cut flag. Equality, order and hashing are those of
/// `(items, cut)`: lists compare lexicographically, and a cut list sorts after the same list
/// uncut.
#[derive(Clone)]
pub(crate) struct Val(Repr);

#[derive(Clone)]
enum Repr {
    /// `len` ≤ [`INLINE`] values in `items[..len]` (the rest is zero).
    Inline {
        cut: bool,
        len: u8,
        items: [i32; INLINE],
    },
    /// A longer list.
    Heap { cut: bool, items: Box<[i32]> },
}

impl Val {
    /// The list `items` with the cut flag `cut`.
    pub(crate) fn new(items: Vec<i32>, cut: bool) -> Val {
        if items.len() <= INLINE {
            return Val::from_slice(&items, cut);
        }
        Val(Repr::Heap {
            cut,
            items: items.into_boxed_slice(),
        })
    }

    /// [`Val::new`] from a borrowed list.
    pub(crate) fn from_slice(items: &[i32], cut: bool) -> Val {
        if items.len() > INLINE {
            return Val(Repr::Heap {
                cut,
                items: items.into(),
            });
        }
        let mut inline = [0; INLINE];
        inline[..items.len()].copy_from_slice(items);
        Val(Repr::Inline {
            cut,
            len: items.len() as u8,
            items: inline,
        })
    }

    /// An uncut list.
    pub(crate) fn list(items: Vec<i32>) -> Val {
        Val::new(items, false)
    }

    /// The list of one value, with the cut flag `cut`.
    pub(crate) fn one(v: i32, cut: bool) -> Val {
        Val::from_slice(&[v], cut)
    }

    /// The values.
    pub(crate) fn items(&self) -> &[i32] {
        match &self.0 {
            Repr::Inline { len, items, .. } => &items[..usize::from(*len)],
            Repr::Heap { items, .. } => items,
        }
    }

    /// Whether a `while` was cut on this path.
    pub(crate) fn cut(&self) -> bool {
        match &self.0 {
            Repr::Inline { cut, .. } | Repr::Heap { cut, .. } => *cut,
        }
    }

    /// The same list, marked cut when `cut` (or already cut).
    pub(crate) fn or_cut(&self, cut: bool) -> Val {
        let mut v = self.clone();
        match &mut v.0 {
            Repr::Inline { cut: c, .. } | Repr::Heap { cut: c, .. } => *c |= cut,
        }
        v
    }
}

impl std::fmt::Debug for Val {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?}{}",
            self.items(),
            if self.cut() { "+cut" } else { "" }
        )
    }
}

impl PartialEq for Val {
    fn eq(&self, other: &Val) -> bool {
        self.items() == other.items() && self.cut() == other.cut()
    }
}

impl Eq for Val {}

impl Ord for Val {
    fn cmp(&self, other: &Val) -> Ordering {
        self.items()
            .cmp(other.items())
            .then(self.cut().cmp(&other.cut()))
    }
}

impl PartialOrd for Val {
    fn partial_cmp(&self, other: &Val) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Hash for Val {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.items().hash(state);
        self.cut().hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_and_ordered_like_the_pair() {
        assert_eq!(std::mem::size_of::<Val>(), 24);
        let short = Val::new(vec![3, 1], false);
        let long = Val::new((0..9).collect(), true);
        assert_eq!(short.items(), [3, 1]);
        assert_eq!(long.items().len(), 9);
        assert!(long.cut() && !short.cut());
        // Lexicographic on the list, then uncut before cut; the storage does not matter.
        let mut all = [
            Val::new(vec![1, 2, 3, 4, 5, 6], false),
            Val::new(vec![1, 2, 3, 4, 5], true),
            Val::new(vec![1, 2, 3, 4, 5], false),
            Val::list(vec![]),
            Val::one(0, false),
        ];
        all.sort();
        let lens: Vec<_> = all.iter().map(|v| (v.items().len(), v.cut())).collect();
        assert_eq!(
            lens,
            [(0, false), (1, false), (5, false), (5, true), (6, false)]
        );
        assert_eq!(Val::from_slice(&[7; 6], false), Val::new(vec![7; 6], false));
        assert_eq!(short.or_cut(true), Val::new(vec![3, 1], true));
    }
}
