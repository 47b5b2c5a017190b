//! The worker process: one scryer-prolog `Machine`, driven over stdin/stdout.
//!
//! Any program that links `charon` can be its own worker: when it is started with
//! `CHARON_WORKER=1` in its environment, a constructor that runs before `main` serves
//! the protocol and exits, so `main` never runs. That is what lets
//! `KnowledgeBase::load` work unchanged in an application, a test binary, an example
//! or a benchmark, with nothing else to install.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::os::fd::AsRawFd;
use std::panic::AssertUnwindSafe;
use std::rc::Rc;

use scryer_prolog::{LeafAnswer, Machine, MachineBuilder, StreamConfig, Term, UserInput};

use super::process::{MEMORY_ENV, TEMPLATE_ENV, WORKER_ENV};
use super::protocol::{Request, Response};
use super::template;
use crate::term::{PlTerm, write_atom, write_string};

/// Set to `consult` (in the environment of the program that starts the workers),
/// workers load the knowledge base with scryer's `consult/1` instead of the
/// wrapper's `'$charon_consult'/1`: a way back should the faster loader ever
/// differ, and the baseline of `scripts/bench-load.sh`.
pub(crate) const LOADER_ENV: &str = "CHARON_LOADER";

#[ctor::ctor(unsafe)]
fn worker_entry() {
    if std::env::var_os(WORKER_ENV).is_some_and(|v| v == "1") {
        // SAFETY: this runs before main, on the only thread. Programs the knowledge
        // base starts (shell/1) must not inherit worker mode.
        unsafe { std::env::remove_var(WORKER_ENV) };
        std::process::exit(serve());
    }
}

/// Serves requests until stdin closes; returns the exit status.
fn serve() -> i32 {
    // A worker takes no stop signal of its own: it ends when the program that
    // started it closes its stdin (or kills it). Ctrl-C in a terminal signals the
    // whole process group, and a service manager every process of the unit; the
    // program must still be able to fold the dynamic database into its file at
    // shutdown, which takes its workers. SIGHUP (a reload) is the program's too.
    // The signals are caught by a handler that does nothing, not ignored: a program
    // the knowledge base runs (shell/1,2) gets a caught signal back at its default
    // when it starts, where it would inherit an ignored one (and Ctrl-C could not
    // stop it). SA_RESTART: a read the signal interrupts goes on.
    extern "C" fn unheeded(_: libc::c_int) {}
    // SAFETY: setting signal dispositions, before main, on the only thread; the
    // handler does nothing, so it is async-signal-safe.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = unheeded as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
    let memory = std::env::var(MEMORY_ENV).ok();
    // SAFETY: still before main, on the only thread.
    unsafe { std::env::remove_var(MEMORY_ENV) };
    if let Some(bytes) = memory.and_then(|v| v.parse::<u64>().ok()) {
        let limit = libc::rlimit {
            rlim_cur: bytes as libc::rlim_t,
            rlim_max: bytes as libc::rlim_t,
        };
        // SAFETY: plain syscall on a valid struct.
        unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) };
    }
    // The protocol gets a private copy of stdout; fd 1 then points at stderr, so
    // anything scryer prints with println! (loader warnings) cannot corrupt it.
    // SAFETY: dup/dup2 on the process's own standard descriptors.
    let proto_fd = unsafe {
        let fd = libc::dup(1);
        libc::dup2(2, 1);
        fd
    };
    if proto_fd < 0 {
        return 2;
    }
    // SAFETY: proto_fd is a fresh descriptor that nothing else owns.
    let proto = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(proto_fd) };
    let template = std::env::var(TEMPLATE_ENV)
        .ok()
        .and_then(|v| v.parse::<i32>().ok());
    // SAFETY: still before main, on the only thread.
    unsafe { std::env::remove_var(TEMPLATE_ENV) };
    let handle = std::thread::Builder::new()
        .name("charon-worker".into())
        .stack_size(256 << 20)
        .spawn(move || {
            let code = serve_on(proto, template);
            if FORKED.load(std::sync::atomic::Ordering::Relaxed) {
                // A forked worker is this thread alone: nothing else is to run.
                // SAFETY: ends the process.
                unsafe { libc::_exit(code) }
            }
            code
        });
    match handle.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => 3,
    }
}

