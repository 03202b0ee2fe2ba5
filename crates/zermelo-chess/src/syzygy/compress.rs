//! Syzygy's compression of one sub-table, written: a sequence of small values (WDL classes
//! or DTZ map indices, don't-cares already chosen) becomes a symbol table, Huffman-coded
//! blocks, a size table and a sparse index, as [`super::pairs`] reads them.
//!
//! * **Pairs.** Starting from one symbol per distinct value, rounds of pair substitution
//!   (Re-Pair, Larsson and Moffat 1999), on one chunk of the sequence per thread
//!   ([`super::repair`]).
//! * **Code.** A canonical Huffman code over the symbols' frequencies ([`super::huffman`]).
//! * **Blocks.** The codes are packed into blocks of `2^b` bytes holding at most 65,536
//!   values each, `b` chosen for the smallest total (data, 2 bytes per block, 6 bytes per
//!   index entry). A block that cannot take its next symbol may end with a longer symbol that
//!   begins with it and has a code short enough to fit: the values past the block's count are
//!   never read.
//! * **Index.** Every `2^k` values, the block holding the middle value of the step and how far
//!   into it that value lies (`k` about 16 times the values of an average block).

use rayon::prelude::*;

use super::huffman::Code;
use super::repair::{repair, Repaired, Symbol, Tuning, Values, TUNING};

/// Most values a block holds (its size entry is 16 bits).
const MAX_BLOCK_VALUES: u64 = 65_536;

/// A compressed sub-table: the parts of the file after its flags byte.
#[derive(Debug, Default)]
pub(crate) struct Coded {
    /// Bits of code in the blocks (without the table and the blocks' unused ends).
    pub(crate) bits: u64,
    /// Block size, index step, padding, block count, code lengths and symbols: the header
    /// after the flags byte (an odd number of bytes, so that with the flags it is even).
    pub(crate) header: Vec<u8>,
    /// 6 bytes per index step.
    pub(crate) index: Vec<u8>,
    /// 2 bytes per block (the padding blocks included).
    pub(crate) sizes: Vec<u8>,
    /// The blocks.
    pub(crate) data: Vec<u8>,
}

impl Coded {
    /// Bytes in the file, data padded to 64 bytes.
    pub(crate) fn file_bytes(&self) -> u64 {
        (1 + self.header.len() + self.index.len() + self.sizes.len()) as u64
            + (self.data.len() as u64).div_ceil(64) * 64
    }
}

/// Compresses `values` (each below 4095), in blocks of at most `2^max_block_bits` bytes.
pub(crate) fn compress(values: Values, max_block_bits: u32) -> Coded {
    compress_with(values, max_block_bits, &TUNING)
}

/// [`compress`] with other knobs.
pub(crate) fn compress_with(values: Values, max_block_bits: u32, tuning: &Tuning) -> Coded {
    let n = values.len() as u64;
    let Repaired {
        symbols,
        len,
        seq,
        freq,
    } = repair(values, tuning);
    let code = Code::new(&freq);
    let cover = covers(&symbols, &code);
    // Each block size packed on its own thread; the first smallest kept, as in turn.
    let packings: Vec<Packing> = (5..=max_block_bits.max(5))
        .into_par_iter()
        .map(|b| pack(&seq, &len, &code, &cover, b, n))
        .collect();
    let packing = packings
        .into_iter()
        .min_by_key(|p| p.total_bytes())
        .expect("a block size");
    encode(&symbols, &seq, &code, &packing, n)
}

/// Per symbol, the coded symbol with the shortest code among those whose values begin with
/// its values (itself if it has a code and nothing shorter begins with it).
fn covers(symbols: &[Symbol], code: &Code) -> Vec<Option<u16>> {
    let mut cover: Vec<Option<u16>> = vec![None; symbols.len()];
    for (s, &l) in code.len.iter().enumerate() {
        if l == 0 {
            continue;
        }
        // Every prefix along the left spine of `s` may be covered by `s`.
        let mut t = s;
        loop {
            let better = cover[t].is_none_or(|c| code.len[usize::from(c)] > l);
            if better {
                cover[t] = Some(s as u16);
            }
            match symbols[t] {
                Symbol::Pair(left, _) => t = usize::from(left),
                Symbol::Leaf(_) => break,
            }
        }
    }
    cover
}

/// How the sequence is cut into blocks of `2^bits` bytes.
struct Packing {
    bits: u32,
    /// Per block: its first element, its element count, its values, and the symbol written
    /// for its last element when that is a longer cover.
    blocks: Vec<Block>,
    idx_bits: u32,
    values: u64,
}

