//! One worker process: spawning it, talking to it over its pipes, killing it.
//!
//! The plumbing below `template` (which forks workers) and `worker` (what runs in
//! one): it imports neither, and holds the names of the environment variables a
//! worker is started with.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::protocol::{Request, Response};
use super::{EngineError, Limits};

/// Set (to `1`) in a worker's environment.
pub(crate) const WORKER_ENV: &str = "CHARON_WORKER";
/// Address-space limit of a worker in bytes, if set.
pub(crate) const MEMORY_ENV: &str = "CHARON_WORKER_MEMORY";
/// The descriptor a template reads the pipes of new workers from (its end of the
/// Unix socket), named in its environment under this variable.
pub(crate) const TEMPLATE_ENV: &str = "CHARON_TEMPLATE_FD";

/// Files the workers read.
#[derive(Debug)]
pub(super) struct Files {
    /// Holds the wrapper and the database generations; removed on drop.
    pub(super) dir: super::PrivateDir,
    pub(super) wrapper: PathBuf,
    pub(super) kb: PathBuf,
}

pub(super) struct Worker {
    process: Proc,
    stdin: File,
    stdout: File,
    /// Bytes read from `stdout` that are not yet a whole line.
    pending: Vec<u8>,
    /// Where reads from `stdout` land (kept: a fresh buffer is zeroed on every read).
    chunk: Box<[u8]>,
    /// Calls since the worker started (restores count extra: they grow its memory).
    pub(super) calls: u64,
    /// The database generation this worker holds (`u64::MAX`: unknown, restore it).
    pub(super) generation: u64,
    /// Resident memory once loaded, in bytes (the base for `recycle_memory`).
    pub(super) loaded_rss: u64,
    /// What the worker last said on stderr that matters when it stops: the
    /// directive it is running while loading, an allocation failure.
    last_words: Arc<Mutex<LastWords>>,
}

/// See [`Worker::last_words`].
#[derive(Debug, Default)]
struct LastWords {
    /// The directive running (`'$charon_running'/2` in `wrapper/rewriting.pl`), if any.
    directive: Option<String>,
    /// The allocator reported running out of memory.
    out_of_memory: bool,
}

/// How many bytes one read of a worker's answers takes at most.
const READ_CHUNK: usize = 64 * 1024;

/// The prefix of the lines `'$charon_running'/2` writes to stderr.
const RUNNING: &str = "charon-running: ";

/// Why a request got no answer.
pub(super) enum Failure {
    Timeout,
    Died(String),
    /// The worker died for want of memory.
    OutOfMemory,
}

/// The process behind a [`Worker`].
pub(super) enum Proc {
    /// A child of this process: a template (see `template`).
    Child(Child),
    /// A worker the template forked: not this process's child, so it is never
    /// waited for (the kernel reaps it). On Linux a pidfd names it, so that a pid
    /// reused after it exited is never signalled.
    Forked { pid: u32, pidfd: Option<OwnedFd> },
}

impl Proc {
    /// The worker the template forked as `pid`.
    pub(super) fn forked(pid: u32) -> Proc {
        Proc::Forked {
            pid,
            pidfd: pidfd_open(pid),
        }
    }

    fn id(&self) -> u32 {
        match self {
            Proc::Child(child) => child.id(),
            Proc::Forked { pid, .. } => *pid,
        }
    }

    /// Kills the process and waits until it is gone (a forked one: at most a
    /// second, polling its pidfd).
    fn kill(&mut self) {
        match self {
            Proc::Child(child) => {
                let _ = child.kill();
                let _ = child.wait();
            }
            Proc::Forked { pid, pidfd } => kill_forked(*pid, pidfd.as_ref()),
        }
    }

    /// How the process ended, for messages (after its stdout closed).
    fn status(&mut self) -> String {
        match self {
            Proc::Child(child) => child.wait().map(|s| s.to_string()).unwrap_or_default(),
            Proc::Forked { .. } => String::from("forked worker"),
        }
    }
}

#[cfg(target_os = "linux")]
fn pidfd_open(pid: u32) -> Option<OwnedFd> {
    use std::os::fd::FromRawFd;
    // SAFETY: a plain system call; a descriptor it returns is ours.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    // SAFETY: as above.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

#[cfg(not(target_os = "linux"))]
fn pidfd_open(_pid: u32) -> Option<OwnedFd> {
    None
}

fn kill_forked(pid: u32, pidfd: Option<&OwnedFd>) {
    #[cfg(target_os = "linux")]
    if let Some(fd) = pidfd {
        // SAFETY: plain system calls on a descriptor we own.
        unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                fd.as_raw_fd(),
                libc::SIGKILL,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            );
            let mut pfd = libc::pollfd {
                fd: fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // Readable once the process has exited. Where this process reaps orphans
            // (it runs as pid 1, or as a subreaper), a worker whose template is gone
            // is its child: reap it (the pid cannot be reused before that).
            if libc::poll(&mut pfd, 1, 1000) == 1 {
                libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), libc::WNOHANG);
            }
        }
        return;
    }
    let _ = pidfd;
    // SAFETY: a plain system call.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
}

