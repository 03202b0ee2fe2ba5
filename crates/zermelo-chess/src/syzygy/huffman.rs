//! Canonical Huffman codes as Syzygy's decoders expect them: at most 32 bits per code (the
//! decoders refill 32 bits at a time), symbols numbered longest code first, and for each code
//! length the first symbol number of that length; codes of one length are consecutive numbers,
//! and longer codes have smaller values.
//!
//! Lengths come from Huffman's algorithm (two queues over the symbols sorted by frequency,
//! O(n log n)); when a code would exceed [`MAX_LEN`] bits the frequencies are halved (keeping
//! every used symbol at least 1) and the code rebuilt, as bzip2 limits its codes.

/// The longest code the decoders read.
pub(crate) const MAX_LEN: u32 = 32;

/// A canonical code over symbols `0..n`.
#[derive(Clone, Debug)]
pub(crate) struct Code {
    /// Per symbol, its code length in bits (0: the symbol has no code).
    pub(crate) len: Vec<u32>,
    /// Per symbol, its code value (the low `len` bits).
    pub(crate) code: Vec<u64>,
    /// Per symbol, its number in the file's order (coded symbols longest first, then the
    /// symbols without a code).
    pub(crate) number: Vec<u16>,
    /// The shortest and longest code lengths.
    pub(crate) min_len: u32,
    pub(crate) max_len: u32,
    /// For each length from `min_len` to `max_len`, the number of the first symbol of that
    /// length (the header's table).
    pub(crate) first_symbol: Vec<u16>,
}

impl Code {
    /// The code for `freq` (symbols with frequency 0 get no code). At least two symbols get
    /// codes, so that the code is complete: with fewer used symbols, unused ones get codes
    /// that are never written.
    ///
    /// `freq` must name from 2 to 4095 symbols.
    pub(crate) fn new(freq: &[u64]) -> Code {
        assert!((2..=4095).contains(&freq.len()));
        let mut f: Vec<u64> = freq.to_vec();
        while f.iter().filter(|&&x| x > 0).count() < 2 {
            let unused = f.iter().position(|&x| x == 0).expect("two symbols");
            f[unused] = 1;
        }
        let mut len = lengths(&f);
        while len.iter().any(|&l| l > MAX_LEN) {
            for x in f.iter_mut().filter(|x| **x > 0) {
                *x = (*x / 2).max(1);
            }
            len = lengths(&f);
        }
        Code::canonical(len, &f)
    }

    /// Numbers and code values from the lengths: longest first, and within a length the
    /// rarer symbols first (any order within a length is valid).
    fn canonical(len: Vec<u32>, freq: &[u64]) -> Code {
        let n = len.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&s| (std::cmp::Reverse(len[s]), freq[s], s));
        let coded = order.iter().filter(|&&s| len[s] > 0).count();
        let max_len = len[order[0]];
        let min_len = len[order[coded - 1]];
        let mut number = vec![0u16; n];
        for (k, &s) in order.iter().enumerate() {
            number[s] = k as u16;
        }
        // Per length (longest first): its first symbol number and first code value.
        let mut count = vec![0u64; max_len as usize + 2];
        for &l in &len {
            if l > 0 {
                count[l as usize] += 1;
            }
        }
        let mut first_symbol = vec![0u16; (max_len - min_len + 1) as usize];
        let mut base = vec![0u64; max_len as usize + 2];
        let mut next_number = 0u64;
        for l in (min_len..=max_len).rev() {
            let l = l as usize;
            if l < max_len as usize {
                base[l] = (base[l + 1] + count[l + 1]) / 2;
            }
            first_symbol[l - min_len as usize] = next_number as u16;
            next_number += count[l];
        }
        let mut code = vec![0u64; n];
        let mut k_in_len = vec![0u64; max_len as usize + 1];
        for &s in &order[..coded] {
            let l = len[s] as usize;
            code[s] = base[l] + k_in_len[l];
            k_in_len[l] += 1;
        }
        Code {
            len,
            code,
            number,
            min_len,
            max_len,
            first_symbol,
        }
    }
}