/// What the machine wrote to `user_output`, and where each flush ended: the
/// wrapper writes a call's answer as the last flush (see `'$charon_emit'/2`).
#[derive(Default)]
struct Captured {
    bytes: Vec<u8>,
    flushes: Vec<usize>,
    /// Set while a `Request::Stream` runs.
    streaming: Option<Streaming>,
}

/// The solutions of a streaming call on their way to the engine. The wrapper writes
/// each as a flush of its own, `'$charon_s'(Key, ok(T))`, with a key the engine
/// chose for this call: a flush that starts so is a solution (what the goal prints
/// cannot, not knowing the key), anything else is the goal's output. A writer
/// thread sends them on in batches: whatever has come when it looks (at most
/// `BATCH_BYTES`), waiting `BATCH_AFTER` at most for more, so a solution found just
/// before a long search still goes out at once. The queue to it is bounded, and the
/// pipe to the engine too: a client reading slowly blocks the search, and nothing
/// piles up here.
struct Streaming {
    prefix: Vec<u8>,
    queue: Option<std::sync::mpsc::SyncSender<String>>,
    writer: Option<std::thread::JoinHandle<()>>,
}

impl Streaming {
    const BATCH_BYTES: usize = 64 << 10;
    const BATCH_AFTER: std::time::Duration = std::time::Duration::from_millis(2);
    /// Solutions queued for the writer, at most.
    const QUEUE: usize = 1024;

    fn start(key: u64, mut proto: std::fs::File) -> Streaming {
        let (queue, solutions) = std::sync::mpsc::sync_channel::<String>(Self::QUEUE);
        let writer = std::thread::spawn(move || {
            let mut broken = false;
            while let Ok(first) = solutions.recv() {
                let mut bytes = first.len();
                let mut items = vec![first];
                let until = std::time::Instant::now() + Self::BATCH_AFTER;
                while bytes < Self::BATCH_BYTES {
                    let wait = until.saturating_duration_since(std::time::Instant::now());
                    match solutions.recv_timeout(wait) {
                        Ok(item) => {
                            bytes += item.len();
                            items.push(item);
                        }
                        Err(_) => break,
                    }
                }
                // The engine stopped reading: it kills this worker soon. Drain.
                if !broken && send(&mut proto, &Response::Solutions { items }).is_err() {
                    broken = true;
                }
            }
        });
        Streaming {
            prefix: format!("'$charon_s'({key},").into_bytes(),
            queue: Some(queue),
            writer: Some(writer),
        }
    }

    /// Takes the flush at `bytes[from..]` if it is a solution.
    fn take(&mut self, bytes: &mut Vec<u8>, from: usize) -> bool {
        let flush = &bytes[from..];
        if !flush.starts_with(&self.prefix) || flush.last() != Some(&b')') {
            return false;
        }
        let text = String::from_utf8_lossy(&flush[self.prefix.len()..flush.len() - 1]).into_owned();
        bytes.truncate(from);
        if let Some(queue) = &self.queue {
            let _ = queue.send(text);
        }
        true
    }

