//! Command line definitions (clap derive; the doc comments are the help text).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use charon::reason::ReasonConfig;
use charon::{Counting, EngineConfig, Limits};
use clap::{Args, Parser, Subcommand};

use crate::logging::LogFormat;

mod commands;
mod serve;

/// Turn a Prolog knowledge base into typed APIs.
///
/// Every predicate documented with a PlDoc mode line (`%! name(+In:type, -Out:type) is det.`)
/// becomes an operation.
#[derive(Debug, Parser)]
#[command(name = "charon", version = charon::VERSION, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the knowledge base as an HTTP/JSON API, with its OpenAPI 3.1 document at
    /// GET /openapi.json and a health route at GET /health. With --reasoning, also
    /// POST /reason, /diagnose, /what-if and /check-kb (the reasoning toolkit; no .pl
    /// file needed).
    ///
    /// Example: charon http examples/meds.pl --port 8080
    /// Example: charon http --reasoning
    Http(HttpArgs),
    /// Serve the knowledge base as an MCP server: one tool per operation and the
    /// resource charon://source, over streamable HTTP at /mcp or over stdio. With
    /// --reasoning, also the tools reason, diagnose, what_if and check_kb (no .pl file needed).
    ///
    /// Example: charon mcp examples/meds.pl --stdio
    /// Example: charon mcp --reasoning --stdio
    Mcp(McpArgs),
    /// Answer a question from Euclid-IR knowledge (facts, rules, NOT, comparisons),
    /// printing every solution with its proof tree, drawn as an indented tree (or the
    /// JSON result with --json). Without QUERY, the file's `? query` lines are answered.
    ///
    /// Exit status: 0 answered (with or without solutions), 1 the knowledge or the
    /// query has an error or a limit was hit (the message says what to fix).
    ///
    /// Example: charon reason family.euclid 'ancestor(tom, $who)'
    Reason(crate::reason::ReasonArgs),
    /// Explain a goal over Euclid-IR knowledge: why it holds (proofs), why not (the
    /// premises that failed, traced through the search), or what facts would make it
    /// hold (each proposal verified by re-running the query).
    ///
    /// Exit status: 0 diagnosed, 1 the knowledge or the query has an error.
    ///
    /// Example: charon diagnose family.euclid 'ancestor(tom, zed)' --mode why-not
    /// Example: charon diagnose family.euclid 'mortal(plato)' --mode what-needs
    Diagnose(crate::reason::DiagnoseArgs),
    /// Compare a goal's answers before and after hypothetical changes (`+ fact` /
    /// `- fact` lines in CHANGES): the counts and the solutions that appeared and
    /// disappeared. A `-` that matches no fact is an error.
    ///
    /// Example: charon what-if rbac.euclid changes.txt 'user_has_permission($u, deploy)'
    WhatIf(crate::reason::WhatIfArgs),
    /// Check Euclid-IR knowledge without running it: syntax, undefined predicates,
    /// arity mismatches, recursion through negation, duplicates, unsafe variables.
    /// Exit status: 0 no errors (warnings allowed), 1 errors.
    ///
    /// Example: charon check-kb family.euclid
    CheckKb(crate::reason::CheckKbArgs),
    /// Print the OpenAPI 3.1 document of the knowledge base's HTTP API (or write it to
    /// FILE) and exit. Nothing else is written to stdout.
    ///
    /// Example: charon openapi examples/meds.pl openapi.json
    Openapi(OpenapiArgs),
    /// Load a knowledge base, print which predicates are exposed and why others are not,
    /// and exit: 0 when it loads and every documented predicate is exposed, 1 otherwise.
    ///
    /// Example: charon check examples/meds.pl
    Check(CheckArgs),
    /// List the operations of a knowledge base, or run one with typed flags.
    ///
    /// Without OP, prints one line per operation: its signature and summary.
    /// With OP, runs it and prints its JSON answer on stdout (nothing else goes to stdout;
    /// what the knowledge base prints goes to stderr). Every input argument is a flag
    /// named exactly like the PlDoc argument (--Age 82); a list is the flag repeated
    /// (--Drugs a --Drugs b) or one JSON array (--Drugs '["a","b"]'); values are typed
    /// by the declared types. `charon call KB.pl OP --help` describes OP and its flags.
    ///
    /// The options below go BEFORE the knowledge base or OP; everything after OP is OP's.
    /// Example: charon call --timeout-ms 2000 examples/meds.pl is_pim --Age 70 --Drug diazepam
    ///
    /// Exit status:
    ///   0  an answer was printed: det or semidet success, nondet/multi with a solution
    ///   1  no answer: a semidet failure (prints null or false), no solutions (prints []),
    ///      a det failure (reported on stderr)
    ///   2  bad usage or arguments: unknown operation or flag, missing input, a value not
    ///      of its type
    ///   3  the call failed (Prolog exception, inference/time/solution limit, engine
    ///      crash, an answer not fitting its type) or the knowledge base did not load
    ///
    /// Example: charon call examples/meds.pl pim_check --Age 82 --Drugs diazepam
    #[command(
        verbatim_doc_comment,
        override_usage = "charon call [OPTIONS] <KB> [OP [--Arg V]...]"
    )]
    Call(CallArgs),
    /// Write the database of replicated knowledge base (--replicate in http and
    /// mcp) as a .pl file: KB with the clauses of its dynamic predicates as the
    /// shared log in PostgreSQL makes them now, so that the data never lives only in
    /// the database. The connection string comes from --replicate-url or
    /// CHARON_REPLICATE_URL.
    ///
    /// Example: charon export library.pl --output library-now.pl
    Export(ExportArgs),
}

