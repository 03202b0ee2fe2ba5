//! Syzygy's compression: a table's values are a sequence cut into blocks, each block a stream
//! of canonical Huffman codes; each code names a symbol, and a symbol is either one value or a
//! pair of symbols (so one code can stand for a long run of values, the "pairs" of
//! Re-Pair compression). An index table gives, every `2^idx_bits` values, the block and the
//! position in it; a size table gives the number of values in each block.

/// What is wrong with a table's bytes (the caller names the file).
#[derive(Debug)]
pub(crate) struct Corrupt(pub(crate) String);

impl Corrupt {
    pub(crate) fn new(reason: impl Into<String>) -> Corrupt {
        Corrupt(reason.into())
    }
}

/// `n` bytes at `at`, or what is wrong.
fn bytes_at(data: &[u8], at: usize, n: usize) -> Result<&[u8], Corrupt> {
    at.checked_add(n)
        .and_then(|end| data.get(at..end))
        .ok_or_else(|| {
            Corrupt::new(format!(
                "reads {n} bytes at offset {at}, past the end of the file ({} bytes)",
                data.len()
            ))
        })
}

pub(crate) fn u8_at(data: &[u8], at: usize) -> Result<u8, Corrupt> {
    Ok(bytes_at(data, at, 1)?[0])
}

pub(crate) fn u16_le(data: &[u8], at: usize) -> Result<u16, Corrupt> {
    let b = bytes_at(data, at, 2)?;
    Ok(u16::from_le_bytes([b[0], b[1]]))
}