impl Worker {
    /// Starts a process in worker mode and loads the knowledge base in it. With
    /// `control`, it is a template (see `template`): the socket becomes its
    /// descriptor 3.
    pub(super) fn spawn(
        files: &Files,
        limits: &Limits,
        load_timeout: Duration,
        control: Option<OwnedFd>,
    ) -> Result<Worker, EngineError> {
        let exe = std::env::current_exe().map_err(|e| EngineError::Spawn(e.to_string()))?;
        let mut cmd = Command::new(exe);
        cmd.env(WORKER_ENV, "1")
            // The knowledge base's code runs there: it has no need of the
            // replicas' connection string (which may hold a password).
            .env_remove("CHARON_REPLICATE_URL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(bytes) = limits.memory {
            cmd.env(MEMORY_ENV, bytes.to_string());
        }
        if let Some(control) = control {
            const FD: i32 = 3;
            cmd.env(TEMPLATE_ENV, FD.to_string());
            let raw = control.as_raw_fd();
            // SAFETY: only async-signal-safe calls between fork and exec; `control`
            // lives until `spawn` returns.
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
                    let ok = if raw == FD {
                        libc::fcntl(FD, libc::F_SETFD, 0) >= 0
                    } else {
                        libc::dup2(raw, FD) >= 0
                    };
                    if ok {
                        Ok(())
                    } else {
                        Err(std::io::Error::last_os_error())
                    }
                });
            }
            let spawned = cmd.spawn();
            drop(control);
            return Self::spawned(spawned, files, load_timeout);
        }
        let spawned = cmd.spawn();
        Self::spawned(spawned, files, load_timeout)
    }

    fn spawned(
        spawned: std::io::Result<Child>,
        files: &Files,
        load_timeout: Duration,
    ) -> Result<Worker, EngineError> {
        let mut child = spawned.map_err(|e| EngineError::Spawn(e.to_string()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(EngineError::Spawn("worker pipes missing".into()));
        };
        let mut worker = Worker::attach(
            Proc::Child(child),
            OwnedFd::from(stdin).into(),
            OwnedFd::from(stdout).into(),
            OwnedFd::from(stderr).into(),
        )?;
        worker.load(files, load_timeout)?;
        Ok(worker)
    }

    /// A worker talking over these pipes; a thread logs what it says on stderr.
    pub(super) fn attach(
        process: Proc,
        stdin: File,
        stdout: File,
        stderr: File,
    ) -> Result<Worker, EngineError> {
        let pid = process.id();
        let last_words = Arc::new(Mutex::new(LastWords::default()));
        let heard = last_words.clone();
        std::thread::Builder::new()
            .name(format!("charon-worker-{pid}-err"))
            .spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    let mut words = heard.lock().unwrap_or_else(|p| p.into_inner());
                    if let Some(directive) = line.strip_prefix(RUNNING) {
                        words.directive = (directive != "done").then(|| directive.to_string());
                        continue;
                    }
                    if line.starts_with("memory allocation of") {
                        words.out_of_memory = true;
                    }
                    drop(words);
                    if line.contains("discontiguous") {
                        // scryer keeps only the last group of such clauses.
                        tracing::warn!(target: "charon::engine", worker = pid, "{line} (only the last group of clauses is kept: declare the predicate `:- discontiguous(Name/Arity).` to keep them all)");
                    } else {
                        tracing::warn!(target: "charon::engine", worker = pid, "{line}");
                    }
                }
            })
            .map_err(|e| EngineError::Spawn(e.to_string()))?;
        Ok(Worker {
            process,
            stdin,
            stdout,
            pending: Vec::new(),
            chunk: vec![0; READ_CHUNK].into_boxed_slice(),
            calls: 0,
            generation: 0,
            loaded_rss: 0,
            last_words,
        })
    }

    /// Loads the wrapper and the knowledge base.
    fn load(&mut self, files: &Files, load_timeout: Duration) -> Result<(), EngineError> {
        let worker = self;
        let load = Request::Load {
            wrapper: files.wrapper.display().to_string(),
            kb: files.kb.display().to_string(),
        };
        match worker.request(&load, load_timeout) {
            Ok(Response::Loaded { ok: true, messages }) => {
                if !messages.trim().is_empty() {
                    tracing::warn!(target: "charon::engine", "{}", messages.trim());
                }
                worker.loaded_rss = worker.rss().unwrap_or(0);
                Ok(())
            }
            Ok(Response::Loaded {
                ok: false,
                messages,
            }) => {
                worker.kill();
                Err(EngineError::Load(load_message(&files.kb, &messages)))
            }
            Ok(other) => {
                worker.kill();
                Err(EngineError::Spawn(format!("unexpected answer {other:?}")))
            }
            Err(Failure::Timeout) => {
                let running = worker.last_words().directive;
                let file = files.kb.display();
                let secs = load_timeout.as_secs_f64();
                Err(EngineError::Load(match running {
                    Some(d) => format!(
                        "{file}: loading did not finish within {secs} s: the directive `{d}` was still running (fix it, or raise the load timeout)"
                    ),
                    None => format!(
                        "{file}: loading did not finish within {secs} s (a large file, or a directive that does not end; raise the load timeout if it is only large)"
                    ),
                }))
            }
            Err(Failure::Died(m)) => Err(EngineError::Spawn(m)),
            Err(Failure::OutOfMemory) => Err(EngineError::Load(format!(
                "{}: loading ran out of memory (raise the worker memory limit)",
                files.kb.display()
            ))),
        }
    }

    fn last_words(&self) -> LastWords {
        let words = self.last_words.lock().unwrap_or_else(|p| p.into_inner());
        LastWords {
            directive: words.directive.clone(),
            out_of_memory: words.out_of_memory,
        }
    }

    /// Whether the worker said it ran out of memory before it stopped. Its stderr
    /// is read by another thread: give that a moment to catch the last line.
    fn ran_out_of_memory(&self) -> bool {
        for _ in 0..20 {
            if self.last_words().out_of_memory {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }

    /// The worker's resident memory in bytes (Linux `/proc`; `None` elsewhere).
    pub(super) fn rss(&self) -> Option<u64> {
        let statm = std::fs::read_to_string(format!("/proc/{}/statm", self.pid())).ok()?;
        let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        Some(pages * u64::try_from(page).unwrap_or(4096))
    }

    pub(super) fn request(
        &mut self,
        request: &Request,
        timeout: Duration,
    ) -> Result<Response, Failure> {
        self.request_spinning(request, timeout, Duration::ZERO)
    }

    /// Like `request`, checking for the answer without sleeping for `spin` first.
    pub(super) fn request_spinning(
        &mut self,
        request: &Request,
        timeout: Duration,
        spin: Duration,
    ) -> Result<Response, Failure> {
        let mut line = serde_json::to_vec(request).map_err(|e| Failure::Died(e.to_string()))?;
        line.push(b'\n');
        self.send(&line)?;
        self.receive(Instant::now() + timeout, spin)
    }

    /// Writes requests (whole JSON lines) to the worker. Several at once are a
    /// batch: the worker answers them in order, one line each.
    pub(super) fn send(&mut self, lines: &[u8]) -> Result<(), Failure> {
        match self
            .stdin
            .write_all(lines)
            .and_then(|()| self.stdin.flush())
        {
            Ok(()) => Ok(()),
            Err(e) => {
                self.kill();
                Err(Failure::Died(format!("worker pipe closed: {e}")))
            }
        }
    }

    /// Reads the worker's next answer, waiting until `deadline` (checking without
    /// sleeping for `spin` first). On any failure the worker is killed: it must not
    /// serve again.
    pub(super) fn receive(
        &mut self,
        deadline: Instant,
        spin: Duration,
    ) -> Result<Response, Failure> {
        match self.try_receive(deadline, spin)? {
            Some(response) => Ok(response),
            None => {
                self.kill();
                Err(Failure::Timeout)
            }
        }
    }

    /// Like [`receive`](Self::receive), but at `until` the answer is `None` and the
    /// worker keeps running.
    pub(super) fn try_receive(
        &mut self,
        until: Instant,
        spin: Duration,
    ) -> Result<Option<Response>, Failure> {
        let failure = match self.read_line(until, spin) {
            Ok(line) => match serde_json::from_slice::<Response>(&line) {
                Ok(Response::Crashed { message }) if ran_out_of_stack(&message) => {
                    Failure::OutOfMemory
                }
                Ok(Response::Crashed { message }) => Failure::Died(message),
                Ok(r) => return Ok(Some(r)),
                Err(e) => Failure::Died(format!("bad worker answer: {e}")),
            },
            Err(Failure::Timeout) => return Ok(None),
            Err(gone) => {
                // The pipe closed: the worker stopped, perhaps for want of memory.
                self.kill();
                if self.ran_out_of_memory() {
                    return Err(Failure::OutOfMemory);
                }
                return Err(gone);
            }
        };
        self.kill();
        Err(failure)
    }

    /// Reads one line from the worker, waiting at most until `deadline`. The caller's
    /// thread reads the pipe itself (no reader thread: one wake-up less per call).
    fn read_line(&mut self, deadline: Instant, spin: Duration) -> Result<Vec<u8>, Failure> {
        let mut spin_until = Instant::now() + spin;
        let mut scanned = 0;
        loop {
            if let Some(pos) = self.pending[scanned..].iter().position(|&b| b == b'\n') {
                let rest = self.pending.split_off(scanned + pos + 1);
                let mut line = std::mem::replace(&mut self.pending, rest);
                line.pop();
                return Ok(line);
            }
            scanned = self.pending.len();
            let remaining = deadline.saturating_duration_since(Instant::now());
            let mut pfd = libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = i32::try_from(remaining.as_millis().max(1)).unwrap_or(i32::MAX);
            // Most answers arrive within microseconds: check without sleeping for a
            // short while first, since a wake-up from poll costs tens of microseconds.
            let mut ready = 0;
            while Instant::now() < spin_until {
                // SAFETY: one valid pollfd for a descriptor this worker owns.
                ready = unsafe { libc::poll(&mut pfd, 1, 0) };
                if ready != 0 {
                    break;
                }
                std::hint::spin_loop();
            }
            spin_until = Instant::now();
            if ready == 0 {
                // SAFETY: as above.
                ready = unsafe { libc::poll(&mut pfd, 1, ms) };
            }
            if ready < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(Failure::Died("poll failed".into()));
            }
            if ready == 0 {
                if remaining.is_zero() {
                    return Err(Failure::Timeout);
                }
                continue;
            }
            match self.stdout.read(&mut self.chunk[..]) {
                Ok(0) => {
                    let status = self.process.status();
                    return Err(Failure::Died(format!("worker exited ({status})")));
                }
                Ok(n) => self.pending.extend_from_slice(&self.chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Failure::Died(format!("worker pipe: {e}"))),
            }
        }
    }

    pub(super) fn kill(&mut self) {
        self.process.kill();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

impl Worker {
    /// The worker's process id.
    pub(super) fn pid(&self) -> u32 {
        self.process.id()
    }
}

/// Turns scryer's consult messages into `file:line: why`. The wrapper says which
/// file (and line) an error happened in with a `charon-blame: LINE PATH` line, when
/// the knowledge base loads other files; without it the error is the main file's.
fn load_message(kb: &Path, messages: &str) -> String {
    let blame = messages.lines().find_map(|l| {
        let (line, path) = l.strip_prefix("charon-blame: ")?.split_once(' ')?;
        Some((
            line.parse::<u64>().ok().filter(|&n| n > 0),
            path.to_string(),
        ))
    });
    let (blamed_line, file) = match blame {
        Some((line, path)) => (line, path),
        None => (None, kb.display().to_string()),
    };
    let messages: String = messages
        .lines()
        .filter(|l| !l.starts_with("charon-blame: "))
        .collect::<Vec<_>>()
        .join("\n");
    // scryer reports `error(syntax_error(What),read_term/3:Line)`.
    if let Some(start) = messages.find("syntax_error(") {
        let rest = &messages[start + "syntax_error(".len()..];
        let what = rest.split(')').next().unwrap_or("unknown");
        let line = rest
            .split(':')
            .nth(1)
            .map(|l| {
                l.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            })
            .filter(|l| !l.is_empty());
        let what = what.replace('_', " ");
        return match line {
            Some(line) => format!("{file}:{line}: syntax error: {what}"),
            None => format!("{file}: syntax error: {what}"),
        };
    }
    let at = match blamed_line {
        Some(line) => format!("{file}:{line}"),
        None => file,
    };
    // One line: the binary prints this as its one-line cause.
    let detail = messages
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != "throw(file_load_error).")
        .collect::<Vec<_>>()
        .join("; ");
    if detail.is_empty() {
        format!("{at}: the knowledge base failed to load")
    } else {
        format!("{at}: the knowledge base failed to load: {detail}")
    }
}

/// Whether a worker's panic message says the engine's stack could not grow: scryer
/// 0.10 panics so (a recursion past the memory limit) rather than raising
/// `resource_error(memory)`.
fn ran_out_of_stack(message: &str) -> bool {
    message == "growing the stack failed"
}