#[derive(Debug, Args)]
struct ExportArgs {
    /// The knowledge base the replicas load (a .pl file).
    kb: PathBuf,
    /// The file to write (it must not exist). Example: --output library-now.pl
    #[arg(long, short, value_name = "FILE")]
    output: PathBuf,
    /// The PostgreSQL connection string (never logged). Example: --replicate-url
    /// postgresql://charon@db.internal/charon
    #[arg(
        long,
        value_name = "URL",
        env = "CHARON_REPLICATE_URL",
        hide_env_values = true
    )]
    replicate_url: String,
    /// The table of the replicas' log. Example: --replicate-table library_log
    #[arg(long, value_name = "NAME", default_value = "charon_log")]
    replicate_table: String,
    #[command(flatten)]
    common: Common,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// The knowledge base (a .pl file).
    kb: PathBuf,
    /// Print the report as one JSON object `{"operations": [...], "rejections": [...]}`
    /// instead of text. Example: --json
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    common: Common,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, Args)]
struct CallArgs {
    /// The knowledge base (a .pl file).
    kb: PathBuf,
    /// The operation to run, then its flags: one per input argument, named like it
    /// (`--Name value`). Without OP, the operations are listed. Everything after OP is
    /// the operation's, `--help` included.
    ///
    /// Example: pim_check --Age 82 --Drugs diazepam --Drugs doxylamine
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "OP [--Arg V]"
    )]
    operation: Vec<String>,
    /// Diagnostics filter for stderr, in tracing syntax; RUST_LOG overrides it. What the
    /// knowledge base prints is logged under charon::kb_output.
    ///
    /// Example: --log debug, --log charon=trace,warn
    #[arg(
        long,
        value_name = "FILTER",
        default_value = "warn,charon::kb_output=info"
    )]
    log: String,
    /// Print the answer with a proof tree per solution (as JSON: the result of POST
    /// /explain) instead of the answer alone; read-only operations the tracer can
    /// follow only (pure Prolog: no cut, if-then-else, findall, database changes).
    ///
    /// Example: charon call --explain examples/rbac.pl get_user_roles --User user_0006
    #[arg(long)]
    explain: bool,
    /// Print one page of a nondet or multi operation's solutions (a JSON array) instead
    /// of the whole answer; the cursor of the next page goes to stderr.
    ///
    /// Example: charon call --page-size 20 examples/rbac.pl users_with_role --Role admin
    #[arg(long, value_name = "N", conflicts_with = "explain")]
    page_size: Option<usize>,
    /// The cursor of the page to print (what the page before printed to stderr);
    /// with --page-size.
    ///
    /// Example: --cursor 14.0.9c0e1b2a3d4f5061
    #[arg(long, value_name = "CURSOR", requires = "page_size")]
    cursor: Option<String>,
    #[command(flatten)]
    limits: CallLimitArgs,
}

