//! Where results go: standard output, or a file written atomically (temporary file + rename).

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;

use crate::error::{CliResult, Failure};

/// Runs `write` against the destination: `path`, or standard output when `None`.
///
/// A file is first written to a temporary file in the same directory and renamed into place
/// only when everything succeeded, so an interrupted or failed run never leaves a half-written
/// file. A closed standard output (`zermelo ... | head`) ends the command quietly.
pub fn emit(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> CliResult {
    match path {
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
            match write(&mut out).and_then(|()| out.flush()) {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                other => Ok(other.context("cannot write to standard output")?),
            }
        }
        Some(path) => write_atomically(path, write),
    }
}

fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> CliResult {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if path.is_dir() {
        return Err(Failure::input(format!(
            "{}: is a directory, expected a file name for the output",
            path.display()
        )));
    }
    if !dir.is_dir() {
        return Err(Failure::input(format!(
            "{}: cannot write output: directory {} does not exist",
            path.display(),
            dir.display()
        )));
    }
    let tmp = tempfile::Builder::new()
        .prefix(".zermelo-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    let _guard = Registered::new(tmp.path());
    let mut out = BufWriter::with_capacity(1 << 16, tmp);
    write(&mut out)
        .and_then(|()| out.flush())
        .with_context(|| format!("cannot write {}", path.display()))?;
    let tmp = out
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), e.error()))?;
    keep_permissions(tmp.as_file(), path);
    tmp.as_file()
        .sync_all()
        .with_context(|| format!("cannot sync {}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| anyhow::anyhow!("cannot rename into {}: {}", path.display(), e.error))?;
    Ok(())
}

/// Temporary files being written, removed by the interrupt handler.
static IN_PROGRESS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs a Ctrl-C / SIGTERM handler that deletes unfinished temporary files and exits with
/// 130, so an interrupted run leaves neither a half-written output nor litter.
pub fn clean_up_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        if let Ok(paths) = IN_PROGRESS.lock() {
            for p in paths.iter() {
                let _ = fs::remove_file(p);
            }
        }
        eprintln!("zermelo: interrupted");
        std::process::exit(130);
    });
}

/// Keeps a temporary path registered while it is being written.
struct Registered(PathBuf);

impl Registered {
    fn new(path: &Path) -> Registered {
        if let Ok(mut paths) = IN_PROGRESS.lock() {
            paths.push(path.to_path_buf());
        }
        Registered(path.to_path_buf())
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut paths) = IN_PROGRESS.lock() {
            paths.retain(|p| p != &self.0);
        }
    }
}

/// Temporary files are created private (0600); give the result the permissions of the file it
/// replaces, or the usual 0644 for a new file.
#[cfg(unix)]
fn keep_permissions(file: &fs::File, path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = fs::metadata(path).map_or(0o644, |m| m.permissions().mode());
    // Failing to widen permissions is harmless: the output is still complete and correct.
    let _ = file.set_permissions(fs::Permissions::from_mode(mode));
}

#[cfg(not(unix))]
fn keep_permissions(_file: &fs::File, _path: &Path) {}

/// Reads a whole input file (`-` for standard input) and returns its bytes and display name.
pub fn read_input(path: &Path) -> CliResult<(Vec<u8>, String)> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut io::stdin(), &mut bytes)
            .map_err(|e| Failure::Unreadable(format!("<stdin>: cannot read: {e}")))?;
        return Ok((bytes, "<stdin>".to_string()));
    }
    let name = path.display().to_string();
    if path.is_dir() {
        return Err(Failure::Unreadable(format!(
            "{name}: is a directory, expected a file"
        )));
    }
    let bytes =
        fs::read(path).map_err(|e| Failure::Unreadable(format!("{name}: cannot read: {e}")))?;
    Ok((bytes, name))
}