#[derive(Clone, Copy)]
struct Block {
    start: usize,
    elements: usize,
    values: u64,
    last_as: Option<u16>,
}

impl Packing {
    /// Padding blocks the sparse index needs past the last real block.
    fn padding(&self) -> u64 {
        let step = 1u64 << self.idx_bits;
        let last_middle = (self.values.div_ceil(step) - 1) * step + step / 2;
        if last_middle < self.values {
            0
        } else {
            (last_middle - self.values) / MAX_BLOCK_VALUES + 1
        }
    }

    fn total_bytes(&self) -> u64 {
        let data = ((self.blocks.len() as u64) << self.bits).div_ceil(64) * 64;
        let entries = self.values.div_ceil(1 << self.idx_bits);
        data + 2 * (self.blocks.len() as u64 + self.padding()) + 6 * entries
    }
}

/// Cuts `seq` into blocks of `2^bits` bytes.
fn pack(
    seq: &[u16],
    len: &[u32],
    code: &Code,
    cover: &[Option<u16>],
    bits: u32,
    n: u64,
) -> Packing {
    let capacity = 8u64 << bits;
    let mut blocks = Vec::new();
    let mut cur = Block {
        start: 0,
        elements: 0,
        values: 0,
        last_as: None,
    };
    let mut used = 0u64;
    for (k, &s) in seq.iter().enumerate() {
        let l = u64::from(code.len[usize::from(s)]);
        let t = u64::from(len[usize::from(s)]);
        if used + l > capacity || cur.values + t > MAX_BLOCK_VALUES {
            let cover_fits = cover[usize::from(s)]
                .filter(|&c| used + u64::from(code.len[usize::from(c)]) <= capacity);
            if cur.values + t <= MAX_BLOCK_VALUES && cover_fits.is_some() {
                cur.elements += 1;
                cur.values += t;
                cur.last_as = cover_fits;
                blocks.push(cur);
                cur = Block {
                    start: k + 1,
                    elements: 0,
                    values: 0,
                    last_as: None,
                };
                used = 0;
                continue;
            }
            blocks.push(cur);
            cur = Block {
                start: k,
                elements: 0,
                values: 0,
                last_as: None,
            };
            used = 0;
        }
        cur.elements += 1;
        cur.values += t;
        used += l;
    }
    if cur.elements > 0 {
        blocks.push(cur);
    }
    let average = n / blocks.len() as u64;
    let mut idx_bits = 64 - average.leading_zeros() + 4;
    while idx_bits > 1 && (1u64 << (idx_bits - 1)) > n {
        idx_bits -= 1;
    }
    Packing {
        bits,
        blocks,
        idx_bits,
        values: n,
    }
}

/// Writes `bits` bits of `value` after the `*at` bits already in `out` (most significant
/// bit first).
fn put_bits(out: &mut [u8], at: &mut u64, value: u64, bits: u32) {
    for k in (0..bits).rev() {
        if value >> k & 1 != 0 {
            out[(*at / 8) as usize] |= 0x80 >> (*at % 8);
        }
        *at += 1;
    }
}

/// The header, tables and blocks of a packing.
fn encode(symbols: &[Symbol], seq: &[u16], code: &Code, p: &Packing, n: u64) -> Coded {
    let block_bytes = 1usize << p.bits;
    let mut data = vec![0u8; p.blocks.len() * block_bytes];
    let mut sizes = Vec::with_capacity(2 * p.blocks.len());
    for (k, b) in p.blocks.iter().enumerate() {
        let out = &mut data[k * block_bytes..(k + 1) * block_bytes];
        let mut at = 0u64;
        for (j, &s) in seq[b.start..b.start + b.elements].iter().enumerate() {
            let last = j + 1 == b.elements;
            let s = usize::from(if last { b.last_as.unwrap_or(s) } else { s });
            put_bits(out, &mut at, code.code[s], code.len[s]);
        }
        sizes.extend_from_slice(&((b.values - 1) as u16).to_le_bytes());
    }
    let padding = p.padding();
    for _ in 0..padding {
        sizes.extend_from_slice(&((MAX_BLOCK_VALUES - 1) as u16).to_le_bytes());
    }
    let index = sparse_index(p, n);
    let mut header = vec![p.bits as u8, p.idx_bits as u8, padding as u8];
    header.extend_from_slice(&(p.blocks.len() as u32).to_le_bytes());
    header.push(code.max_len as u8);
    header.push(code.min_len as u8);
    for &f in &code.first_symbol {
        header.extend_from_slice(&f.to_le_bytes());
    }
    header.extend_from_slice(&(symbols.len() as u16).to_le_bytes());
    let mut by_number = vec![0usize; symbols.len()];
    for (s, &k) in code.number.iter().enumerate() {
        by_number[usize::from(k)] = s;
    }
    for &s in &by_number {
        let (left, right) = match symbols[s] {
            Symbol::Leaf(v) => (v, 0xfff),
            Symbol::Pair(a, b) => (code.number[usize::from(a)], code.number[usize::from(b)]),
        };
        header.push(left as u8);
        header.push(((left >> 8) as u8 & 0x0f) | ((right & 0x0f) << 4) as u8);
        header.push((right >> 4) as u8);
    }
    if symbols.len() % 2 == 1 {
        header.push(0);
    }
    let bits = seq
        .iter()
        .map(|&s| u64::from(code.len[usize::from(s)]))
        .sum();
    Coded {
        bits,
        header,
        index,
        sizes,
        data,
    }
}

