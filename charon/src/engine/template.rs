//! The template: one process that loads the knowledge base once and forks every
//! worker from itself.
//!
//! Loading is the expensive part of a worker (seconds for 100,000 clauses) and the
//! bulk of its memory. A worker forked from a loaded process starts in about a
//! millisecond, shares the loaded pages with the template and with every other
//! worker copy-on-write (calls write to their own heap and stacks, not to the
//! clauses), and holds exactly the template's load-time state, whatever the
//! knowledge base's directives did (random numbers, the clock, files read).
//!
//! The template never runs a call. It is started like a worker (the program
//! re-executed in worker mode), loads, and then serves one kind of request,
//! `Request::Fork`: with it, the engine passes three new pipe ends (the worker's
//! stdin, stdout and stderr) over a Unix socket (`SCM_RIGHTS`); the template forks,
//! the child puts the pipes in place of its own and serves them as an ordinary
//! worker, and the template answers the child's pid. Forking is safe there: the
//! template's only other thread is blocked joining the serving one, holding no lock.
//! The template ignores `SIGCHLD`, so its children are reaped by the kernel; the
//! engine, which is not their parent, names each by a pidfd (Linux) so that a
//! reused pid is never signalled.
//!
//! When the template dies (killed from outside, out of memory), the next worker
//! start loads a new one.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use super::process::{Files, Proc, Worker};
use super::protocol::{Request, Response};
use super::{EngineError, Limits};

/// How long a fork may take before the template is given up.
const FORK_TIMEOUT: Duration = Duration::from_secs(10);

/// A loaded template process and the engine's end of its socket.
pub(super) struct Template {
    process: Worker,
    control: UnixStream,
    /// The database generation of the file it loaded (its workers start there).
    pub(super) generation: u64,
}

impl Template {
    /// Starts a template process and loads the knowledge base in it.
    pub(super) fn start(
        files: &Files,
        limits: &Limits,
        load_timeout: Duration,
    ) -> Result<Template, EngineError> {
        let (control, theirs) =
            UnixStream::pair().map_err(|e| EngineError::Spawn(format!("socket: {e}")))?;
        let started = Instant::now();
        let process = Worker::spawn(files, limits, load_timeout, Some(theirs.into()))?;
        tracing::debug!(target: "charon::engine", pid = process.pid(), elapsed_ms = started.elapsed().as_millis() as u64, "template loaded the knowledge base");
        Ok(Template {
            process,
            control,
            generation: 0,
        })
    }

    /// Forks a worker: loaded, at [`generation`](Self::generation).
    pub(super) fn fork(&mut self) -> Result<Worker, ForkError> {
        let local =
            |what: &str, e: io::Error| ForkError::Local(EngineError::Spawn(format!("{what}: {e}")));
        let (stdin_r, stdin_w) = std::io::pipe().map_err(|e| local("pipe", e))?;
        let (stdout_r, stdout_w) = std::io::pipe().map_err(|e| local("pipe", e))?;
        let (stderr_r, stderr_w) = std::io::pipe().map_err(|e| local("pipe", e))?;
        let gone = |why: String| ForkError::Gone(EngineError::Spawn(why));
        let mut line = serde_json::to_vec(&Request::Fork {}).map_err(|e| gone(e.to_string()))?;
        line.push(b'\n');
        self.process
            .send(&line)
            .map_err(|_| gone("the template is gone".into()))?;
        let theirs: [OwnedFd; 3] = [stdin_r.into(), stdout_w.into(), stderr_w.into()];
        if let Err(e) = send_fds(&self.control, &theirs) {
            self.process.kill();
            return Err(gone(format!("passing pipes to the template: {e}")));
        }
        // Only the worker may hold its ends: its stdin must close when the engine
        // lets go of it, and its stdout when it exits.
        drop(theirs);
        let pid = match self
            .process
            .receive(Instant::now() + FORK_TIMEOUT, Duration::ZERO)
        {
            Ok(Response::Forked { pid }) => pid,
            Ok(other) => {
                self.process.kill();
                return Err(gone(format!("the template did not fork: {other:?}")));
            }
            Err(_) => return Err(gone("the template did not fork".into())),
        };
        // From here on the template is fine whatever happens: a worker that cannot
        // be attached loses its pipes and exits.
        let mut worker = Worker::attach(
            Proc::forked(pid),
            OwnedFd::from(stdin_w).into(),
            OwnedFd::from(stdout_r).into(),
            OwnedFd::from(stderr_r).into(),
        )
        .map_err(ForkError::Local)?;
        worker.generation = self.generation;
        worker.loaded_rss = worker.rss().unwrap_or(0);
        Ok(worker)
    }
}

/// Why [`Template::fork`] gave no worker.
pub(super) enum ForkError {
    /// The template is gone or did not answer (it has been killed): load another.
    Gone(EngineError),
    /// A resource of this process ran out (descriptors, threads): the template is
    /// fine.
    Local(EngineError),
}

impl From<ForkError> for EngineError {
    fn from(e: ForkError) -> EngineError {
        match e {
            ForkError::Gone(e) | ForkError::Local(e) => e,
        }
    }
}