#[derive(Debug, Args)]
struct HttpArgs {
    /// The knowledge base (a .pl file); may be left out with --reasoning.
    #[arg(required_unless_present = "reasoning")]
    kb: Option<PathBuf>,
    /// Also serve the reasoning toolkit: POST /reason, /diagnose, /what-if, /check-kb (Euclid-IR
    /// knowledge in, answers with proof trees out), in the same OpenAPI document and
    /// under the same limits.
    ///
    /// Example: --reasoning
    #[arg(long)]
    reasoning: bool,
    /// Also serve POST /explain: a read-only operation's answer with a proof tree
    /// per solution (for the pure-Prolog subset the tracer follows). Off by default:
    /// proofs show the clauses and facts behind an answer.
    ///
    /// Example: --explain
    #[arg(long, requires = "kb")]
    explain: bool,
    /// Also serve GET /metrics for Prometheus (calls by operation and outcome,
    /// durations, limits hit, the answer cache, the workers), behind the same
    /// host, origin and token checks as the API. Without it, calls are not counted.
    ///
    /// Example: --metrics
    #[arg(long)]
    metrics: bool,
    /// Reload the knowledge base when its file, or a .pl file beside or below it,
    /// changes (it is also reloaded on SIGHUP, with or without this): the new one is
    /// loaded and checked first, and swapped in only if it loads; calls in flight
    /// finish on the old one. With --persist, writes wait while it loads, and the
    /// journal's writes apply to the edited file (refused if the edit changes what
    /// they changed).
    ///
    /// Example: --watch
    #[arg(long, requires = "kb")]
    watch: bool,
    /// Address to bind. Anything but loopback makes the whole knowledge base queryable
    /// by anyone who can reach the port, unless a token is required (--token).
    ///
    /// Example: --host 0.0.0.0
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to bind (0 picks a free one; the address is logged).
    ///
    /// Example: --port 8080
    #[arg(long, default_value_t = 3000)]
    port: u16,
    /// Largest request body in bytes (413 beyond). Example: --body-limit 65536
    #[arg(long, value_name = "BYTES", default_value_t = charon::http::HttpOptions::default().body_limit)]
    body_limit: usize,
    #[command(flatten)]
    guard: GuardArgs,
    #[command(flatten)]
    common: Common,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Who may call an HTTP server (the HTTP API and MCP over HTTP alike).
#[derive(Debug, Args)]
struct GuardArgs {
    /// Also accept requests for this host name (repeatable). The loopback names and
    /// the bound address are always accepted; requests for any other name are refused,
    /// a defence against DNS rebinding. `*` accepts any name (the defence is off).
    ///
    /// Example: --allow-host api.example.org
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// Also accept requests from pages of this origin (repeatable). Requests from
    /// other sites are refused: a browser page cannot make this server act.
    ///
    /// Example: --allow-origin https://app.example.org
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// Accept requests from this origin and let its scripts read the answers (CORS,
    /// off unless given; repeatable).
    ///
    /// Example: --cors-origin https://app.example.org
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    cors_origin: Vec<String>,
    /// Require `Authorization: Bearer TOKEN` on every request but the health probes
    /// (/health, /health/ready). Read from CHARON_TOKEN when not given; not used with
    /// --stdio.
    ///
    /// Example: --token "$(openssl rand -hex 32)"
    #[arg(
        long,
        env = "CHARON_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    token: Option<String>,
}

impl GuardArgs {
    /// The policy for a server bound to `host`.
    fn guard(&self, host: &str) -> anyhow::Result<charon::http::Guard> {
        let mut guard = charon::http::Guard::for_bind(host);
        for name in &self.allow_host {
            guard = guard.allow_host(name);
        }
        for origin in &self.allow_origin {
            guard = guard.allow_origin(origin);
        }
        for origin in &self.cors_origin {
            guard = guard.allow_cors(origin);
        }
        if let Some(token) = &self.token {
            anyhow::ensure!(
                !token.trim().is_empty(),
                "the token is empty: give --token (or CHARON_TOKEN) a secret, or leave it unset"
            );
            guard = guard.with_token(token.trim());
        }
        Ok(guard)
    }
}

#[derive(Debug, Args)]
struct McpArgs {
    /// The knowledge base (a .pl file); may be left out with --reasoning.
    #[arg(required_unless_present = "reasoning")]
    kb: Option<PathBuf>,
    /// Also serve the reasoning tools reason, diagnose, what_if and check_kb (Euclid-IR knowledge in,
    /// answers with proof trees out), under the same limits.
    ///
    /// Example: --reasoning
    #[arg(long)]
    reasoning: bool,
    /// Also serve the tool explain: a read-only tool's answer with a proof tree per
    /// solution (for the pure-Prolog subset the tracer follows). Off by default:
    /// proofs show the clauses and facts behind an answer.
    ///
    /// Example: --explain
    #[arg(long, requires = "kb")]
    explain: bool,
    /// Also serve GET /metrics for Prometheus beside /mcp (the tools' calls by
    /// outcome, durations, limits hit, the answer cache, the workers, the open
    /// sessions), behind the same host, origin and token checks. Without it,
    /// calls are not counted.
    ///
    /// Example: --metrics
    #[arg(long)]
    metrics: bool,
    /// Reload the knowledge base when its file, or a .pl file beside or below it,
    /// changes (it is also reloaded on SIGHUP, with or without this): the new one is
    /// loaded and checked first, and swapped in only if it loads; calls in flight
    /// finish on the old one. With --persist, writes wait while it loads, and the
    /// journal's writes apply to the edited file (refused if the edit changes what
    /// they changed).
    ///
    /// Example: --watch
    #[arg(long, requires = "kb", conflicts_with = "stdio")]
    watch: bool,
    /// Speak MCP over stdin/stdout (for desktop clients) instead of HTTP.
    ///
    /// Example: --stdio
    #[arg(long, conflicts_with_all = ["host", "port", "allow_host", "allow_origin", "cors_origin", "max_sessions", "session_idle_secs", "metrics"])]
    stdio: bool,
    /// Address to bind for streamable HTTP at /mcp. Anything but loopback makes the
    /// whole knowledge base queryable by anyone who can reach the port (unless a token
    /// is required: --token), and adds this host to the accepted Host/Origin values.
    ///
    /// Example: --host 0.0.0.0
    #[arg(long)]
    host: Option<String>,
    /// Port to bind for streamable HTTP (0 picks a free one; the address is logged).
    ///
    /// Example: --port 8080
    #[arg(long)]
    port: Option<u16>,
    /// Most MCP sessions open at once over HTTP; an `initialize` beyond is refused
    /// (busy, -32000) until one closes or expires.
    ///
    /// Example: --max-sessions 100
    #[arg(long, value_name = "N", default_value_t = charon::mcp::McpHttpOptions::default().max_sessions)]
    max_sessions: usize,
    /// Seconds without a request after which an MCP session over HTTP is closed (its
    /// client initializes again).
    ///
    /// Example: --session-idle-secs 60
    #[arg(long, value_name = "SECS", default_value_t = charon::mcp::McpHttpOptions::default().idle_timeout.as_secs())]
    session_idle_secs: u64,
    #[command(flatten)]
    guard: GuardArgs,
    #[command(flatten)]
    common: Common,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, Args)]
