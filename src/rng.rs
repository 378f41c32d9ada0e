//! A small seeded random number generator (xoshiro256** seeded by SplitMix64).
//!
//! Written here rather than taken from a crate so that a seed gives the same
//! boards on every platform and every future build: generated instance files
//! are compared byte for byte.

/// The seed of attempt `attempt` of walk `walk` in a run seeded `seed`: a
/// stream of its own for every (walk, attempt), the same in every run, so
/// one thread and one seed give the same attempts (the score walks' restarts).
pub fn attempt_seed(seed: u64, walk: usize, attempt: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(((walk as u64) << 32) | attempt)
}

/// The seed of segment `generation` of a run seeded `seed`: the run's own
/// seed for its first segment, and for each resumed one a seed drawn from
/// both, so the attempts of every segment are seeded apart from all others'.
pub fn segment_seed(seed: u64, generation: u64) -> u64 {
    if generation == 0 { seed } else { Rng::new(seed ^ generation.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64() }
}

/// xoshiro256**, seeded through SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator fully determined by `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng { s: [next(), next(), next(), next()] }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (Lemire's method, unbiased); `n` must be positive.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        let n = n as u64;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            let low = m as u64;
            if low >= n || low >= n.wrapping_neg() % n {
                return (m >> 64) as usize;
            }
        }
    }

    /// Shuffles a short slice (fewer than 2^16 items) for a search's candidate
    /// order: Fisher–Yates with two 32-bit draws per 64-bit word, by
    /// multiply-shift without rejection (bias below n / 2^32). Faster than
    /// [`Rng::shuffle`], and not used where files must stay byte-identical.
    #[inline]
    pub fn shuffle_small<T>(&mut self, items: &mut [T]) {
        let mut bits = 0u64;
        let mut left = 0;
        for i in (1..items.len()).rev() {
            if left == 0 {
                bits = self.next_u64();
                left = 2;
            }
            let j = ((bits & 0xFFFF_FFFF) * (i as u64 + 1)) >> 32;
            bits >>= 32;
            left -= 1;
            items.swap(i, j as usize);
        }
    }

    /// Shuffles a slice uniformly (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut c = Rng::new(8);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..5).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(1);
        let mut seen = [0usize; 6];
        for _ in 0..6000 {
            seen[rng.below(6)] += 1;
        }
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
    }

    #[test]
    fn small_shuffle_is_a_fair_permutation() {
        let mut rng = Rng::new(5);
        let mut first = [0usize; 4];
        for _ in 0..8000 {
            let mut v = [0, 1, 2, 3];
            rng.shuffle_small(&mut v);
            let mut sorted = v;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3]);
            first[v[0]] += 1;
        }
        assert!(first.iter().all(|&k| (1800..2200).contains(&k)), "{first:?}");
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Rng::new(3);
        let mut v: Vec<usize> = (0..100).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..100).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..100).collect::<Vec<_>>());
    }
}
