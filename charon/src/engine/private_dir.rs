//! Private temporary directories for the files the workers read (the wrapper, the
//! knowledge base's text when it came from memory, database generations).
//!
//! Workers re-read these files whenever one is started (at load, after a timeout or a
//! crash, at recycling), so nobody else may create, replace or link them: each lives in
//! a directory created fresh (never reused: creation fails if the name exists) with
//! mode 0700, under an unpredictable name, and files in it are created with
//! `create_new`.

use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A directory only this user can enter; removed with everything in it on drop.
#[derive(Debug)]
pub(crate) struct PrivateDir(PathBuf);

impl PrivateDir {
    /// Creates `<temp>/<prefix>-<pid>-<unique>` with mode 0700.
    pub(crate) fn new(prefix: &str) -> std::io::Result<PrivateDir> {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let mut last = None;
        for _ in 0..16 {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            // Unpredictable enough that nobody can prepare the name in advance, and
            // `create` (not `create_all`) refuses a name that exists.
            let salt = u64::from(nanos) ^ (SEQ.fetch_add(1, Ordering::Relaxed) << 32);
            let dir =
                std::env::temp_dir().join(format!("{prefix}-{}-{salt:016x}", std::process::id()));
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => return Ok(PrivateDir(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no free directory name")))
    }

    /// The directory.
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }

    /// Writes a new file `name` in the directory (mode 0600; fails if it exists).
    pub(crate) fn write(&self, name: &str, contents: &[u8]) -> std::io::Result<PathBuf> {
        let path = self.0.join(name);
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)?;
        file.write_all(contents)?;
        Ok(path)
    }

    /// Writes a new file at the relative path `rel` (its directories created with
    /// mode 0700 as needed; the caller checks that `rel` stays inside).
    pub(crate) fn write_at(&self, rel: &str, contents: &[u8]) -> std::io::Result<PathBuf> {
        if let Some(parent) = Path::new(rel).parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::DirBuilder::new()
                .mode(0o700)
                .recursive(true)
                .create(self.0.join(parent))?;
        }
        self.write(rel, contents)
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
