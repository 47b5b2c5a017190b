//! Files on disk: replacing one atomically without ever exposing its bytes under a
//! wider mode, and telling whether someone else changed it.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// What identifies a file's content cheaply: it changes whenever the file is
/// written or replaced (a write that keeps all three is caught at the next
/// compaction, which compares the content itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stamp {
    len: u64,
    mtime_ns: i128,
    inode: u64,
}

pub(super) fn stamp(path: &Path) -> std::io::Result<Stamp> {
    let m = std::fs::metadata(path)?;
    Ok(Stamp {
        len: m.len(),
        mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
        inode: m.ino(),
    })
}

/// The file a path names, symbolic links followed: the file that must be written.
pub(super) fn target(path: &Path) -> std::io::Result<PathBuf> {
    std::fs::canonicalize(path)
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Creates `path` (which must not exist) with exactly `mode` and the owner of
/// `like` (when the process may give it), before any byte is written.
pub(super) fn create_like(path: &Path, like: &std::fs::Metadata) -> std::io::Result<std::fs::File> {
    let mode = like.permissions().mode() & 0o7777;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        // The umask can only narrow this; the exact mode follows, still empty.
        .mode(mode & 0o777)
        .open(path)?;
    // Owner first: changing it may clear set-id bits, which the mode then restores.
    // Only a privileged process may give a file away; otherwise the file is already
    // ours, as the original is when we could write it.
    let _ = std::os::unix::fs::fchown(&file, Some(like.uid()), Some(like.gid()));
    file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    Ok(file)
}

/// Replaces `path` with `bytes` so that a crash leaves the old or the new content:
/// a temporary file beside it (created with the file's mode and owner, before any
/// byte is written), synced, renamed over it, and the directory synced.
pub(super) fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = parent(path);
    let name = path
        .file_name()
        .map_or_else(|| "kb".into(), |n| n.to_string_lossy().into_owned());
    let like = std::fs::metadata(path)?;
    let tmp = dir.join(format!(".{name}.charon-{}.tmp", std::process::id()));
    // A temporary file left by a crash of this same pid would block create_new.
    let _ = std::fs::remove_file(&tmp);
    let result = (|| {
        let mut file = create_like(&tmp, &like)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        sync_dir(dir)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Makes a rename or a creation in `dir` durable.
pub(super) fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_keeps_the_mode_and_never_widens_it() {
        let dir = std::env::temp_dir().join(format!("charon-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("kb.pl");
        std::fs::write(&path, "a.\n").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        replace(&path, b"b.\n").expect("replace");
        let m = std::fs::metadata(&path).expect("metadata");
        assert_eq!(m.permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "b.\n");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).expect("chmod");
        replace(&path, b"c.\n").expect("replace");
        let m = std::fs::metadata(&path).expect("metadata");
        assert_eq!(m.permissions().mode() & 0o777, 0o664);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
