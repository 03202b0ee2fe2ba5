//! The 16-byte checksum at the end of every Syzygy file, as Syzygy's `tbcheck` computes it:
//! CityHash's CRC variant (CityHash 1.1, `CityHashCrc256` and `CityHashCrc128`, by Pike and
//! Alakuijala) over the file without its last 16 bytes, cut into 16 MiB chunks: each chunk
//! hashed to 32 bytes, and those hashes hashed to the 16 bytes stored.
//!
//! The hash is defined by its reference implementation, so this follows its arithmetic step by
//! step (all of it wrapping 64-bit arithmetic on little-endian words); the CRC steps are
//! CRC-32C (Castagnoli) as SSE 4.2's `crc32` instruction computes them, in software. The tests
//! check the result against the checksums stored in the published tables.

/// The part of a file each first-level hash covers.
const CHUNK: usize = 1 << 24;

const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;
const K3: u64 = 0xc949_d7c7_509e_6557;

/// The checksum Syzygy stores after the tables of a file whose other bytes are `data` (the
/// last 16 bytes of every `.rtbw` and `.rtbz` file; `tbcheck` compares them).
pub fn syzygy_checksum(data: &[u8]) -> [u8; 16] {
    let mut hashes = Vec::with_capacity(32 * data.len().div_ceil(CHUNK));
    for chunk in data.chunks(CHUNK) {
        for word in crc256(chunk) {
            hashes.extend_from_slice(&word.to_le_bytes());
        }
    }
    let [lo, hi] = crc128(&hashes);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&lo.to_le_bytes());
    out[8..].copy_from_slice(&hi.to_le_bytes());
    out
}

/// The little-endian word at `at`.
fn fetch64(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"))
}

fn fetch32(s: &[u8], at: usize) -> u64 {
    u64::from(u32::from_le_bytes(
        s[at..at + 4].try_into().expect("4 bytes"),
    ))
}

fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
}

/// 128 bits to 64 (the reference's `Hash128to64`).
fn hash16(u: u64, v: u64) -> u64 {
    const MUL: u64 = 0x9ddf_ea08_eb38_2d69;
    let mut a = (u ^ v).wrapping_mul(MUL);
    a ^= a >> 47;
    let mut b = (v ^ a).wrapping_mul(MUL);
    b ^= b >> 47;
    b.wrapping_mul(MUL)
}

fn hash_0_to_16(s: &[u8]) -> u64 {
    let len = s.len() as u64;
    if s.len() > 8 {
        let a = fetch64(s, 0);
        let b = fetch64(s, s.len() - 8);
        hash16(a, b.wrapping_add(len).rotate_right(len as u32)) ^ b
    } else if s.len() >= 4 {
        let a = fetch32(s, 0);
        hash16(len.wrapping_add(a << 3), fetch32(s, s.len() - 4))
    } else if !s.is_empty() {
        let (a, b, c) = (s[0], s[s.len() >> 1], s[s.len() - 1]);
        let y = u32::from(a) + (u32::from(b) << 8);
        let z = (len as u32).wrapping_add(u32::from(c) << 2);
        shift_mix(u64::from(y).wrapping_mul(K2) ^ u64::from(z).wrapping_mul(K3)).wrapping_mul(K2)
    } else {
        K2
    }
}

/// Two words from 32 bytes and two seeds (the reference's `WeakHashLen32WithSeeds`).
fn weak32(s: &[u8], at: usize, mut a: u64, b: u64) -> (u64, u64) {
    let (w, x, y, z) = (
        fetch64(s, at),
        fetch64(s, at + 8),
        fetch64(s, at + 16),
        fetch64(s, at + 24),
    );
    a = a.wrapping_add(w);
    let mut b = b.wrapping_add(a).wrapping_add(z).rotate_right(21);
    let c = a;
    a = a.wrapping_add(x).wrapping_add(y);
    b = b.wrapping_add(a.rotate_right(44));
    (a.wrapping_add(z), b.wrapping_add(c))
}