/// Sends `fds` over `socket` in one message (one byte of data).
fn send_fds(socket: &UnixStream, fds: &[OwnedFd]) -> io::Result<()> {
    let raw: Vec<RawFd> = fds.iter().map(AsRawFd::as_raw_fd).collect();
    let bytes = std::mem::size_of_val(raw.as_slice());
    let mut data = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: data.as_mut_ptr().cast(),
        iov_len: data.len(),
    };
    // SAFETY: CMSG_SPACE is arithmetic.
    let space = unsafe { libc::CMSG_SPACE(bytes as u32) } as usize;
    // u64s: the control buffer must be aligned for `cmsghdr`.
    let mut control = vec![0u64; space.div_ceil(8)];
    // SAFETY: a zeroed msghdr is valid; the pointers set below outlive the call.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    // SAFETY: the control buffer holds one header with `bytes` of data (CMSG_SPACE).
    unsafe {
        let header = libc::CMSG_FIRSTHDR(&msg);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(bytes as u32) as _;
        std::ptr::copy_nonoverlapping(raw.as_ptr(), libc::CMSG_DATA(header).cast(), raw.len());
    }
    loop {
        // SAFETY: a valid socket and message.
        let sent = unsafe { libc::sendmsg(socket.as_raw_fd(), &msg, libc::MSG_NOSIGNAL) };
        if sent >= 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Received descriptors are close-on-exec at once where the system can (the child
/// puts them in place with dup2, which clears the flag on the copies).
#[cfg(not(target_vendor = "apple"))]
const RECEIVE_FLAGS: libc::c_int = libc::MSG_CMSG_CLOEXEC;
#[cfg(target_vendor = "apple")]
const RECEIVE_FLAGS: libc::c_int = 0;

/// Receives exactly `n` descriptors sent by [`send_fds`] on `socket`.
fn receive_fds(socket: RawFd, n: usize) -> io::Result<Vec<OwnedFd>> {
    let bytes = n * std::mem::size_of::<RawFd>();
    let mut data = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: data.as_mut_ptr().cast(),
        iov_len: data.len(),
    };
    // SAFETY: arithmetic.
    let space = unsafe { libc::CMSG_SPACE(bytes as u32) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    // SAFETY: as in `send_fds`.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    let got = loop {
        // SAFETY: a valid descriptor and message.
        let got = unsafe { libc::recvmsg(socket, &mut msg, RECEIVE_FLAGS) };
        if got >= 0 {
            break got;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    };
    if got == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the engine closed the socket",
        ));
    }
    let mut fds = Vec::new();
    // SAFETY: walking the control messages the kernel wrote into `control`.
    unsafe {
        let mut header = libc::CMSG_FIRSTHDR(&msg);
        while !header.is_null() {
            if (*header).cmsg_level == libc::SOL_SOCKET && (*header).cmsg_type == libc::SCM_RIGHTS {
                let data_len = (*header).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
                let data = libc::CMSG_DATA(header).cast::<RawFd>();
                for i in 0..data_len / std::mem::size_of::<RawFd>() {
                    fds.push(OwnedFd::from_raw_fd(data.add(i).read_unaligned()));
                }
            }
            header = libc::CMSG_NXTHDR(&msg, header);
        }
    }
    if fds.len() != n || msg.msg_flags & libc::MSG_CTRUNC != 0 {
        return Err(io::Error::other(format!(
            "expected {n} descriptors, got {}",
            fds.len()
        )));
    }
    Ok(fds)
}

/// What [`fork_worker`] made of this process.
pub(super) enum Forked {
    /// The template, which forked the worker with this pid.
    Template(u32),
    /// The new worker: its stdin, stdout (`proto`) and stderr are the new pipes.
    Worker,
}

/// Template side of `Request::Fork`: takes the new worker's pipes from `control`
/// and forks. In the child, they replace stdin, `proto` (the protocol's copy of
/// stdout) and stderr (and stdout, which points at stderr in a worker), and the
/// socket is closed.
pub(super) fn fork_worker(control: RawFd, proto: RawFd) -> io::Result<Forked> {
    let fds = receive_fds(control, 3)?;
    // What the load printed and Rust still buffers must not be printed again by
    // every worker.
    let _ = std::io::Write::flush(&mut std::io::stdout());
    // The kernel reaps the workers: the template never waits for them.
    // SAFETY: setting a signal disposition.
    unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
    // SAFETY: the template's other thread holds no lock (see the module docs).
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid > 0 {
        return Ok(Forked::Template(pid as u32));
    }
    // SAFETY: descriptors this process owns; dup2 onto the standard ones clears
    // their close-on-exec flag, as a spawned worker's are.
    unsafe {
        // The knowledge base's shell/1 must be able to wait for its children.
        libc::signal(libc::SIGCHLD, libc::SIG_DFL);
        let ok = libc::dup2(fds[0].as_raw_fd(), 0) >= 0
            && libc::dup2(fds[1].as_raw_fd(), proto) >= 0
            && libc::dup2(fds[2].as_raw_fd(), 2) >= 0
            && libc::dup2(fds[2].as_raw_fd(), 1) >= 0;
        libc::close(control);
        if !ok {
            libc::_exit(5);
        }
    }
    Ok(Forked::Worker)
}
