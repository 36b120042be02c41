//! The portable RNG of `rng.md`: xoshiro256++ seeded by SplitMix64.
//!
//! Implemented here (thirty lines) rather than taken from `rand_xoshiro` so that nothing outside
//! this file can change the stream: the golden vectors in `tests/rng_vectors.rs` pin every
//! operation, and any change to them is a breaking change for every seeded user of alea.

/// The generator. `Clone` gives an independent copy of the stream at its current position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rng {
    s: [u64; 4],
}

const JUMP: [u64; 4] = [
    0x180EC6D33CFD0ABA,
    0xD5A61266F0C9392C,
    0xA9582618E03FC9AA,
    0x39ABDC4529B1661C,
];

impl Rng {
    /// Seeds the four state words with four SplitMix64 outputs.
    pub fn seed_from_u64(seed: u64) -> Rng {
        let mut x = seed;
        let mut s = [0u64; 4];
        for word in &mut s {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            *word = z ^ (z >> 31);
        }
        Rng { s }
    }

    /// `stream(seed, k)`: the seeded generator jumped `k` times (rng.md §3). Task `k` of a
    /// parallel simulation and player `k` of a game use stream `k`.
    pub fn stream(seed: u64, k: u64) -> Rng {
        let mut rng = Rng::seed_from_u64(seed);
        for _ in 0..k {
            rng.jump();
        }
        rng
    }

    /// Restores a generator from its four state words. An all-zero state (which xoshiro can
    /// never reach) is rejected.
    pub fn from_state(s: [u64; 4]) -> Option<Rng> {
        (s != [0; 4]).then_some(Rng { s })
    }

    /// The four state words `[s0, s1, s2, s3]`.
    pub fn state(&self) -> [u64; 4] {
        self.s
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Advances the state by 2^128 outputs.
    pub fn jump(&mut self) {
        let mut acc = [0u64; 4];
        for word in JUMP {
            for bit in 0..64 {
                if (word >> bit) & 1 == 1 {
                    for (a, s) in acc.iter_mut().zip(self.s) {
                        *a ^= s;
                    }
                }
                self.next_u64();
            }
        }
        self.s = acc;
    }

    /// A uniform integer in `[0, n)` by Lemire's multiply-and-reject method.
    ///
    /// The first draw is accepted inline when its low half is at least `n` (every threshold
    /// `2^64 mod n` is below `n`); the rest of the method (the threshold's division and the
    /// redraws, together rarer than one draw in `2^64 / n`) is out of line, so a die costs its
    /// callers no call. The same draws and results as the method written in one piece.
    ///
    /// # Panics
    /// When `n == 0`, which is a programming error in the caller.
    #[inline(always)]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n != 0, "Rng::below(0)");
        if n == 1 {
            return 0;
        }
        let m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            // The state goes by value, so a caller's copy of it can stay in registers.
            let (v, rest) = Rng::below_rest(self.clone(), m, n);
            *self = rest;
            return v;
        }
        (m >> 64) as u64
    }

    /// [`Rng::below`] after a first draw `m` whose low half is below `n`: accepted when it is
    /// at least the threshold `2^64 mod n`, else redrawn until one is.
    #[cold]
    #[inline(never)]
    fn below_rest(mut rng: Rng, mut m: u128, n: u64) -> (u64, Rng) {
        let t = n.wrapping_neg() % n;
        let mut lo = m as u64;
        while lo < t {
            m = u128::from(rng.next_u64()) * u128::from(n);
            lo = m as u64;
        }
        ((m >> 64) as u64, rng)
    }

    /// A uniform integer in `[lo, hi]`. A d6 is `range_inclusive(1, 6)`.
    ///
    /// # Panics
    /// When `lo > hi`.
    #[inline]
    pub fn range_inclusive(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "Rng::range_inclusive({lo}, {hi})");
        let span = (i128::from(hi) - i128::from(lo) + 1) as u128;
        if span == 1u128 << 64 {
            lo.wrapping_add(self.next_u64() as i64)
        } else {
            lo.wrapping_add(self.below(span as u64) as i64)
        }
    }

    /// Fisher–Yates from the last index down; `len - 1` calls to [`Rng::below`].
    pub fn shuffle<T>(&mut self, a: &mut [T]) {
        for i in (1..a.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            a.swap(i, j);
        }
    }

    /// A uniformly chosen element, `None` for an empty slice. One element draws nothing.
    pub fn choose<'a, T>(&mut self, a: &'a [T]) -> Option<&'a T> {
        if a.is_empty() {
            return None;
        }
        Some(&a[self.below(a.len() as u64) as usize])
    }

    /// A real number in `[0, 1)` with 53 random bits. Never use it to pick an integer.
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}
