//! Hot reload for `charon http` and `charon mcp` over HTTP: on SIGHUP, and with
//! `--watch` when a watched file changes.
//!
//! A reload loads the file into a new knowledge base (new workers, the analysis,
//! the PlDoc report) while the old one keeps serving; only when that succeeds —
//! it loads, and its PlDoc report rejects no predicate the old one's did not — is
//! the new one swapped in (`swap`: the routes, `/openapi.json`, the MCP tools, with
//! `notifications/tools/list_changed`), and a report of the operations added,
//! removed and changed is logged. Calls in flight finish on the knowledge base
//! they started on, which is dropped (its workers stopped) after the last of them.
//! A failed reload changes nothing but `GET /health`, which shows its error until
//! a reload succeeds. The answer cache belongs to a knowledge base, so it starts
//! empty with the new one.
//!
//! What is watched: the knowledge base's file and the `.pl` files beside and below
//! it (those it may load; three levels down, hidden folders, `target`,
//! `node_modules` and the engine's own `charon-*` folders left out), by size, time
//! and inode, every half second, off the async threads; a change is taken once the
//! files have stayed the same for a tenth of a second (editors write in steps).

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use charon::http::ReloadState;
use charon::{Handover, KnowledgeBase};

/// How often watched files are looked at.
const POLL: Duration = Duration::from_millis(500);
/// How long files must stay the same before a change is taken.
const SETTLE: Duration = Duration::from_millis(100);
/// Files looked at, at most (the first found, in directory order).
const MAX_FILES: usize = 2000;
/// Folder levels below the knowledge base's that are looked in.
const MAX_DEPTH: usize = 3;

/// Swaps in a new knowledge base.
pub(crate) type Swap =
    Box<dyn Fn(Arc<KnowledgeBase>) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// Loads the knowledge base again (blocking), to take over from the one that
/// handed its file over.
pub(crate) type Load = Arc<dyn Fn(&Handover) -> anyhow::Result<KnowledgeBase> + Send + Sync>;

/// The reload loop, ready to run: the SIGHUP handler is installed when this is
/// made (inside the runtime), so no signal sent once the server is up is lost.
pub(crate) fn reloader(
    path: PathBuf,
    watch: bool,
    load: Load,
    current: Arc<KnowledgeBase>,
    state: ReloadState,
    swap: Swap,
) -> anyhow::Result<Pin<Box<dyn Future<Output = ()> + Send>>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut hangup = signal(SignalKind::hangup())?;
    Ok(Box::pin(async move {
        let mut current = current;
        let mut seen = if watch { look(&path).await } else { Vec::new() };
        loop {
            let why = tokio::select! {
                _ = hangup.recv() => "SIGHUP",
                () = tokio::time::sleep(POLL), if watch => {
                    let now = look(&path).await;
                    if now == seen {
                        continue;
                    }
                    if only_the_kb_changed(&path, &seen, &now) && own_write(&current).await {
                        // `--persist` folded its journal into the file.
                        seen = now;
                        continue;
                    }
                    settle(&path).await;
                    "a changed file"
                }
            };
            seen = look(&path).await;
            tracing::info!(target: "charon::reload", "reloading {} ({why})", path.display());
            let started = std::time::Instant::now();
            let (load, old, file) = (Arc::clone(&load), Arc::clone(&current), path.clone());
            let loaded =
                match tokio::task::spawn_blocking(move || take_over(&old, &file, &*load)).await {
                    Ok(loaded) => loaded,
                    Err(e) => Err(anyhow::anyhow!("the reload stopped: {e}")),
                };
            match loaded {
                Ok((kb, handover)) => {
                    let kb = Arc::new(kb);
                    let report = Report::between(&current, &kb);
                    swap(Arc::clone(&kb)).await;
                    // Writes that waited for the old one are told to come again,
                    // once the new one takes them.
                    handover.complete();
                    state.succeeded();
                    tracing::info!(
                        target: "charon::reload",
                        elapsed_ms = started.elapsed().as_millis() as u64,
                        "reloaded {}: {report}",
                        path.display()
                    );
                    current = kb;
                }
                Err(e) => {
                    let error = format!("{e:#}");
                    tracing::error!(
                        target: "charon::reload",
                        "the reload of {} failed, the knowledge base loaded before keeps serving: {error}",
                        path.display()
                    );
                    state.failed(error);
                }
            }
        }
    }))
}

/// Loads the successor of `old` (blocking) from `path`: `old` hands its file over
/// first (with `--persist`: its writes wait), and takes it back if the new one
/// fails to load or is refused (the handover is dropped).
fn take_over(
    old: &KnowledgeBase,
    path: &Path,
    load: &(dyn Fn(&Handover) -> anyhow::Result<KnowledgeBase> + Send + Sync),
) -> anyhow::Result<(KnowledgeBase, Handover)> {
    // A documented predicate the edit leaves unexposed (a mistake in its PlDoc)
    // would vanish from the API: refused, as a load error is — before anything is
    // loaded (with `--persist`, loading takes the journal's writes over into the
    // file), and again after, should the file have changed meanwhile.
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let report = charon::pldoc::analyse(&path.display().to_string(), &text);
    unexposed(old, &report.rejections)?;
    let handover = old.hand_over()?;
    let new = load(&handover)?;
    if let Err(e) = unexposed(old, new.rejections()) {
        // The new one lets go of the file before the old one takes it back.
        drop(new);
        return Err(e);
    }
    Ok((new, handover))
}