fn u32_le(data: &[u8], at: usize) -> Result<u32, Corrupt> {
    let b = bytes_at(data, at, 4)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn u32_be(data: &[u8], at: usize) -> Result<u32, Corrupt> {
    let b = bytes_at(data, at, 4)?;
    Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

fn u64_be(data: &[u8], at: usize) -> Result<u64, Corrupt> {
    let b = bytes_at(data, at, 8)?;
    Ok(u64::from_be_bytes(b.try_into().expect("8 bytes")))
}

/// Which kind of leaf a symbol holds: a WDL class (one byte) or a DTZ entry (12 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leaf {
    /// `0..=4`, the class plus 2.
    Wdl,
    /// A DTZ entry, possibly through a map.
    Dtz,
}

/// One compressed sequence of values (one side of one file of a table).
#[derive(Debug)]
pub(crate) enum Pairs {
    /// Every value is the same (the header's flag 0x80).
    Constant(u16),
    /// Huffman-coded blocks.
    Coded(Coded),
}

/// The decoding state of a Huffman-coded sequence, with the offsets of its three sections.
#[derive(Debug)]
pub(crate) struct Coded {
    leaf: Leaf,
    block_bits: u32,
    idx_bits: u32,
    /// Blocks counted in the size table (the real ones and padding).
    blocks: u64,
    real_blocks: u64,
    values: u64,
    min_len: u32,
    /// Per code length (from `min_len`), the first symbol of that length.
    first_symbol: Vec<u16>,
    /// Per code length, the smallest left-aligned 64-bit code of that length.
    base: Vec<u64>,
    /// Per value of a code's top 8 bits, the first length (index into `base`) a code with
    /// them can have: the decoding loop starts its search there instead of at the shortest.
    first_length: Box<[u8; 256]>,
    /// Per symbol, the number of values it stands for, minus one.
    symbol_len: Vec<u32>,
    /// Offset of the symbols' 3-byte definitions.
    symbols: usize,
    index_table: usize,
    size_table: usize,
    data: usize,
}

/// A symbol's definition: a leaf, or its two halves.
fn symbol(data: &[u8], symbols: usize, s: usize) -> Result<(usize, usize, bool), Corrupt> {
    let at = symbols + 3 * s;
    let b = bytes_at(data, at, 3)?;
    let left = (usize::from(b[1] & 0x0f) << 8) | usize::from(b[0]);
    let right = (usize::from(b[2]) << 4) | usize::from(b[1] >> 4);
    Ok((left, right, right == 0x0fff))
}

impl Pairs {
    /// Reads the header at `at` of a sequence of `values` values; returns it and where the next
    /// header starts. Sections are placed later ([`Pairs::place`]).
    pub(crate) fn parse(
        data: &[u8],
        at: usize,
        values: u64,
        leaf: Leaf,
    ) -> Result<(Pairs, usize), Corrupt> {
        let flags = u8_at(data, at)?;
        if flags & 0x80 != 0 {
            let value = match leaf {
                Leaf::Wdl => u16::from(u8_at(data, at + 1)?),
                Leaf::Dtz => 0,
            };
            return Ok((Pairs::Constant(value), at + 2));
        }
        let block_bits = u32::from(u8_at(data, at + 1)?);
        let idx_bits = u32::from(u8_at(data, at + 2)?);
        let padding = u64::from(u8_at(data, at + 3)?);
        let real_blocks = u64::from(u32_le(data, at + 4)?);
        let max_len = u32::from(u8_at(data, at + 8)?);
        let min_len = u32::from(u8_at(data, at + 9)?);
        if !(1..=32).contains(&block_bits) || !(1..=40).contains(&idx_bits) {
            return Err(Corrupt::new(format!(
                "block size 2^{block_bits} or index step 2^{idx_bits} out of range"
            )));
        }
        if min_len == 0 || max_len < min_len || max_len > 64 {
            return Err(Corrupt::new(format!(
                "code lengths {min_len}..{max_len} out of range"
            )));
        }
        let lengths = (max_len - min_len + 1) as usize;
        let first_symbol = (0..lengths)
            .map(|i| u16_le(data, at + 10 + 2 * i))
            .collect::<Result<Vec<_>, _>>()?;
        let count = usize::from(u16_le(data, at + 10 + 2 * lengths)?);
        let symbols = at + 12 + 2 * lengths;
        // Checked before allocating per symbol.
        bytes_at(data, symbols, 3 * count)?;
        let bases = code_bases(&first_symbol, min_len)?;
        let coded = Coded {
            leaf,
            block_bits,
            idx_bits,
            blocks: real_blocks + padding,
            real_blocks,
            values,
            min_len,
            first_length: first_lengths(&bases),
            base: bases,
            first_symbol,
            symbol_len: symbol_lengths(data, symbols, count)?,
            symbols,
            index_table: 0,
            size_table: 0,
            data: 0,
        };
        Ok((Pairs::Coded(coded), symbols + 3 * count + (count & 1)))
    }

    /// The lengths of the index table, the size table and the data.
    pub(crate) fn section_lengths(&self) -> [u64; 3] {
        match self {
            Pairs::Constant(_) => [0; 3],
            // Saturating: a hostile header's sizes then fail the check against the file's.
            Pairs::Coded(c) => [
                c.values.div_ceil(1 << c.idx_bits).saturating_mul(6),
                c.blocks.saturating_mul(2),
                c.real_blocks.saturating_mul(1 << c.block_bits),
            ],
        }
    }

    /// Sets where the three sections start.
    pub(crate) fn place(&mut self, index_table: usize, size_table: usize, data: usize) {
        if let Pairs::Coded(c) = self {
            c.index_table = index_table;
            c.size_table = size_table;
            c.data = data;
        }
    }

    /// The value at `idx`.
    pub(crate) fn value(&self, data: &[u8], idx: u64) -> Result<u16, Corrupt> {
        match self {
            Pairs::Constant(v) => Ok(*v),
            Pairs::Coded(c) => c.value(data, idx),
        }
    }
}

/// The canonical Huffman bases: the smallest code of each length, left-aligned in 64 bits.
fn code_bases(first_symbol: &[u16], min_len: u32) -> Result<Vec<u64>, Corrupt> {
    let n = first_symbol.len();
    let mut base = vec![0u64; n];
    for i in (0..n - 1).rev() {
        let sum = (base[i + 1] + u64::from(first_symbol[i]))
            .checked_sub(u64::from(first_symbol[i + 1]))
            .ok_or_else(|| Corrupt::new("code lengths that no Huffman code has"))?;
        base[i] = sum / 2;
    }
    for (i, b) in base.iter_mut().enumerate() {
        *b = b.checked_shl(64 - (min_len + i as u32)).unwrap_or(0);
    }
    Ok(base)
}

/// For each top byte of a left-aligned code, the first index of `base` that the largest code
/// with that top byte reaches (every code with it reaches that index or a later one, as
/// `base` decreases).
fn first_lengths(base: &[u64]) -> Box<[u8; 256]> {
    let mut out = Box::new([0u8; 256]);
    for (top, slot) in out.iter_mut().enumerate() {
        let largest = ((top as u64) << 56) | ((1u64 << 56) - 1);
        *slot = base.iter().position(|&b| largest >= b).unwrap_or(0) as u8;
    }
    out
}

/// How many values each symbol stands for (minus one), following the pairs depth first with
/// an explicit stack; a symbol that contains itself is an error, not an endless loop.
fn symbol_lengths(data: &[u8], symbols: usize, count: usize) -> Result<Vec<u32>, Corrupt> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut len = vec![0u32; count];
    let mut state = vec![NEW; count];
    let mut stack = Vec::new();
    for root in 0..count {
        stack.push(root);
        while let Some(&s) = stack.last() {
            let (left, right, leaf) = symbol(data, symbols, s)?;
            if state[s] == DONE || leaf {
                state[s] = DONE;
                stack.pop();
                continue;
            }
            if left >= count || right >= count {
                return Err(Corrupt::new(format!(
                    "symbol {s} refers past {count} symbols"
                )));
            }
            if state[s] == NEW {
                state[s] = OPEN;
                for half in [left, right] {
                    match state[half] {
                        NEW => stack.push(half),
                        OPEN => return Err(Corrupt::new(format!("symbol {s} contains itself"))),
                        _ => {}
                    }
                }
                continue;
            }
            if state[left] != DONE || state[right] != DONE {
                return Err(Corrupt::new(format!("symbol {s} contains itself")));
            }
            len[s] = len[left]
                .checked_add(len[right])
                .and_then(|l| l.checked_add(1))
                .ok_or_else(|| Corrupt::new("a symbol longer than 2^32 values"))?;
            state[s] = DONE;
            stack.pop();
        }
    }
    Ok(len)
}

