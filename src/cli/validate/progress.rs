//! The progress bar `clipscope validate` draws on stderr while the engine checks files (only
//! when stderr is a terminal, so logs and pipes stay clean).

use std::io::IsTerminal;
use std::path::Path;

use clipscope_core::validate::Progress;

/// An indicatif bar on stderr, or nothing when stderr is not a terminal.
pub struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    /// A bar when stderr is a terminal.
    pub fn on_terminal() -> Bar {
        Bar(std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::hidden();
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        }))
    }
}

impl Progress for Bar {
    fn start(&self, files: usize) {
        if let Some(bar) = &self.0 {
            bar.set_length(files as u64);
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
    }

    fn file_done(&self, _file: &Path) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
