//! A file with given contents in the temporary folder, removed when dropped: an input file
//! for the binary, or an API keys file for the server.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The file; its name carries the test binary's name and process id, so suites running at
/// once never share one.
pub(crate) struct TempFile(PathBuf);

impl TempFile {
    pub(crate) fn with_contents(contents: &str) -> TempFile {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "sudoku-{}-{}-{}.txt",
            env!("CARGO_CRATE_NAME"),
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