    /// Sends what is queued and stops the writer (before the call's answer goes).
    fn finish(mut self) {
        drop(self.queue.take());
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

type Output = Rc<RefCell<Captured>>;

/// Set in a worker a template forked (see `template`).
static FORKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Serves requests on stdin, answering on `proto`. With `template` (its socket's
/// descriptor), this process is a template: it forks a worker for each
/// `Request::Fork`, and the child serves on as that worker.
fn serve_on(mut proto: std::fs::File, mut template: Option<i32>) -> i32 {
    let (_input, mut machine, output) = machine();
    let mut requests = std::io::BufReader::new(std::io::stdin().lock());
    let mut queued: VecDeque<Queued> = VecDeque::new();
    let mut spin = std::time::Duration::ZERO;
    // stdin closed: serve what is queued, then stop.
    let mut closed = false;
    // When the last answer and the one before it were sent.
    let mut sent = [std::time::Instant::now(); 2];
    loop {
        if queued.is_empty() {
            if closed {
                return 0;
            }
            if requests.buffer().is_empty() && !spin.is_zero() {
                spin_until_readable(0, spin);
            }
            match read_request(&mut requests) {
                Some(item) => queue(&mut queued, item),
                None => return 0,
            }
        }
        take_in(&mut requests, &mut queued, &mut closed, sent[0]);
        let Some(item) = queued.pop_front() else {
            continue;
        };
        let response = match item {
            Queued::Skipped => Response::Skipped {},
            Queued::Bad(message) => Response::Crashed { message },
            Queued::Request(Request::Fork {}) => {
                let Some(control) = template else {
                    let message = "a fork asked of a worker that is no template".into();
                    let _ = send(&mut proto, &Response::Crashed { message });
                    return 6;
                };
                // The engine sends one fork at a time and waits for its answer: no
                // request is buffered that the child would take for its own.
                match template::fork_worker(control, proto.as_raw_fd()) {
                    Ok(template::Forked::Template(pid)) => Response::Forked { pid },
                    Ok(template::Forked::Worker) => {
                        FORKED.store(true, std::sync::atomic::Ordering::Relaxed);
                        template = None;
                        sent = [std::time::Instant::now(); 2];
                        continue;
                    }
                    Err(e) => Response::Crashed {
                        message: format!("the template could not fork: {e}"),
                    },
                }
            }
            Queued::Request(request) => {
                spin = match &request {
                    Request::Run { spin_us, .. } => std::time::Duration::from_micros(*spin_us),
                    _ => std::time::Duration::ZERO,
                };
                match answer(&mut machine, &output, &mut proto, request) {
                    Ok(response) => response,
                    Err(code) => return code,
                }
            }
        };
        if send(&mut proto, &response).is_err() {
            return 0;
        }
        sent = [sent[1], std::time::Instant::now()];
    }
}

/// The engine of this worker, its output captured (see [`Captured`]) and its
/// errors sent to stderr; the user input it reads from is kept with it.
fn machine() -> (UserInput, Machine, Output) {
    let output: Output = Rc::default();
    let sink = output.clone();
    let (input, streams) = StreamConfig::from_callbacks(
        Some(Box::new(move |cursor: &mut std::io::Cursor<Vec<u8>>| {
            let mut captured = sink.borrow_mut();
            let captured = &mut *captured;
            let from = captured.bytes.len();
            captured.bytes.extend_from_slice(cursor.get_ref());
            let solution = match &mut captured.streaming {
                Some(streaming) if from < captured.bytes.len() => {
                    streaming.take(&mut captured.bytes, from)
                }
                _ => false,
            };
            // scryer may call back more than once per flush: an empty call is no flush.
            let end = captured.bytes.len();
            if !solution && captured.flushes.last() != Some(&end) {
                captured.flushes.push(end);
            }
            cursor.get_mut().clear();
            cursor.set_position(0);
        })),
        // user_error goes to the worker's stderr, which the engine logs.
        Some(Box::new(|cursor: &mut std::io::Cursor<Vec<u8>>| {
            let _ = std::io::stderr().write_all(cursor.get_ref());
            cursor.get_mut().clear();
            cursor.set_position(0);
        })),
    );
    let machine = MachineBuilder::default().with_streams(streams).build();
    (input, machine, output)
}

/// Takes in what else has come: the rest of a batch, cancellations. With calls
/// queued, the pipe is only checked when the answer before the last went out
/// (`last_but_one`) POLL_EVERY ago or more (see there): no cancellation can have
/// come sooner. `closed` is set when stdin is.
fn take_in(
    requests: &mut std::io::BufReader<std::io::StdinLock<'_>>,
    queued: &mut VecDeque<Queued>,
    closed: &mut bool,
    last_but_one: std::time::Instant,
) {
    while !*closed {
        let buffered = requests.buffer().contains(&b'\n');
        if !buffered {
            if !queued.is_empty() && last_but_one.elapsed() < POLL_EVERY {
                break;
            }
            if !readable_now(0) {
                break;
            }
        }
        match read_request(requests) {
            Some(item) => queue(queued, item),
            None => *closed = true,
        }
    }
}

/// The answer to one request (a stream's solutions go out as they come, on a
/// handle of `proto` of their own); `Err` with the exit code when the worker
/// must stop, its last answer sent.
fn answer(
    machine: &mut Machine,
    output: &Output,
    proto: &mut std::fs::File,
    request: Request,
) -> Result<Response, i32> {
    if let Request::Stream { key, .. } = &request {
        let proto = match proto.try_clone() {
            Ok(proto) => proto,
            Err(e) => {
                let message = format!("the worker could not stream: {e}");
                let _ = send(proto, &Response::Crashed { message });
                return Err(7);
            }
        };
        output.borrow_mut().streaming = Some(Streaming::start(*key, proto));
    }
    match std::panic::catch_unwind(AssertUnwindSafe(|| handle(machine, output, request))) {
        Ok(r) => Ok(r),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "engine panicked".into());
            let _ = send(proto, &Response::Crashed { message });
            Err(4)
        }
    }
}

/// When a worker with calls of a batch queued looks for new requests (each look is
/// a system call). The engine cancels the calls after call k only when k's answer
/// has not come `PATIENCE` (2 ms, batch.rs) after it read answer k−1, so such a
/// cancellation is written at least that long after answer k−1 went out. Before
/// starting call k+1, the worker looks if answer k−1 went out this long ago or more
/// (shorter than `PATIENCE`, for the scheduler's slack): a cancellation written
/// before answer k is then always seen before the calls it names start, as when it
/// looked before every call, and a run of fast calls makes no system call between
/// them.
const POLL_EVERY: std::time::Duration = std::time::Duration::from_micros(500);

/// A request read but not yet served.
enum Queued {
    Request(Request),
    /// A batched call the engine took back (`Request::Cancel`): answered at once.
    Skipped,
    /// A line that is no request.
    Bad(String),
}

/// Reads one request line; `None` when stdin is closed.
fn read_request(requests: &mut impl BufRead) -> Option<Result<Request, String>> {
    let mut line = String::new();
    match requests.read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(serde_json::from_str(&line).map_err(|e| format!("bad request: {e}"))),
    }
}

