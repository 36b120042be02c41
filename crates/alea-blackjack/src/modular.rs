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

/// `v mod p` for `p < 2^32` by one pass over the limbs in 32-bit halves, so that every step
/// is a 64-bit division (num-bigint's `%` goes through general division).
fn rem(v: &BigUint, p: u64) -> u64 {
    v.iter_u64_digits().rev().fold(0u64, |r, d| {
        let r = ((r << 32) | (d >> 32)) % p;
        ((r << 32) | (d & 0xffff_ffff)) % p
    })
}

/// `v mod p` in `[0, p)` for a signed `v`.
fn rem_signed(v: &BigInt, p: u64) -> u64 {
    let r = rem(v.magnitude(), p);
    if v.sign() == num_bigint::Sign::Minus && r != 0 {
        p - r
    } else {
        r
    }
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
/// a common sign. `None` when the matrix is singular.
pub(crate) fn cramer_numerators(a: &[Vec<BigInt>], n: usize) -> Option<Vec<BigInt>> {
    cramer(a, n).map(|(_, y)| y)
}

/// `det(A)` and the Cramer numerators `det(A) · x_i` of `A x = b` (`a` is `n × (n+1)`),
/// exactly, up to one common sign; `None` when `A` is singular. Entries of any size: each is
/// reduced modulo each prime, so an entry of thousands of bits (n^R for many rolls) costs one
/// division per prime instead of big-integer arithmetic inside the elimination.
pub(crate) fn cramer(a: &[Vec<BigInt>], n: usize) -> Option<(BigInt, Vec<BigInt>)> {
    let mut v = solve_crt(a, n, 0.0, |sol, _| sol.to_vec())?;
    let y = v.split_off(1);
    Some((v.pop()?, y))
}

/// `det(A)` and `Σ c_i · det(A) · x_i` for `A x = b`, up to one common sign: only these two
/// are recombined from the residues, not every numerator (the costly part when the system
/// needs thousands of primes).
pub(crate) fn cramer_combination(
    a: &[Vec<BigInt>],
    n: usize,
    c: &[BigUint],
) -> Option<(BigInt, BigInt)> {
    let total: BigUint = c.iter().sum();
    let extra = total.bits() as f64 + 1.0;
    let v = solve_crt(a, n, extra, |sol, p| {
        let dot = c
            .iter()
            .zip(&sol[1..])
            .fold(0u64, |acc, (ci, &y)| (acc + mulmod(rem(ci, p), y, p)) % p);
        vec![sol[0], dot]
    })?;
    Some((v[0].clone(), v[1].clone()))
}

/// Solves modulo enough primes for Hadamard's bound (plus `extra_bits` for what `pick` derives
/// from each solution `[det, det·x_0, …]`) and recombines `pick`'s values by Chinese
/// remaindering into the symmetric range. `None` when `A` is singular.
fn solve_crt(
    a: &[Vec<BigInt>],
    n: usize,
    extra_bits: f64,
    pick: impl Fn(&[u64], u64) -> Vec<u64>,
) -> Option<Vec<BigInt>> {
    // Hadamard: |det| and every Cramer numerator are at most Π_j sqrt(|row_j|² + 1), with
    // |row_j|² ≤ (n+1) · max² for the rows of big entries.
    let mut log2_bound = extra_bits;
    for row in a {
        let small: Option<Vec<i64>> = row.iter().map(|v| v.to_i64()).collect();
        log2_bound += match small {
            Some(v) => {
                let norm2: f64 = v.iter().map(|&x| (x as f64) * (x as f64)).sum::<f64>() + 1.0;
                0.5 * norm2.log2()
            }
            None => {
                let bits = row.iter().map(|v| v.bits()).max().unwrap_or(0) as f64;
                bits + 0.5 * ((n + 2) as f64).log2()
            }
        };
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
            let m: Vec<Vec<u64>> = a
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|v| match v.to_i64() {
                            Some(x) => x.rem_euclid(p as i64) as u64,
                            None => rem_signed(v, p),
                        })
                        .collect()
                })
                .collect();
            if let Some(sol) = solve_mod(m, n, p) {
                residues.push((p, pick(&sol, p)));
                have += (p as f64).log2();
            }
        }
        p -= 2;
    }
    // Chinese remaindering (Garner, incrementally), then the symmetric range.
    let width = residues.first().map_or(0, |r| r.1.len());
    let mut modulus = BigUint::one();
    let mut values = vec![BigUint::zero(); width];
    for (p, r) in &residues {
        let inv = powmod(rem(&modulus, *p), p - 2, *p);
        for (v, &rv) in values.iter_mut().zip(r) {
            let cur = rem(v, *p);
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
    if signed.first().is_none_or(Zero::is_zero) {
        return None;
    }
    Some(signed)
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
        // The same system scaled by 2^200: entries beyond i64, det and numerators scale too.
        let big = BigInt::one() << 200;
        let scaled: Vec<Vec<BigInt>> = a
            .iter()
            .map(|r| r.iter().map(|v| v * &big).collect())
            .collect();
        let (det, y) = cramer(&scaled, 2).unwrap();
        let det2 = &big * &big;
        assert_eq!(det, BigInt::from(5) * &det2);
        assert_eq!(y, vec![BigInt::from(5) * &det2, BigInt::from(15) * &det2]);
        // 2·x + 7·y over the same determinant: 5·(2 + 21) = 115.
        let c = [BigUint::from(2u8), BigUint::from(7u8)];
        let (det, dot) = cramer_combination(&a, 2, &c).unwrap();
        assert_eq!((det, dot), (BigInt::from(5), BigInt::from(115)));
    }
}