impl Coded {
    /// Values in block `block`, minus one.
    fn block_len(&self, data: &[u8], block: u64) -> Result<i64, Corrupt> {
        if block >= self.blocks {
            return Err(Corrupt::new(format!("block {block} of {}", self.blocks)));
        }
        Ok(i64::from(u16_le(
            data,
            self.size_table + 2 * block as usize,
        )?))
    }

    /// The block holding value `idx`, and its place in the block.
    fn locate(&self, data: &[u8], idx: u64) -> Result<(u64, i64), Corrupt> {
        if idx >= self.values {
            return Err(Corrupt::new(format!("index {idx} of {}", self.values)));
        }
        let entry = self.index_table + 6 * (idx >> self.idx_bits) as usize;
        let mut block = u64::from(u32_le(data, entry)?);
        let step = 1i64 << self.idx_bits;
        let mut lit = (idx as i64 & (step - 1)) - step / 2 + i64::from(u16_le(data, entry + 4)?);
        while lit < 0 {
            block = block
                .checked_sub(1)
                .ok_or_else(|| Corrupt::new("an index entry before the first block"))?;
            lit += self.block_len(data, block)? + 1;
        }
        while lit > self.block_len(data, block)? {
            lit -= self.block_len(data, block)? + 1;
            block += 1;
        }
        Ok((block, lit))
    }

    fn value(&self, data: &[u8], idx: u64) -> Result<u16, Corrupt> {
        let (block, mut lit) = self.locate(data, idx)?;
        if block >= self.real_blocks {
            return Err(Corrupt::new(format!(
                "block {block} of {}",
                self.real_blocks
            )));
        }
        let mut at = self.data + (block << self.block_bits) as usize;
        let mut code = u64_be(data, at)?;
        at += 8;
        let mut free_bits = 0;
        let sym = loop {
            // `base`'s last entry is 0, which every code reaches: the search ends there.
            let mut l = usize::from(self.first_length[(code >> 56) as usize]);
            while l + 1 < self.base.len() && code < self.base[l] {
                l += 1;
            }
            let len = self.min_len + l as u32;
            let sym =
                usize::from(self.first_symbol[l]) + ((code - self.base[l]) >> (64 - len)) as usize;
            let run = i64::from(*self.symbol_len.get(sym).ok_or_else(|| {
                Corrupt::new(format!(
                    "code for symbol {sym} of {}",
                    self.symbol_len.len()
                ))
            })?) + 1;
            if lit < run {
                break sym;
            }
            lit -= run;
            code = code.checked_shl(len).unwrap_or(0);
            free_bits += len;
            if free_bits >= 32 {
                free_bits -= 32;
                code |= u64::from(u32_be(data, at)?) << free_bits;
                at += 4;
            }
        };
        self.leaf_value(data, sym, lit)
    }

    /// Descends from `sym` to the leaf holding its `lit`-th value.
    fn leaf_value(&self, data: &[u8], mut sym: usize, mut lit: i64) -> Result<u16, Corrupt> {
        while self.symbol_len[sym] != 0 {
            let (left, right, _) = symbol(data, self.symbols, sym)?;
            let run = i64::from(self.symbol_len[left]) + 1;
            if lit < run {
                sym = left;
            } else {
                lit -= run;
                sym = right;
            }
        }
        let (left, _, _) = symbol(data, self.symbols, sym)?;
        Ok(match self.leaf {
            Leaf::Wdl => left as u16 & 0xff,
            Leaf::Dtz => left as u16,
        })
    }
}