/// Huffman code lengths of `freq` (0 for unused symbols; at least two used symbols).
fn lengths(freq: &[u64]) -> Vec<u32> {
    let mut leaves: Vec<usize> = (0..freq.len()).filter(|&s| freq[s] > 0).collect();
    leaves.sort_by_key(|&s| (freq[s], s));
    // Nodes: the leaves in frequency order, then the merged nodes in the order made (their
    // weights come out sorted, so two queues give the two lightest nodes at each step).
    let mut weight: Vec<u64> = leaves.iter().map(|&s| freq[s]).collect();
    let mut parent = vec![usize::MAX; 2 * leaves.len() - 1];
    let (mut leaf, mut merged) = (0, leaves.len());
    let lightest = |weight: &Vec<u64>, leaf: &mut usize, merged: &mut usize| {
        let take_leaf =
            *leaf < leaves.len() && (*merged >= weight.len() || weight[*leaf] <= weight[*merged]);
        if take_leaf {
            *leaf += 1;
            *leaf - 1
        } else {
            *merged += 1;
            *merged - 1
        }
    };
    while weight.len() < 2 * leaves.len() - 1 {
        let a = lightest(&weight, &mut leaf, &mut merged);
        let b = lightest(&weight, &mut leaf, &mut merged);
        let node = weight.len();
        weight.push(weight[a] + weight[b]);
        parent[a] = node;
        parent[b] = node;
    }
    // Depths from the root down (parents come after their children).
    let mut depth = vec![0u32; weight.len()];
    for node in (0..weight.len() - 1).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    let mut len = vec![0u32; freq.len()];
    for (k, &s) in leaves.iter().enumerate() {
        len[s] = depth[k];
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes like the published decoders: the first length whose base the left-aligned
    /// bits reach, then the symbol number from the first symbol of that length.
    fn decode_number(c: &Code, bits: u64) -> u16 {
        let n = (c.max_len - c.min_len + 1) as usize;
        let mut base = vec![0u64; n];
        for i in (0..n - 1).rev() {
            base[i] =
                (base[i + 1] + u64::from(c.first_symbol[i]) - u64::from(c.first_symbol[i + 1])) / 2;
        }
        for (i, b) in base.iter_mut().enumerate() {
            *b <<= 64 - (c.min_len + i as u32);
        }
        let l = base.iter().position(|&b| bits >= b).unwrap();
        let len = c.min_len + l as u32;
        c.first_symbol[l] + ((bits - base[l]) >> (64 - len)) as u16
    }

    fn check_round_trip(freq: &[u64]) -> Code {
        let c = Code::new(freq);
        let kraft: f64 = c
            .len
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| 0.5f64.powi(l as i32))
            .sum();
        assert!((kraft - 1.0).abs() < 1e-9, "{freq:?}: Kraft sum {kraft}");
        for s in 0..freq.len() {
            if c.len[s] == 0 {
                assert_eq!(freq[s], 0);
                continue;
            }
            assert!(c.len[s] >= 1 && c.len[s] <= MAX_LEN);
            // The code followed by ones and by zeros decodes to the symbol.
            for fill in [0u64, u64::MAX] {
                let bits = (c.code[s] << (64 - c.len[s])) | (fill >> c.len[s]);
                assert_eq!(decode_number(&c, bits), c.number[s], "{freq:?} symbol {s}");
            }
        }
        c
    }

    #[test]
    fn codes_decode_as_the_published_decoders_read_them() {
        check_round_trip(&[5, 9, 12, 13, 16, 45]);
        check_round_trip(&[1, 1]);
        check_round_trip(&[0, 7, 0, 3, 0]);
        check_round_trip(&[100, 0, 0]);
        check_round_trip(&[3, 0]);
        check_round_trip(&[0, 0, 0]);
        let c = check_round_trip(&[1, 1, 2, 4, 8, 16]);
        assert_eq!(c.len, vec![5, 5, 4, 3, 2, 1]);
    }

    #[test]
    fn fibonacci_frequencies_are_limited_to_32_bits() {
        let mut f = vec![1u64, 1];
        while f.len() < 60 {
            let n = f[f.len() - 1] + f[f.len() - 2];
            f.push(n);
        }
        let c = check_round_trip(&f);
        assert!(c.max_len <= MAX_LEN && c.max_len > 24, "{}", c.max_len);
    }
}