struct OpenapiArgs {
    /// The knowledge base (a .pl file).
    kb: PathBuf,
    /// Write the document here instead of stdout. Example: openapi.json
    file: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
}

/// Options every subcommand takes.
#[derive(Debug, Args)]
struct Common {
    /// Diagnostics filter for stderr, in tracing syntax; RUST_LOG overrides it.
    ///
    /// Example: --log debug, --log charon=trace,warn
    #[arg(long, value_name = "FILTER", default_value = "info")]
    log: String,
    /// How log lines are written: text for people, json (one object per line,
    /// fields included: a call's line has `operation`, `outcome` and
    /// `duration_us`) for log collectors.
    ///
    /// Example: --log-format json
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    log_format: LogFormat,
}

/// Engine options and per-call limits (defaults are the library's
/// `EngineConfig::default()`).
#[derive(Debug, Args)]
struct LimitArgs {
    #[command(flatten)]
    call: CallLimitArgs,
    /// Engine worker processes (default: one per core). Example: --workers 4
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
    /// Threads that serve requests (HTTP, MCP), apart from the engine workers
    /// (default: one per core). When most calls run in the engine (answer cache off,
    /// writes), fewer can leave more of the cores to the workers. Example:
    /// --io-threads 1
    #[arg(long, value_name = "N")]
    io_threads: Option<usize>,
    /// MiB of answers of pure read-only operations kept until the database
    /// changes (0 turns the cache off). Example: --answer-cache 0
    #[arg(long, value_name = "MIB", default_value_t = EngineConfig::default().answer_cache >> 20)]
    answer_cache: u64,
    /// Calls that may be in the engine or waiting for it at once, over HTTP and MCP
    /// together (beyond: HTTP 503, an MCP error result). Example: --max-pending 256
    #[arg(long, value_name = "N", default_value_t = EngineConfig::default().max_pending)]
    max_pending: usize,
    /// Replace a worker after this many calls. Example: --recycle-after 100000
    #[arg(long, value_name = "N", default_value_t = EngineConfig::default().recycle_after)]
    recycle_after: u64,
    /// Replace a worker whose memory has grown this many MiB past what it held once
    /// loaded (0: never for memory). Example: --recycle-memory-mb 512
    #[arg(long, value_name = "MIB", default_value_t = EngineConfig::default().recycle_memory >> 20)]
    recycle_memory_mb: u64,
    /// Reasoning tools: most proof nodes one answer may hold (past it the request
    /// fails as answer_too_large). Example: --max-proof-nodes 20000
    #[arg(long, value_name = "N", default_value_t = ReasonConfig::default().max_proof_nodes)]
    max_proof_nodes: usize,
    /// Reasoning tools: most bytes one answer may take as JSON (past it the
    /// request fails as answer_too_large). Example: --max-answer-bytes 1048576
    #[arg(long, value_name = "BYTES", default_value_t = ReasonConfig::default().max_answer_bytes)]
    max_answer_bytes: usize,
    /// Reasoning tools: the largest knowledge text a request may send (the
    /// reference's limit by default). Example: --max-knowledge-bytes 2000000
    #[arg(long, value_name = "BYTES", default_value_t = ReasonConfig::default().max_knowledge_bytes)]
    max_knowledge_bytes: usize,
    /// Reasoning tools: the longest query a request may give on its own, in
    /// characters (the reference's limit by default). Example: --max-query-chars 20000
    #[arg(long, value_name = "CHARS", default_value_t = ReasonConfig::default().max_query_chars)]
    max_query_chars: usize,
    /// Reasoning tools: the most solutions a request may ask for (max_solutions;
    /// the reference's limit by default). Example: --max-solutions-limit 5000
    #[arg(long, value_name = "N", default_value_t = ReasonConfig::default().max_solutions_limit)]
    max_solutions_limit: usize,
    /// Reasoning tools: the deepest search a request may ask for (max_depth; the
    /// reference's limit by default). Example: --max-depth-limit 1000
    #[arg(long, value_name = "N", default_value_t = ReasonConfig::default().max_depth_limit)]
    max_depth_limit: u32,
}