/// Every `2^idx_bits` values: the block holding the middle value of the step (padding blocks
/// of 65,536 values past the end) and the middle value's place in it.
fn sparse_index(p: &Packing, n: u64) -> Vec<u8> {
    let step = 1u64 << p.idx_bits;
    let entries = n.div_ceil(step);
    let mut out = Vec::with_capacity(6 * entries as usize);
    let (mut block, mut start) = (0usize, 0u64);
    let block_values = |k: usize| p.blocks.get(k).map_or(MAX_BLOCK_VALUES, |b| b.values);
    for e in 0..entries {
        let middle = e * step + step / 2;
        while start + block_values(block) <= middle {
            start += block_values(block);
            block += 1;
        }
        out.extend_from_slice(&(block as u32).to_le_bytes());
        out.extend_from_slice(&((middle - start) as u16).to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::pairs::{Leaf, Pairs};
    use super::*;

    /// The sequence written and read back by the reader of published tables.
    fn round_trip(values: &[u16], max_block_bits: u32, leaf: Leaf) -> u64 {
        let c = compress(Values::Owned(values.to_vec()), max_block_bits);
        let mut file = vec![0u8];
        file.extend_from_slice(&c.header);
        let (mut pairs, next) = Pairs::parse(&file, 0, values.len() as u64, leaf).unwrap();
        assert_eq!(next, file.len(), "header length");
        let index_at = file.len();
        file.extend_from_slice(&c.index);
        let sizes_at = file.len();
        file.extend_from_slice(&c.sizes);
        while file.len() % 64 != 0 {
            file.push(0);
        }
        let data_at = file.len();
        file.extend_from_slice(&c.data);
        file.extend_from_slice(&[0; 16]);
        assert_eq!(
            pairs.section_lengths(),
            [
                c.index.len() as u64,
                c.sizes.len() as u64,
                c.data.len() as u64
            ]
        );
        pairs.place(index_at, sizes_at, data_at);
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(pairs.value(&file, i as u64).unwrap(), v, "value {i}");
        }
        c.file_bytes()
    }

    fn noise(n: usize, seed: u64, range: u64, run: u64) -> Vec<u16> {
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut out = Vec::new();
        while out.len() < n {
            let v = (next() % range) as u16;
            for _ in 0..1 + next() % run {
                out.push(v);
            }
        }
        out.truncate(n);
        out
    }

    #[test]
    fn sequences_read_back() {
        round_trip(&[3], 6, Leaf::Wdl);
        round_trip(&[2, 2, 2, 2, 4], 6, Leaf::Wdl);
        round_trip(&noise(1000, 1, 5, 1), 6, Leaf::Wdl);
        round_trip(&noise(100_000, 2, 5, 40), 6, Leaf::Wdl);
        round_trip(&noise(100_000, 3, 300, 3), 10, Leaf::Dtz);
        round_trip(&noise(300_000, 4, 2, 2000), 10, Leaf::Dtz);
        // Long runs: blocks full of values rather than bits, padding blocks in the index.
        round_trip(
            &vec![1; 400_000].into_iter().chain([0]).collect::<Vec<_>>(),
            6,
            Leaf::Wdl,
        );
    }

    #[test]
    fn runs_compress_to_little() {
        let v = noise(1_000_000, 5, 3, 500);
        let bytes = round_trip(&v, 6, Leaf::Wdl);
        // About 4,000 runs of 3 values and random lengths (1 to 500): about 10 bits each.
        assert!(bytes < 8_000, "{bytes}");
    }
}