/// Adds a request to the queue; a cancellation marks the batched calls it names.
fn queue(queued: &mut VecDeque<Queued>, item: Result<Request, String>) {
    match item {
        Ok(Request::Cancel { from }) => {
            for q in queued.iter_mut() {
                if matches!(q, Queued::Request(Request::Run { id, .. }) if *id >= from) {
                    *q = Queued::Skipped;
                }
            }
        }
        Ok(request) => queued.push_back(Queued::Request(request)),
        Err(message) => queued.push_back(Queued::Bad(message)),
    }
}

/// Whether `fd` has something to read right now.
fn readable_now(fd: i32) -> bool {
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd.
    unsafe { libc::poll(&mut pfd, 1, 0) > 0 }
}

/// Checks `fd` without sleeping for a while: when calls come one at a time, the next
/// request often follows at once, and waking from a blocking read costs more.
fn spin_until_readable(fd: i32, spin: std::time::Duration) {
    let until = std::time::Instant::now() + spin;
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    while std::time::Instant::now() < until {
        // SAFETY: one valid pollfd.
        if unsafe { libc::poll(&mut pfd, 1, 0) } != 0 {
            return;
        }
        std::hint::spin_loop();
    }
}

fn send(proto: &mut std::fs::File, response: &Response) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(response).map_err(std::io::Error::other)?;
    line.push(b'\n');
    proto.write_all(&line)
}