/// `--inference-counting` (the library's [`Counting`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum CountingArg {
    Adaptive,
    Strict,
}

/// The limits of one call (defaults are the library's `Limits::default()`).
#[derive(Debug, Args)]
struct CallLimitArgs {
    /// Wall-clock time limit per call, in milliseconds. Example: --timeout-ms 2000
    #[arg(long, value_name = "MS", default_value_t = Limits::default().time.as_millis() as u64)]
    timeout_ms: u64,
    /// Inference limit per call (0: none; counting costs about a third of a long
    /// goal's time, and without it a runaway call is stopped only by the time
    /// limit, which replaces its worker). Example: --max-inferences 1000000
    #[arg(long, value_name = "N", default_value_t = Limits::default().inferences)]
    max_inferences: u64,
    /// How the inference limit is enforced on read-only operations. `adaptive`: an
    /// operation whose first 100 calls all ended within the limits runs without the
    /// counter, its count compared when a call ends (same answers, a third less
    /// time on long goals; a call that never ends is stopped by the time limit, once,
    /// and the operation is counted again for good). `strict`: always counted.
    /// Example: --inference-counting strict
    #[arg(long, value_name = "MODE", value_enum, default_value_t = CountingArg::Adaptive)]
    inference_counting: CountingArg,
    /// Most solutions collected for a nondet operation. Example: --max-solutions 500
    #[arg(long, value_name = "N", default_value_t = Limits::default().solutions)]
    max_solutions: usize,
    /// Most solutions of one streamed answer (HTTP `Accept: application/x-ndjson`);
    /// a stream keeps none of them, and past this it ends as truncated. Example:
    /// --max-streamed-solutions 5000000
    #[arg(long, value_name = "N", default_value_t = Limits::default().streamed)]
    max_streamed_solutions: usize,
    /// Memory of one engine worker process, in MiB (0: unlimited); a call that
    /// needs more fails with a memory-limit error. Example: --max-memory-mb 1024
    #[arg(long, value_name = "MIB", default_value_t = Limits::default().memory.map_or(0, |b| b >> 20))]
    max_memory_mb: u64,
    /// Time the knowledge base may take to load (its directives included), in
    /// milliseconds. Example: --load-timeout-ms 120000
    #[arg(long, value_name = "MS", default_value_t = EngineConfig::default().load_timeout.as_millis() as u64)]
    load_timeout_ms: u64,
    /// Keep the dynamic database in the .pl file: every write is synced to a
    /// journal beside it (FILE.journal) before it answers, and folded into the file
    /// (atomically, every other byte kept) when the journal grows, at shutdown and
    /// at the next start. Writes are refused if someone else edits the file
    /// meanwhile, until the knowledge base is reloaded (SIGHUP, --watch) or
    /// restarted. Example: --persist
    #[arg(long)]
    persist: bool,
    /// Share the dynamic database with other replicas of this knowledge base
    /// through a log in PostgreSQL: every write is committed to the log before it
    /// answers, every replica applies the log in its order, and reads stay local.
    /// The connection string comes from --replicate-url or CHARON_REPLICATE_URL
    /// (better: the environment keeps a password out of the process list). See
    /// docs/replicas.md. Example: --replicate
    #[arg(long, conflicts_with = "persist")]
    replicate: bool,
    /// The PostgreSQL connection string of --replicate (never logged). Example:
    /// --replicate-url postgresql://charon@db.internal/charon
    #[arg(
        long,
        value_name = "URL",
        env = "CHARON_REPLICATE_URL",
        hide_env_values = true
    )]
    replicate_url: Option<String>,
    /// The table of the replicas' log (replicas of one knowledge base share it;
    /// another knowledge base on the same database needs another). Example:
    /// --replicate-table library_log
    #[arg(long, value_name = "NAME", default_value = "charon_log")]
    replicate_table: String,
    /// Take a snapshot of the log (and delete the records before the last one)
    /// once the records since the last snapshot hold this many bytes and twice
    /// the last snapshot's. Example: --replicate-compact-after 8388608
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    replicate_compact_after: u64,
    /// How long PostgreSQL may take to answer each statement of a write: a server
    /// that stops answering (a stopped process, a frozen machine) fails the write
    /// within this, saying so (at most the call's time limit). Example:
    /// --replicate-answer-within-ms 2000
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    replicate_answer_within_ms: u64,
}