/// Refuses `rejections` that `old` did not have: documented predicates an edit
/// leaves unexposed.
fn unexposed(old: &KnowledgeBase, rejections: &[charon::pldoc::Rejection]) -> anyhow::Result<()> {
    let new = new_rejections(old.rejections(), rejections);
    if new.is_empty() {
        return Ok(());
    }
    anyhow::bail!(
        "the edit leaves documented predicates unexposed: {}; fix their PlDoc (or remove the %! comment of a predicate that is not to be served)",
        new.join("; ")
    )
}

/// Whether the knowledge base's own file is all that differs between two looks.
fn only_the_kb_changed(
    path: &Path,
    before: &[(PathBuf, u64, i128, u64)],
    after: &[(PathBuf, u64, i128, u64)],
) -> bool {
    before.len() == after.len()
        && before
            .iter()
            .zip(after)
            .all(|(b, a)| b.0 == a.0 && (b == a || a.0 == path))
}

/// Whether the knowledge base's file holds what `kb` last wrote (off the async
/// threads: it reads the file).
async fn own_write(kb: &Arc<KnowledgeBase>) -> bool {
    let kb = Arc::clone(kb);
    tokio::task::spawn_blocking(move || kb.file_is_own())
        .await
        .unwrap_or(false)
}

/// The PlDoc rejections of `new` that `old` did not have (by predicate and reason).
fn new_rejections(
    old: &[charon::pldoc::Rejection],
    new: &[charon::pldoc::Rejection],
) -> Vec<String> {
    let key = |r: &charon::pldoc::Rejection| (r.predicate.clone(), r.reason.to_string());
    let before: std::collections::HashSet<_> = old.iter().map(key).collect();
    new.iter()
        .filter(|r| !before.contains(&key(r)))
        .map(ToString::to_string)
        .collect()
}

/// [`fingerprint`], off the async threads (it reads directories).
async fn look(path: &Path) -> Vec<(PathBuf, u64, i128, u64)> {
    let path = path.to_path_buf();
    tokio::task::spawn_blocking(move || fingerprint(&path))
        .await
        .unwrap_or_default()
}

/// Waits until the watched files stay the same for `SETTLE`.
async fn settle(path: &Path) {
    let mut last = look(path).await;
    for _ in 0..50 {
        tokio::time::sleep(SETTLE).await;
        let now = look(path).await;
        if now == last {
            return;
        }
        last = now;
    }
}

/// Size, modification time and inode of the knowledge base's file and of the `.pl`
/// files beside and below it (`MAX_DEPTH` levels down; hidden folders, `target`,
/// `node_modules` and the engine's own folders, `charon-*`, left out).
fn fingerprint(path: &Path) -> Vec<(PathBuf, u64, i128, u64)> {
    use std::os::unix::fs::MetadataExt;
    let mut files = vec![path.to_path_buf()];
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut dirs = vec![(dir.to_path_buf(), 0)];
    while let Some((dir, depth)) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if files.len() >= MAX_FILES {
                break;
            }
            let p = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            match entry.file_type() {
                Ok(t) if t.is_dir() => {
                    let skipped = name.starts_with('.')
                        || name.starts_with("charon-")
                        || name == "target"
                        || name == "node_modules";
                    if !skipped && depth < MAX_DEPTH {
                        dirs.push((p, depth + 1));
                    }
                }
                Ok(_) if p.extension().is_some_and(|e| e == "pl") && p != path => files.push(p),
                _ => {}
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let meta = std::fs::metadata(&p).ok();
            let stamp = meta.as_ref().map_or((0, 0, 0), |m| {
                (
                    m.len(),
                    i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
                    m.ino(),
                )
            });
            (p, stamp.0, stamp.1, stamp.2)
        })
        .collect()
}

/// The operations a reload added, removed and changed.
struct Report {
    count: usize,
    added: Vec<String>,
    removed: Vec<String>,
    changed: Vec<String>,
}

impl Report {
    fn between(old: &KnowledgeBase, new: &KnowledgeBase) -> Report {
        let name = |op: &charon::Operation| op.name.to_string();
        let added = new
            .operations()
            .iter()
            .filter(|op| old.operation(&op.name).is_none())
            .map(name)
            .collect();
        let removed = old
            .operations()
            .iter()
            .filter(|op| new.operation(&op.name).is_none())
            .map(name)
            .collect();
        let changed = new
            .operations()
            .iter()
            .filter(|op| old.operation(&op.name).is_some_and(|o| o != *op))
            .map(name)
            .collect();
        Report {
            count: new.operations().len(),
            added,
            removed,
            changed,
        }
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} operation(s)", self.count)?;
        let mut none = true;
        for (what, names) in [
            ("added", &self.added),
            ("removed", &self.removed),
            ("changed", &self.changed),
        ] {
            if !names.is_empty() {
                write!(f, "; {what}: {}", names.join(", "))?;
                none = false;
            }
        }
        if none {
            write!(f, "; no operation added, removed or changed")?;
        }
        Ok(())
    }
}