fn take_output(output: &Output) -> String {
    let bytes = std::mem::take(&mut output.borrow_mut().bytes);
    output.borrow_mut().flushes.clear();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Splits off the answer the wrapper wrote as the last flush: (what the goal
/// printed, the answer's text).
fn take_answer(output: &Output) -> (String, Option<String>) {
    let (mut bytes, flushes) = {
        let mut captured = output.borrow_mut();
        (
            std::mem::take(&mut captured.bytes),
            std::mem::take(&mut captured.flushes),
        )
    };
    let Some(&end) = flushes.last() else {
        return (String::from_utf8_lossy(&bytes).into_owned(), None);
    };
    let start = flushes.iter().rev().nth(1).copied().unwrap_or(0);
    let answer = String::from_utf8_lossy(&bytes[start..end]).into_owned();
    bytes.drain(start..end);
    (String::from_utf8_lossy(&bytes).into_owned(), Some(answer))
}

fn handle(machine: &mut Machine, output: &Output, request: Request) -> Response {
    match request {
        Request::Load { wrapper, kb } => {
            // The knowledge base loads as under consult/1, but a term at a time:
            // less memory and time on large files (see `'$charon_consult'/1`).
            let loader = match std::env::var_os(LOADER_ENV) {
                Some(v) if v == "consult" => "consult",
                _ => "'$charon_consult'",
            };
            let ok = load(machine, "consult", &wrapper)
                && !run_all(machine, "'$charon_note_ops'.".into()).is_empty()
                && load(machine, loader, &kb);
            // Changes made by directives while loading are part of every worker's load.
            run_all(
                machine,
                "retractall('$charon_change'(_)), flush_output.".into(),
            );
            Response::Loaded {
                ok,
                messages: take_output(output),
            }
        }
        Request::Run { query, changes, .. } => {
            take_output(output);
            // The wrapper writes the answer and fails (see `'$charon_emit'/1`).
            run_all(machine, query);
            let (printed, result) = take_answer(output);
            let changes = changes.then(|| {
                match binding(machine, "'$charon_changes'(R).".into(), "R") {
                    Some(PlTerm::Str(text)) => text,
                    // No text: the record could not be read; the engine falls back.
                    _ => String::new(),
                }
            });
            Response::Ran {
                result,
                output: printed,
                changes,
            }
        }
        Request::Stream { query, .. } => {
            take_output(output);
            run_all(machine, query);
            // The last solutions go out before the answer that ends the call.
            let streaming = output.borrow_mut().streaming.take();
            if let Some(streaming) = streaming {
                streaming.finish();
            }
            let (printed, result) = take_answer(output);
            Response::Ran {
                result,
                output: printed,
                changes: None,
            }
        }
        Request::Cancel { .. } => unreachable!("cancellations are taken by the queue"),
        Request::Fork {} => unreachable!("forks are served by `serve_on`"),
        Request::Dump { file, modules } => file_op(machine, "'$charon_dump'", &file, &modules),
        Request::Snapshot { file, modules } => {
            file_op(machine, "'$charon_snapshot'", &file, &modules)
        }
        Request::Restore { file, modules } => {
            file_op(machine, "'$charon_restore'", &file, &modules)
        }
        Request::Listing {
            file,
            module,
            predicates,
        } => Response::Done {
            result: binding(machine, listing_query(&file, &module, predicates), "R"),
        },
        Request::Replay { changes } => {
            let mut q = String::from("'$charon_replay'(");
            write_string(&mut q, &changes);
            q.push_str(", R).");
            Response::Done {
                result: binding(machine, q, "R"),
            }
        }
        Request::Analyse { file, source } => analyse(machine, &file, &source),
    }
}

/// The query that lists `predicates` of `module` (all of them with `None`) into
/// `file`.
fn listing_query(file: &str, module: &str, predicates: Option<Vec<(String, usize)>>) -> String {
    let mut q = String::from("'$charon_listing'(");
    write_atom(&mut q, file);
    q.push_str(", ");
    write_atom(&mut q, module);
    match predicates {
        None => q.push_str(", all, R)."),
        Some(pis) => {
            q.push_str(", [");
            for (i, (name, arity)) in pis.iter().enumerate() {
                if i > 0 {
                    q.push(',');
                }
                // Bracketed: a name that is an operator (`-`, `===>`)
                // before `/` is a syntax error, which scryer's query
                // reader answers with a panic.
                q.push('(');
                write_atom(&mut q, name);
                q.push_str(&format!(")/{arity}"));
            }
            q.push_str("], R).");
        }
    }
    q
}

/// The reader's items for the knowledge base `file` (see `'$charon_analyse'/2`):
/// read from its text cut to what the analysis needs (written to `source`) when
/// that can be made, else from the file itself.
fn analyse(machine: &mut Machine, file: &str, source: &str) -> Response {
    let cut = std::fs::read_to_string(file)
        .ok()
        .and_then(|text| super::analysis_text(&text))
        .is_some_and(|text| {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(source)
                .and_then(|mut f| f.write_all(text.as_bytes()))
                .is_ok()
        });
    let mut q = String::from("'$charon_analyse'(");
    write_atom(&mut q, file);
    q.push_str(", ");
    write_atom(&mut q, if cut { source } else { file });
    q.push_str(", R).");
    let items = match binding(machine, q, "R") {
        Some(PlTerm::List(items)) => items,
        other => vec![PlTerm::Compound(
            "problem".into(),
            vec![PlTerm::Atom(format!(
                "the reader gave no list: {}",
                other.map_or_else(|| "it failed".to_string(), |t| t.to_string())
            ))],
        )],
    };
    Response::Analysis { items }
}

/// Runs `query` and returns the binding of `var` in its first answer.
fn binding(machine: &mut Machine, query: String, var: &str) -> Option<PlTerm> {
    run_all(machine, query)
        .into_iter()
        .find_map(|mut b| b.remove(var))
        .map(convert)
}

/// Loads `path` with `pred` (`consult` or `'$charon_consult'`); true if it loaded.
/// Errors come back as failure, with the loader's message in the output.
fn load(machine: &mut Machine, pred: &str, path: &str) -> bool {
    let mut q = format!("{pred}(");
    write_atom(&mut q, path);
    q.push_str(").");
    machine
        .run_query(q)
        .any(|a| matches!(a, Ok(LeafAnswer::True | LeafAnswer::LeafAnswer { .. })))
}

fn file_op(machine: &mut Machine, pred: &str, file: &str, modules: &[String]) -> Response {
    let mut q = format!("{pred}(");
    write_atom(&mut q, file);
    q.push_str(", [");
    for (i, m) in modules.iter().enumerate() {
        if i > 0 {
            q.push(',');
        }
        write_atom(&mut q, m);
    }
    q.push_str("], R).");
    Response::Done {
        result: binding(machine, q, "R"),
    }
}

type Bindings = std::collections::BTreeMap<String, Term>;

/// Runs a query to the end and returns the bindings of each answer.
fn run_all(machine: &mut Machine, query: String) -> Vec<Bindings> {
    machine
        .run_query(query)
        .filter_map(|answer| match answer {
            Ok(LeafAnswer::LeafAnswer { bindings, .. }) => Some(bindings),
            Ok(LeafAnswer::True) => Some(Bindings::new()),
            _ => None,
        })
        .collect()
}

/// The engine's term as a [`PlTerm`].
fn convert(term: Term) -> PlTerm {
    match term {
        Term::Integer(i) => PlTerm::Int(i.to_string()),
        Term::Rational(r) => PlTerm::Rational(r.to_string()),
        Term::Float(f) => PlTerm::Float(f),
        Term::Atom(a) => PlTerm::Atom(a),
        Term::String(s) => PlTerm::Str(s),
        Term::List(items) => PlTerm::List(items.into_iter().map(convert).collect()),
        Term::Compound(name, args) if name == "." && args.len() == 2 => {
            // scryer hands back some lists (strings holding NUL, for one) as '.'/2 chains.
            let mut args = args.into_iter().map(convert);
            let (Some(head), Some(tail)) = (args.next(), args.next()) else {
                return PlTerm::Atom(".".into());
            };
            match (head, tail) {
                (PlTerm::Atom(c), PlTerm::Str(rest)) if c.chars().count() == 1 => {
                    PlTerm::Str(c + &rest)
                }
                (PlTerm::Atom(c), PlTerm::List(rest))
                    if c.chars().count() == 1 && rest.is_empty() =>
                {
                    PlTerm::Str(c)
                }
                (head, PlTerm::List(mut rest)) => {
                    rest.insert(0, head);
                    PlTerm::List(rest)
                }
                (head, tail) => PlTerm::Compound(".".into(), vec![head, tail]),
            }
        }
        Term::Compound(name, args) => {
            PlTerm::Compound(name, args.into_iter().map(convert).collect())
        }
        Term::Var(v) => PlTerm::Var(v),
        other => PlTerm::Atom(format!("{other:?}")),
    }
}