impl CallLimitArgs {
    /// The default configuration with these limits.
    fn config(&self) -> anyhow::Result<EngineConfig> {
        let mut config = EngineConfig::default();
        config.limits.time = Duration::from_millis(self.timeout_ms);
        config.limits.inferences = self.max_inferences;
        config.limits.counting = match self.inference_counting {
            CountingArg::Adaptive => Counting::Adaptive,
            CountingArg::Strict => Counting::Strict,
        };
        config.limits.solutions = self.max_solutions;
        config.limits.streamed = self.max_streamed_solutions;
        config.limits.memory = (self.max_memory_mb > 0).then_some(self.max_memory_mb << 20);
        config.load_timeout = Duration::from_millis(self.load_timeout_ms.max(1));
        config.persist = self.persist;
        config.replica = self.replica()?;
        Ok(config)
    }

    /// `--replicate`: the log to share writes through, if asked for.
    fn replica(&self) -> anyhow::Result<Option<charon::ReplicaConfig>> {
        if !self.replicate {
            return Ok(None);
        }
        let Some(url) = &self.replicate_url else {
            anyhow::bail!(
                "--replicate needs the PostgreSQL connection string: set CHARON_REPLICATE_URL \
                 (or give --replicate-url)"
            );
        };
        Ok(Some(
            charon::ReplicaConfig::new(url.clone())
                .with_table(self.replicate_table.clone())
                .with_compact_after(self.replicate_compact_after)
                .with_answer_within(Duration::from_millis(
                    self.replicate_answer_within_ms.max(1),
                )),
        ))
    }
}