/// CityHash128 of fewer than 128 bytes with a seed (the reference's `CityMurmur`).
fn city_murmur(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let (mut a, mut b) = seed;
    let len = s.len();
    let (mut c, mut d);
    if len <= 16 {
        a = shift_mix(a.wrapping_mul(K1)).wrapping_mul(K1);
        c = b.wrapping_mul(K1).wrapping_add(hash_0_to_16(s));
        d = shift_mix(a.wrapping_add(if len >= 8 { fetch64(s, 0) } else { c }));
    } else {
        c = hash16(fetch64(s, len - 8).wrapping_add(K1), a);
        d = hash16(
            b.wrapping_add(len as u64),
            c.wrapping_add(fetch64(s, len - 16)),
        );
        a = a.wrapping_add(d);
        let mut at = 0;
        // Words of 16 bytes from the start while any byte past them remains.
        loop {
            a ^= shift_mix(fetch64(s, at).wrapping_mul(K1)).wrapping_mul(K1);
            a = a.wrapping_mul(K1);
            b ^= a;
            c ^= shift_mix(fetch64(s, at + 8).wrapping_mul(K1)).wrapping_mul(K1);
            c = c.wrapping_mul(K1);
            d ^= c;
            at += 16;
            if at + 16 >= len {
                break;
            }
        }
    }
    a = hash16(a, c);
    b = hash16(d, b);
    (a ^ b, hash16(b, a))
}

/// The state of the 64-byte rounds shared by CityHash128's long path.
struct State {
    v: (u64, u64),
    w: (u64, u64),
    x: u64,
    y: u64,
    z: u64,
}

impl State {
    /// One round over the 64 bytes at `at`.
    fn round(&mut self, s: &[u8], at: usize) {
        self.x = self
            .x
            .wrapping_add(self.y)
            .wrapping_add(self.v.0)
            .wrapping_add(fetch64(s, at + 8))
            .rotate_right(37)
            .wrapping_mul(K1);
        self.y = self
            .y
            .wrapping_add(self.v.1)
            .wrapping_add(fetch64(s, at + 48))
            .rotate_right(42)
            .wrapping_mul(K1);
        self.x ^= self.w.1;
        self.y = self
            .y
            .wrapping_add(self.v.0)
            .wrapping_add(fetch64(s, at + 40));
        self.z = self
            .z
            .wrapping_add(self.w.0)
            .rotate_right(33)
            .wrapping_mul(K1);
        self.v = weak32(
            s,
            at,
            self.v.1.wrapping_mul(K1),
            self.x.wrapping_add(self.w.0),
        );
        self.w = weak32(
            s,
            at + 32,
            self.z.wrapping_add(self.w.1),
            self.y.wrapping_add(fetch64(s, at + 16)),
        );
        std::mem::swap(&mut self.z, &mut self.x);
    }
}

fn city128_with_seed(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    if s.len() < 128 {
        return city_murmur(s, seed);
    }
    let (x, y) = seed;
    let z = (s.len() as u64).wrapping_mul(K1);
    let v0 = (y ^ K1)
        .rotate_right(49)
        .wrapping_mul(K1)
        .wrapping_add(fetch64(s, 0));
    let v1 = v0
        .rotate_right(42)
        .wrapping_mul(K1)
        .wrapping_add(fetch64(s, 8));
    let w0 = y
        .wrapping_add(z)
        .rotate_right(35)
        .wrapping_mul(K1)
        .wrapping_add(x);
    let w1 = x
        .wrapping_add(fetch64(s, 88))
        .rotate_right(53)
        .wrapping_mul(K1);
    let mut st = State {
        v: (v0, v1),
        w: (w0, w1),
        x,
        y,
        z,
    };
    let mut at = 0;
    let mut len = s.len();
    while len >= 128 {
        st.round(s, at);
        st.round(s, at + 64);
        at += 128;
        len -= 128;
    }
    st.x =
        st.x.wrapping_add(st.v.0.wrapping_add(st.z).rotate_right(49).wrapping_mul(K0));
    st.z = st.z.wrapping_add(st.w.0.rotate_right(37).wrapping_mul(K0));
    // Up to four 32-byte pieces from the end of the remainder (reaching back before it).
    let mut done = 0;
    while done < len {
        done += 32;
        let piece = at + len - done;
        st.y =
            st.x.wrapping_add(st.y)
                .rotate_right(42)
                .wrapping_mul(K0)
                .wrapping_add(st.v.1);
        st.w.0 = st.w.0.wrapping_add(fetch64(s, piece + 16));
        st.x = st.x.wrapping_mul(K0).wrapping_add(st.w.0);
        st.z = st.z.wrapping_add(st.w.1).wrapping_add(fetch64(s, piece));
        st.w.1 = st.w.1.wrapping_add(st.v.0);
        st.v = weak32(s, piece, st.v.0.wrapping_add(st.z), st.v.1);
    }
    let x = hash16(st.x, st.v.0);
    let y = hash16(st.y.wrapping_add(st.z), st.w.0);
    (
        hash16(x.wrapping_add(st.v.1), st.w.1).wrapping_add(y),
        hash16(x.wrapping_add(st.w.1), y.wrapping_add(st.v.1)),
    )
}

