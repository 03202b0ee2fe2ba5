//! Progress bars on standard error (only when it is a terminal, and not with `--quiet`).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Whether and how to show progress.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    enabled: bool,
}

static GLOBAL: std::sync::OnceLock<Progress> = std::sync::OnceLock::new();

impl Progress {
    /// Sets the process-wide setting (once, from `main`).
    pub fn init(quiet: bool) {
        let _ = GLOBAL.set(Progress::new(quiet));
    }

    /// The process-wide setting (hidden if never initialised).
    pub fn global() -> Progress {
        GLOBAL.get().copied().unwrap_or(Progress { enabled: false })
    }

    /// Progress on a terminal standard error, unless `quiet`.
    pub fn new(quiet: bool) -> Progress {
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
        }
    }

    /// A bar over `total` bytes, fed through `counter`.
    pub fn bytes_with(&self, label: &str, total: u64, counter: Arc<AtomicU64>) -> Bar {
        let style = ProgressStyle::with_template(
            "{prefix:>6} [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        )
        .map(|s| s.progress_chars("=> "));
        self.start_with(label, Some(total), style, counter)
    }

    /// A bar over `total` items (positions, nodes), fed through [`Bar::counter`].
    pub fn count(&self, label: &str, total: u64) -> Bar {
        let style = ProgressStyle::with_template(
            "{prefix:>8} [{bar:40}] {human_pos}/{human_len} {per_sec} eta {eta}",
        )
        .map(|s| s.progress_chars("=> "));
        self.start(label, Some(total), style)
    }

    /// A bar over the `total` indices of a layered solve: the counter holds the indices decided
    /// so far, [`Bar::layer`] the layer being processed.
    pub fn layers(&self, label: &str, total: u64) -> Bar {
        self.layers_with(label, total, Arc::default(), Arc::default())
    }

    /// [`Progress::layers`] fed through counters the work owns: `counter` holds the indices
    /// decided, `layer` the layer being processed.
    pub fn layers_with(
        &self,
        label: &str,
        total: u64,
        counter: Arc<AtomicU64>,
        layer: Arc<AtomicU64>,
    ) -> Bar {
        let style = ProgressStyle::with_template(
            "{prefix:>6} [{bar:40}] layer {msg}: {human_pos}/{human_len} decided, eta {eta}",
        )
        .map(|s| s.progress_chars("=> "));
        self.start_counted(label, Some(total), style, counter, layer)
    }

    /// A spinner for a phase without a measurable total.
    pub fn spinner(&self, label: &str) -> Bar {
        let style = ProgressStyle::with_template("{prefix:>6} {spinner} {elapsed}");
        self.start(label, None, style)
    }

    fn start(
        &self,
        label: &str,
        total: Option<u64>,
        style: Result<ProgressStyle, indicatif::style::TemplateError>,
    ) -> Bar {
        self.start_with(label, total, style, Arc::new(AtomicU64::new(0)))
    }

    fn start_with(
        &self,
        label: &str,
        total: Option<u64>,
        style: Result<ProgressStyle, indicatif::style::TemplateError>,
        counter: Arc<AtomicU64>,
    ) -> Bar {
        let layer = Arc::new(AtomicU64::new(0));
        self.start_counted(label, total, style, counter, layer)
    }

    fn start_counted(
        &self,
        label: &str,
        total: Option<u64>,
        style: Result<ProgressStyle, indicatif::style::TemplateError>,
        counter: Arc<AtomicU64>,
        layer: Arc<AtomicU64>,
    ) -> Bar {
        if !self.enabled {
            return Bar {
                counter,
                layer,
                ticker: None,
            };
        }
        let pb = match total {
            Some(t) => ProgressBar::new(t),
            None => ProgressBar::new_spinner(),
        };
        if let Ok(style) = style {
            pb.set_style(style);
        }
        pb.set_prefix(label.to_string());
        let stop = Arc::new(AtomicBool::new(false));
        let (c, s, l) = (counter.clone(), stop.clone(), layer.clone());
        let handle = std::thread::spawn(move || {
            while !s.load(Relaxed) {
                pb.set_position(c.load(Relaxed));
                pb.set_message(l.load(Relaxed).to_string());
                pb.tick();
                std::thread::sleep(Duration::from_millis(100));
            }
            pb.finish_and_clear();
        });
        Bar {
            counter,
            layer,
            ticker: Some((stop, handle)),
        }
    }
}

/// A running progress display; dropping or finishing it clears the line.
pub struct Bar {
    counter: Arc<AtomicU64>,
    layer: Arc<AtomicU64>,
    ticker: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
}

impl Bar {
    /// The counter the work adds to.
    pub fn counter(&self) -> &AtomicU64 {
        &self.counter
    }

    /// The counter, shared (for callbacks that must own it).
    pub fn shared_counter(&self) -> Arc<AtomicU64> {
        self.counter.clone()
    }

    /// The layer shown by a [`Progress::layers`] bar, shared.
    pub fn shared_layer(&self) -> Arc<AtomicU64> {
        self.layer.clone()
    }

    /// Stops and clears the display.
    pub fn finish(self) {}
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some((stop, handle)) = self.ticker.take() {
            stop.store(true, Relaxed);
            let _ = handle.join();
        }
    }
}
