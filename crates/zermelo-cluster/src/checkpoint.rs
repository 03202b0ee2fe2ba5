//! Checkpoints at round boundaries: one file per worker and round in the work folder.
//!
//! A file `w00003-r0000000012.ckpt` holds worker 3's state words and best-move keys after round
//! 11, i.e. with every node of depth <= 12 decided: the job resumes with round 12. Layout
//! (little-endian): magic `ZCKPT\0\0\x02`, job fingerprint u64, worker u32, workers u32, next
//! round u64, first node u32, node count u32, the words (u32 each), the best-move keys (u64
//! each, when the job derives best moves), CRC-32 of all before.
//! Files are written to a temporary name, synced and renamed, so a file that exists is whole;
//! each worker keeps its last two, because a peer may die after this worker wrote round `r`
//! but before it wrote its own: the job resumes from the last round every worker holds.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use zermelo::NodeId;

const MAGIC: &[u8; 8] = b"ZCKPT\0\0\x02";
const HEADER: usize = 8 + 8 + 4 + 4 + 8 + 4 + 4;

/// What identifies a job: checkpoints of another input, rules or cluster shape are not used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    pub fingerprint: u64,
    pub worker: u32,
    pub workers: u32,
    pub lo: NodeId,
    pub len: u32,
    /// Whether the files hold best-move keys.
    pub keys: bool,
}

impl Place {
    /// Bytes of a checkpoint file.
    fn size(self) -> usize {
        HEADER + (4 + if self.keys { 8 } else { 0 }) * self.len as usize + 4
    }
}

/// FNV-1a over the parts that make two jobs the same.
pub(crate) fn fingerprint(parts: &[u64]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for p in parts {
        for b in p.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn path(dir: &Path, worker: u32, round: u64) -> PathBuf {
    dir.join(format!("w{worker:05}-r{round:010}.ckpt"))
}

/// Writes the state after a round (`round` is the next round to run), then removes this
/// worker's older checkpoints but the previous one.
pub(crate) fn write(
    dir: &Path,
    place: Place,
    round: u64,
    words: &[u32],
    keys: &[u64],
) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(place.size());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&place.fingerprint.to_le_bytes());
    bytes.extend_from_slice(&place.worker.to_le_bytes());
    bytes.extend_from_slice(&place.workers.to_le_bytes());
    bytes.extend_from_slice(&round.to_le_bytes());
    bytes.extend_from_slice(&place.lo.to_le_bytes());
    bytes.extend_from_slice(&place.len.to_le_bytes());
    for w in words {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    for k in keys {
        bytes.extend_from_slice(&k.to_le_bytes());
    }
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    let target = path(dir, place.worker, round);
    let temp = target.with_extension("tmp");
    {
        let mut f = fs::File::create(&temp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
    }
    fs::rename(&temp, &target)?;
    let mut mine = rounds(dir, place)?;
    mine.sort_unstable();
    let keep = mine.len().saturating_sub(2);
    for &old in &mine[..keep] {
        let _ = fs::remove_file(path(dir, place.worker, old));
    }
    Ok(())
}

/// Removes every checkpoint file of this worker (whole or half-written): the job is done.
pub(crate) fn remove_all(dir: &Path, worker: u32) {
    let prefix = format!("w{worker:05}-r");
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(&prefix))
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The rounds this worker has checkpoints of (for this job), by their headers.
pub(crate) fn rounds(dir: &Path, place: Place) -> io::Result<Vec<u64>> {
    let prefix = format!("w{:05}-r", place.worker);
    let mut found = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        // Only regular files: opening a FIFO of that name would wait for a writer.
        if !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(rest) = name.strip_prefix(&prefix) else {
            continue;
        };
        let Some(Ok(round)) = rest.strip_suffix(".ckpt").map(str::parse::<u64>) else {
            continue;
        };
        let mut head = [0u8; HEADER];
        let ok = fs::File::open(dir.join(name))
            .and_then(|mut f| io::Read::read_exact(&mut f, &mut head))
            .is_ok();
        if ok && header_matches(&head, place, round) {
            found.push(round);
        }
    }
    Ok(found)
}

fn header_matches(head: &[u8], place: Place, round: u64) -> bool {
    let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(head[i..i + 8].try_into().expect("8 bytes"));
    &head[..8] == MAGIC
        && u64_at(8) == place.fingerprint
        && u32_at(16) == place.worker
        && u32_at(20) == place.workers
        && u64_at(24) == round
        && u32_at(32) == place.lo
        && u32_at(36) == place.len
}

/// Reads this worker's checkpoint of `round`: its state words and best-move keys.
pub(crate) fn read(dir: &Path, place: Place, round: u64) -> Result<(Vec<u32>, Vec<u64>), String> {
    let file = path(dir, place.worker, round);
    let bytes = fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let len = place.len as usize;
    let bad = || {
        format!(
            "{}: damaged checkpoint (remove the work folder to start over)",
            file.display()
        )
    };
    if bytes.len() != place.size() || !header_matches(&bytes, place, round) {
        return Err(bad());
    }
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
        return Err(bad());
    }
    let words = body[HEADER..HEADER + 4 * len]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let keys = body[HEADER + 4 * len..]
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    Ok((words, keys))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_the_last_two() {
        let dir = tempfile::tempdir().unwrap();
        let place = Place {
            fingerprint: 7,
            worker: 1,
            workers: 2,
            lo: 10,
            len: 3,
            keys: true,
        };
        for round in 1..=4 {
            write(
                dir.path(),
                place,
                round,
                &[round as u32, 2, 3],
                &[4, 5, 1 << 40],
            )
            .unwrap();
        }
        let mut have = rounds(dir.path(), place).unwrap();
        have.sort_unstable();
        assert_eq!(have, [3, 4]);
        assert_eq!(
            read(dir.path(), place, 4).unwrap(),
            (vec![4, 2, 3], vec![4, 5, 1 << 40])
        );
        let other = Place {
            fingerprint: 8,
            ..place
        };
        assert!(rounds(dir.path(), other).unwrap().is_empty());
        // A flipped byte is caught.
        let file = path(dir.path(), 1, 4);
        let mut bytes = fs::read(&file).unwrap();
        bytes[HEADER + 1] ^= 1;
        fs::write(&file, bytes).unwrap();
        assert!(read(dir.path(), place, 4).unwrap_err().contains("damaged"));
    }
}