impl LimitArgs {
    fn config(&self) -> anyhow::Result<EngineConfig> {
        let mut config = self.call.config()?;
        config.answer_cache = self.answer_cache << 20;
        config.max_pending = self.max_pending.max(1);
        config.recycle_after = self.recycle_after.max(1);
        config.recycle_memory = self.recycle_memory_mb << 20;
        if let Some(n) = self.workers {
            config.workers = n.max(1);
        }
        Ok(config)
    }

    /// The reasoning tools' settings these limits give.
    fn reason_config(&self) -> ReasonConfig {
        let mut config = ReasonConfig::default();
        config.max_proof_nodes = self.max_proof_nodes.max(1);
        config.max_answer_bytes = self.max_answer_bytes.max(1024);
        config.max_knowledge_bytes = self.max_knowledge_bytes.max(1);
        config.max_query_chars = self.max_query_chars.max(1);
        config.max_solutions_limit = self.max_solutions_limit.max(1);
        config.max_depth_limit = self.max_depth_limit.max(1);
        config
    }
}

/// The long options of `charon call` itself (`--timeout-ms`, …), to tell them from an
/// operation's flags.
fn call_options() -> Vec<String> {
    let command = <Cli as clap::CommandFactory>::command();
    command
        .find_subcommand("call")
        .map(|call| {
            call.get_arguments()
                .filter_map(clap::Arg::get_long)
                .map(|long| format!("--{long}"))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => commands::check(args),
        Command::Http(args) => serve::http(args),
        Command::Mcp(args) => serve::mcp(args),
        Command::Openapi(args) => commands::openapi(args),
        Command::Call(args) => Ok(commands::call(args)),
        Command::Export(args) => commands::export(args),
        Command::Reason(args) => crate::reason::reason(args),
        Command::CheckKb(args) => crate::reason::check_kb(args),
        Command::Diagnose(args) => crate::reason::diagnose(args),
        Command::WhatIf(args) => crate::reason::what_if(args),
    }
}

/// Loads a knowledge base (in place of the one `after` came from, for a reload)
/// and logs its exposure report.
fn load(
    path: &std::path::Path,
    config: EngineConfig,
    after: Option<&charon::Handover>,
) -> anyhow::Result<charon::KnowledgeBase> {
    let kb = match after {
        Some(handover) => charon::KnowledgeBase::load_after(path, config, handover)?,
        None => charon::KnowledgeBase::load_with(path, config)?,
    };
    for rejection in &kb.report().rejections {
        tracing::warn!("{rejection}");
    }
    tracing::info!(
        "{}: {} operation(s) exposed",
        path.display(),
        kb.operations().len()
    );
    crate::return_freed_memory();
    Ok(kb)
}