fn city128(s: &[u8]) -> (u64, u64) {
    let len = s.len() as u64;
    if s.len() >= 16 {
        city128_with_seed(&s[16..], (fetch64(s, 0) ^ K3, fetch64(s, 8)))
    } else if s.len() >= 8 {
        let seed = (
            fetch64(s, 0) ^ len.wrapping_mul(K0),
            fetch64(s, s.len() - 8) ^ K1,
        );
        city128_with_seed(&[], seed)
    } else {
        city128_with_seed(s, (K0, K1))
    }
}

/// CRC-32C of the 8 little-endian bytes of `v`, continuing from `crc` (no inversions), as
/// SSE 4.2's `crc32` on 64-bit operands.
fn crc32c_word(crc: u64, v: u64) -> u64 {
    let mut c = crc as u32;
    for byte in v.to_le_bytes() {
        c = (c >> 8) ^ CRC32C[((c ^ u32::from(byte)) & 0xff) as usize];
    }
    u64::from(c)
}

/// CRC-32C's table for the reflected polynomial 0x82f63b78.
const CRC32C: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0x82f6_3b78 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[n] = c;
        n += 1;
    }
    t
};

/// The five running words and CRCs of `CityHashCrc256`'s 40-byte steps.
struct Crc256 {
    words: [u64; 5],
    t: u64,
    crcs: [u64; 5],
}

impl Crc256 {
    /// One step over the 40 bytes at `at`: rotations 41, 27, 41, 33, 25 xor `z`.
    fn step(&mut self, s: &[u8], at: usize, multiplier: u64, z: u32) {
        let [a, b, c, d, e] = self.words;
        let rotated = [
            b.rotate_right(41 ^ z),
            c.rotate_right(27 ^ z),
            d.rotate_right(41 ^ z),
            e.rotate_right(33 ^ z),
            self.t.rotate_right(25 ^ z),
        ];
        self.t = a;
        for (k, r) in rotated.into_iter().enumerate() {
            self.words[k] = r
                .wrapping_mul(multiplier)
                .wrapping_add(fetch64(s, at + 8 * k));
            self.crcs[k] = crc32c_word(self.crcs[k], self.words[k]);
        }
    }
}

