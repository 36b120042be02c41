//! Exact solution of a small integer linear system by elimination modulo many 31-bit primes and
//! Chinese remaindering. For the stationary laws of history chains this is several times faster
//! than fraction-free elimination on big integers, and just as exact: Hadamard's bound says how
//! many primes make the recombined integers unique.

use num_bigint::{BigInt, BigUint};
use num_traits::{One, ToPrimitive, Zero};

/// `(a · b) mod p` for `a, b < p < 2^31`.
#[inline]
fn mulmod(a: u64, b: u64, p: u64) -> u64 {
    a * b % p
}

fn powmod(mut b: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1;
    b %= p;
    while e > 0 {
        if e & 1 == 1 {
            r = mulmod(r, b, p);
        }
        b = mulmod(b, b, p);
        e >>= 1;
    }
    r
}

/// Deterministic Miller–Rabin for `n < 2^32` (bases 2, 7, 61).
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for q in [2, 7, 61] {
        if n.is_multiple_of(q) {
            return n == q;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    'bases: for a in [2, 7, 61] {
        let mut x = powmod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mulmod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// Solves `A x = b` modulo `p`; returns `[det A, det A · x_0, …]` mod p, or `None` when `A` is
/// singular mod p. `m` is `n × (n+1)` with `b` as the last column.
fn solve_mod(mut m: Vec<Vec<u64>>, n: usize, p: u64) -> Option<Vec<u64>> {
    let mut det = 1u64;
    let mut negate = false;
    for k in 0..n {
        let r = (k..n).find(|&r| m[r][k] != 0)?;
        if r != k {
            m.swap(r, k);
            negate = !negate;
        }
        let pivot = m[k][k];
        det = mulmod(det, pivot, p);
        let inv = powmod(pivot, p - 2, p);
        let (top, rest) = m.split_at_mut(k + 1);
        let pivot_row = &top[k];
        for row in rest.iter_mut() {
            if row[k] == 0 {
                continue;
            }
            let f = mulmod(row[k], inv, p);
            for j in k..=n {
                if pivot_row[j] != 0 {
                    row[j] = (row[j] + p - mulmod(f, pivot_row[j], p)) % p;
                }
            }
        }
    }
    if negate {
        det = (p - det) % p;
    }
    let mut x = vec![0u64; n];
    for i in (0..n).rev() {
        let mut acc = m[i][n];
        for j in i + 1..n {
            acc = (acc + p - mulmod(m[i][j], x[j], p)) % p;
        }
        x[i] = mulmod(acc, powmod(m[i][i], p - 2, p), p);
    }
    let mut out = Vec::with_capacity(n + 1);
    out.push(det);
    out.extend(x.iter().map(|&v| mulmod(det, v, p)));
    Some(out)
}

/// The Cramer numerators `y_i = det(A) · x_i` of `A x = b` (`a` is `n × (n+1)`), exactly, up to
/// a common sign. `None` when an entry does not fit in an `i64` (the caller then falls back to
/// big-integer elimination) or the matrix is singular.
pub(crate) fn cramer_numerators(a: &[Vec<BigInt>], n: usize) -> Option<Vec<BigInt>> {
    let small: Vec<Vec<i64>> = a
        .iter()
        .map(|r| r.iter().map(|v| v.to_i64()).collect::<Option<Vec<i64>>>())
        .collect::<Option<_>>()?;
    // Hadamard: |det| and every Cramer numerator are at most Π_j sqrt(|row_j|² + 1).
    let mut log2_bound = 0.0f64;
    for row in &small {
        let norm2: f64 = row[..n]
            .iter()
            .map(|&v| (v as f64) * (v as f64))
            .sum::<f64>()
            + 1.0;
        log2_bound += 0.5 * norm2.log2();
    }
    // Two bits for the sign and rounding, plus a generous margin.
    let need = log2_bound.ceil() + 66.0;
    let mut residues: Vec<(u64, Vec<u64>)> = Vec::new();
    let mut have = 0.0f64;
    let mut p: u64 = (1 << 31) - 1;
    while have < need {
        if p < (1 << 30) {
            return None;
        }
        if is_prime(p) {
            let m: Vec<Vec<u64>> = small
                .iter()
                .map(|r| r.iter().map(|&v| v.rem_euclid(p as i64) as u64).collect())
                .collect();
            if let Some(sol) = solve_mod(m, n, p) {
                residues.push((p, sol));
                have += (p as f64).log2();
            }
        }
        p -= 2;
    }
    // Chinese remaindering (Garner, incrementally), then the symmetric range.
    let mut modulus = BigUint::one();
    let mut values = vec![BigUint::zero(); n + 1];
    for (p, r) in &residues {
        let inv = powmod((&modulus % *p).to_u64().unwrap_or(0), p - 2, *p);
        for (v, &rv) in values.iter_mut().zip(r) {
            let cur = (&*v % *p).to_u64().unwrap_or(0);
            let t = mulmod((rv + p - cur) % p, inv, *p);
            *v += &modulus * t;
        }
        modulus *= *p;
    }
    let half = &modulus >> 1;
    let signed: Vec<BigInt> = values
        .into_iter()
        .map(|v| {
            if v > half {
                BigInt::from(v) - BigInt::from(modulus.clone())
            } else {
                BigInt::from(v)
            }
        })
        .collect();
    if signed[0].is_zero() {
        return None;
    }
    Some(signed[1..].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_and_a_small_system() {
        assert!(is_prime((1 << 31) - 1));
        assert!(!is_prime((1 << 31) - 3));
        // 2x + y = 5, x + 3y = 10  →  x = 1, y = 3; det = 5.
        let a: Vec<Vec<BigInt>> = [[2, 1, 5], [1, 3, 10]]
            .iter()
            .map(|r| r.iter().map(|&v| BigInt::from(v)).collect())
            .collect();
        let y = cramer_numerators(&a, 2).unwrap();
        assert_eq!(y, vec![BigInt::from(5), BigInt::from(15)]);
    }
}