/// `CityHashCrc256` of at least 240 bytes (`len` as the reference passes it).
fn crc256_long(s: &[u8], seed: u32) -> [u64; 4] {
    let len = s.len() as u64;
    let seed = u64::from(seed);
    let a = fetch64(s, 56).wrapping_add(K0);
    let b = fetch64(s, 96).wrapping_add(K0);
    let first = hash16(b, len);
    let second = fetch64(s, 120).wrapping_mul(K0).wrapping_add(len);
    let c = first;
    let d = second;
    let e = fetch64(s, 184).wrapping_add(seed);
    let mut st = Crc256 {
        words: [a, b, c, d, e],
        t: c.wrapping_add(d),
        crcs: [seed, 0, 0, 0, 0],
    };
    let mut at = 0;
    for _ in 0..s.len() / 240 {
        for _ in 0..3 {
            st.step(s, at, 1, 1);
            st.step(s, at + 40, K0, 0);
            at += 80;
        }
    }
    while s.len() - at >= 40 {
        st.step(s, at, K0, 0);
        at += 40;
    }
    if s.len() > at {
        st.step(s, s.len() - 40, K0, 0);
    }
    let [mut a, mut b, mut c, mut d, mut e] = st.words;
    let [mut f, mut g, mut h, mut i, mut j] = st.crcs;
    j = j.wrapping_add(i << 32);
    a = hash16(a, j);
    h = h.wrapping_add(g << 32);
    b = b.wrapping_add(h);
    c = hash16(c, f).wrapping_add(i);
    d = hash16(d, e.wrapping_add(first));
    j = j.wrapping_add(e);
    i = i.wrapping_add(hash16(h, st.t));
    e = hash16(a, d).wrapping_add(j);
    f = hash16(b, c).wrapping_add(a);
    g = hash16(j, i).wrapping_add(c);
    let r0 = e.wrapping_add(f).wrapping_add(g).wrapping_add(h);
    a = shift_mix(a.wrapping_add(g).wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(b);
    let r1 = second.wrapping_add(a).wrapping_add(r0);
    a = shift_mix(a.wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(c);
    let r2 = a.wrapping_add(r1);
    a = shift_mix(a.wrapping_add(e).wrapping_mul(K0)).wrapping_mul(K0);
    let r3 = a.wrapping_add(r2);
    [r0, r1, r2, r3]
}

fn crc256(s: &[u8]) -> [u64; 4] {
    if s.len() >= 240 {
        crc256_long(s, 0)
    } else {
        let mut buf = [0u8; 240];
        buf[..s.len()].copy_from_slice(s);
        crc256_long(&buf, !(s.len() as u32))
    }
}

fn crc128(s: &[u8]) -> [u64; 2] {
    if s.len() <= 900 {
        let (a, b) = city128(s);
        [a, b]
    } else {
        let r = crc256(s);
        [r[2], r[3]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every published 3-4-piece file's stored checksum is the one computed here.
    #[test]
    fn published_checksums_match() {
        let dir =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy-3-4");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipped: no published tables at {}", dir.display());
            return;
        };
        let mut checked = 0;
        for entry in entries {
            let path = entry.unwrap().path();
            if !path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let (body, stored) = bytes.split_at(bytes.len() - 16);
            assert_eq!(syzygy_checksum(body), stored, "{}", path.display());
            checked += 1;
        }
        assert!(checked >= 70, "{checked}");
    }

    /// Deterministic bytes (xorshift) standing for a file of `len` bytes without its checksum.
    fn noise(len: usize) -> Vec<u8> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ len as u64;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect()
    }

    /// Sizes reaching every path of the hash: one short chunk, long chunks, 2 and 5 chunks of
    /// 16 MiB (the second level's short and long paths); 29 chunks (past 900 bytes of chunk
    /// hashes) is `ignored_files_for_tbcheck`'s.
    const SIZES: [usize; 6] = [64, 256, 100_032, 1_000_000, (1 << 24) + 4096, 5 << 24];

    /// The checksums `tbcheck` (Syzygy's checker, built from syzygy1/tb) accepted for
    /// [`noise`] files of [`SIZES`] (written by `ignored_files_for_tbcheck`).
    const TBCHECK_ACCEPTED: [&str; 6] = [
        "84623d88065396bed19b4cfbae109c78",
        "e38d4473745da41ce0793f67a8f2b69b",
        "4da5fbae9e693012ca2dce1c8f5ed00b",
        "4bcd6e186704b7e135c4bbd18fc003ea",
        "ccd9e783991ab0a7ab64ba96041eeebd",
        "256fdbfc1af49c422eb7438db03eaa9f",
    ];

    fn hex(sum: [u8; 16]) -> String {
        sum.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn long_inputs_hash_as_tbcheck_accepted() {
        for (len, want) in SIZES.into_iter().zip(TBCHECK_ACCEPTED) {
            assert_eq!(hex(syzygy_checksum(&noise(len))), want, "{len} bytes");
        }
    }

    /// Writes `noise` files with their checksums to `$ZERMELO_TBCHECK_DIR` for `tbcheck *`
    /// (the 29-chunk file, 464 MiB, was accepted too: its checksum is
    /// 40c77ee685a127febacc3e53491343bb).
    #[test]
    #[ignore]
    fn ignored_files_for_tbcheck() {
        let dir = std::path::PathBuf::from(std::env::var("ZERMELO_TBCHECK_DIR").unwrap());
        for len in SIZES.into_iter().chain([29 << 24]) {
            let mut bytes = noise(len);
            let sum = syzygy_checksum(&bytes);
            println!("{len}: {}", hex(sum));
            bytes.extend_from_slice(&sum);
            std::fs::write(dir.join(format!("noise{len}.rtbw")), bytes).unwrap();
        }
    }

    #[test]
    fn crc32c_of_the_standard_check_string() {
        // CRC-32C("123456789") with the usual inversions is 0xe3069283.
        let mut c = 0xffff_ffffu32;
        for &byte in b"123456789" {
            c = (c >> 8) ^ CRC32C[((c ^ u32::from(byte)) & 0xff) as usize];
        }
        assert_eq!(!c, 0xe306_9283);
        assert_eq!(crc32c_word(0, 0), 0);
    }
}
