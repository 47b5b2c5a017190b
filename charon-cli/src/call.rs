//! `charon call`: lists the operations of a knowledge base, or runs one with flags
//! built at run time from its PlDoc (one flag per input argument, named like it).
//!
//! Listing and `--help` need only the PlDoc model, so they start no engine. A call
//! goes through the library's one pipeline: the flags become `(name, text)` pairs
//! typed by `charon::args::from_pairs` (the rule of HTTP query strings), then
//! `resolve`, `prepare` and `invoke`.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use charon::pldoc::{self, Determinism, Operation, Type};
use charon::{CallError, EngineConfig, KnowledgeBase};
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::Value;

/// The exit statuses of `charon call` (documented in its `--help`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// An answer was printed: det or semidet success, nondet/multi with a solution
    /// (also: the listing, `--help`).
    Answer = 0,
    /// No answer: a semidet failure (`null`/`false`), no solutions (`[]`), a det
    /// failure.
    NoAnswer = 1,
    /// Bad usage or arguments: unknown operation or flag, missing input, a value not
    /// of its type.
    Usage = 2,
    /// The call failed (exception, limit, crash, an answer not fitting its type) or
    /// the knowledge base did not load.
    Failed = 3,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status as u8)
    }
}

/// Why `charon call` stops without an answer: the status and a one-line cause.
struct Stop(Status, String);

/// Runs `charon call KB [OP [ARGS…]]`; the limits are in `config`.
/// What `charon call` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// The answer.
    Answer,
    /// The answer with its proofs (`--explain`).
    Explain,
    /// One page of the solutions (`--page-size`, `--cursor`).
    Page(usize, Option<String>),
}

/// Runs `charon call`: `own_options` are its own long options (`--timeout-ms`, …),
/// named in the hint when one is given after OP.
pub fn run(
    kb: &Path,
    op: Option<&str>,
    args: &[String],
    config: EngineConfig,
    mode: Mode,
    own_options: &[String],
) -> ExitCode {
    match call(kb, op, args, config, mode, own_options) {
        Ok(status) => status.into(),
        Err(Stop(status, message)) => {
            eprintln!("charon: {message}");
            status.into()
        }
    }
}

fn call(
    path: &Path,
    name: Option<&str>,
    args: &[String],
    config: EngineConfig,
    mode: Mode,
    own_options: &[String],
) -> Result<Status, Stop> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Stop(
            Status::Failed,
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    let report = pldoc::analyse(&path.display().to_string(), &text);
    let Some(name) = name else {
        for rejection in &report.rejections {
            tracing::warn!("{rejection}");
        }
        let lines: String = report.operations.iter().map(listing_line).collect();
        print(&lines)?;
        return Ok(Status::Answer);
    };
    let op = report.operation(name).ok_or_else(|| {
        let kb = path.display();
        let message = if name.starts_with('-') {
            format!(
                "unknown option `{name}`: the operation comes before its flags (`charon call {kb} OP {name} ...`; `charon call {kb}` lists the operations)"
            )
        } else if let Some(rejection) = report
            .rejections
            .iter()
            .find(|r| r.predicate.split('/').next() == Some(name))
        {
            // Documented but not exposed: say why, not just "unknown".
            format!("`{name}` is not an operation: {rejection}")
        } else {
            format!("no operation named `{name}` in {kb} (`charon call {kb}` lists them)")
        };
        Stop(Status::Usage, message)
    })?;

    let matches = match command(op, path)
        .try_get_matches_from(std::iter::once(name).chain(args.iter().map(String::as_str)))
    {
        Ok(matches) => matches,
        Err(err) => {
            // Help goes to stdout with status 0, usage errors to stderr with status 2.
            let _ = err.print();
            if !err.use_stderr() {
                return Ok(Status::Answer);
            }
            if let Some(option) = misplaced_option(args, own_options) {
                eprintln!(
                    "charon: `{option}` is an option of `charon call`: give it before the knowledge base, e.g. charon call {option} ... {} {name} ...",
                    path.display()
                );
            }
            return Ok(Status::Usage);
        }
    };
    let arguments = charon::args::from_pairs(op, pairs(op, &matches))
        .map_err(|e| Stop(Status::Usage, format!("{name}: {e}")))?;

    let kb = KnowledgeBase::load_with(path, config)
        .map_err(|e| Stop(Status::Failed, format!("{:#}", anyhow::Error::from(e))))?;
    let id = kb
        .resolve(name)
        .ok_or_else(|| failure(&CallError::UnknownOperation(name.to_string())))?;
    if let Mode::Page(size, cursor) = &mode {
        let page = kb
            .page_exact(name, &Value::Object(arguments), *size, cursor.as_deref())
            .map_err(|e| failure(&e))?;
        let solutions = Value::Array(page.solutions);
        let json = charon::json::to_string_in_order(op, &solutions)
            .map_err(|e| Stop(Status::Failed, format!("{name}: {e}")))?;
        print(&format!("{json}\n"))?;
        match &page.next {
            Some(next) => eprintln!("charon: next page: --page-size {size} --cursor {next}"),
            None => eprintln!("charon: last page"),
        }
        // An empty page is "no answer", as an empty whole answer is.
        return Ok(answered(op, &solutions));
    }
    if mode == Mode::Explain {
        let mut explanation = kb
            .explain_exact(id, &Value::Object(arguments))
            .map_err(|e| failure(&e))?;
        charon::json::in_declared_order(op, &mut explanation.result);
        let json = charon::json::to_string_pretty(&explanation)
            .map_err(|e| Stop(Status::Failed, format!("{name}: {e}")))?;
        print(&format!("{json}\n"))?;
        return Ok(answered(op, &explanation.result));
    }
    let prepared = kb
        .prepare(id, &Value::Object(arguments))
        .map_err(|e| failure(&e))?;
    // What the knowledge base printed is logged by the library (target
    // `charon::kb_output`), so it reaches stderr and never stdout.
    // Integers of any size, written exactly (the CLI's own serde_json cannot hold
    // them; see `charon::json`).
    let answer = kb.invoke_exact(prepared).map_err(|e| failure(&e))?;
    let json = charon::json::to_string_in_order(op, &answer.value)
        .map_err(|e| Stop(Status::Failed, format!("{name}: {e}")))?;
    print(&format!("{json}\n"))?;
    Ok(answered(op, &answer.value))
}

/// The first of `args` that is an option of `charon call` itself (`--timeout-ms`, …)
/// rather than a flag of the operation: it was given after OP.
fn misplaced_option(args: &[String], own: &[String]) -> Option<String> {
    args.iter()
        .map(|a| a.split_once('=').map_or(a.as_str(), |(flag, _)| flag))
        .find(|a| own.iter().any(|o| o == a))
        .map(str::to_string)
}

/// Writes to stdout (a closed pipe is an error, not a panic).
fn print(text: &str) -> Result<(), Stop> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Stop(Status::Failed, format!("cannot write to stdout: {e}")))
}

/// One line of the listing: the signature, then the summary if there is one.
fn listing_line(op: &Operation) -> String {
    match op.summary() {
        Some(summary) => format!("{}  -- {summary}\n", op.signature()),
        None => format!("{}\n", op.signature()),
    }
}

/// The status and message of a call error.
fn failure(error: &CallError) -> Stop {
    let status = match error {
        CallError::UnknownOperation(_) | CallError::Arguments { .. } => Status::Usage,
        CallError::DetFailed { .. } => Status::NoAnswer,
        _ => Status::Failed,
    };
    Stop(status, error.to_string())
}

/// Whether a printed answer is an answer or the shape of "no answer": `[]` for an
/// operation with many solutions, `null` (or `false` without outputs) for a failed
/// semidet.
fn answered(op: &Operation, value: &Value) -> Status {
    let none = match op.determinism {
        Determinism::Det => false,
        Determinism::Semidet if op.outputs().next().is_none() => *value == Value::Bool(false),
        Determinism::Semidet => value.is_null(),
        _ => value.as_array().is_some_and(Vec::is_empty),
    };
    if none {
        Status::NoAnswer
    } else {
        Status::Answer
    }
}

/// The `(name, text)` pairs of the input flags given, in mode-line order.
fn pairs(op: &Operation, matches: &ArgMatches) -> Vec<(String, String)> {
    op.inputs()
        .flat_map(|arg| {
            matches
                .get_many::<String>(&arg.name)
                .into_iter()
                .flatten()
                .map(|value| (arg.name.to_string(), value.clone()))
        })
        .collect()
}

/// The command line of one operation: a required flag per input argument, and a
/// `--help` with the description, the types and the `@arg` texts.
fn command(op: &Operation, kb: &Path) -> Command {
    let description = op.description.trim();
    let mut command = Command::new(op.name.to_string())
        .bin_name(format!("charon call {} {}", kb.display(), op.name))
        .before_help(op.signature())
        .after_help(after_help(op))
        .disable_version_flag(true)
        .next_help_heading("Inputs");
    if !description.is_empty() {
        command = command
            .about(op.summary().unwrap_or_default())
            .long_about(description.to_string());
    }
    for arg in op.inputs() {
        let name = arg.name.to_string();
        let (value_name, action, kind) = match &arg.ty {
            Type::List(inner) => (
                inner.to_string(),
                ArgAction::Append,
                format!(
                    "Type: {}; repeat the flag (--{name} A --{name} B) or give one JSON array (--{name} '[...]').",
                    arg.ty
                ),
            ),
            ty => (ty.to_string(), ArgAction::Set, format!("Type: {ty}.")),
        };
        let (help, long_help) = match &arg.doc {
            Some(doc) => (format!("{doc} [{}]", arg.ty), format!("{doc}\n{kind}")),
            None => (format!("[{}]", arg.ty), kind),
        };
        command = command.arg(
            Arg::new(name.clone())
                .long(name)
                .value_name(value_name)
                .action(action)
                .required(true)
                .allow_hyphen_values(true)
                .help(help)
                .long_help(long_help),
        );
    }
    command
}

/// After the flags: the outputs, the shape of the answer and the exit statuses.
fn after_help(op: &Operation) -> String {
    let outputs: Vec<_> = op.outputs().collect();
    let mut text = String::new();
    if !outputs.is_empty() {
        let labels: Vec<String> = outputs
            .iter()
            .map(|o| format!("{}: {}", o.name, o.ty))
            .collect();
        let width = labels.iter().map(String::len).max().unwrap_or(0);
        text.push_str("Outputs:\n");
        for (out, label) in outputs.iter().zip(&labels) {
            match &out.doc {
                Some(doc) => text.push_str(&format!("  {label:width$}  {doc}\n")),
                None => text.push_str(&format!("  {label}\n")),
            }
        }
        text.push('\n');
    }
    // One solution, and solutions in the plural.
    let (one, many) = match outputs.as_slice() {
        [] => ("true".to_string(), "true".to_string()),
        [out] => (
            format!("the value of {} ({})", out.name, out.ty),
            format!("values of {} ({})", out.name, out.ty),
        ),
        several => {
            let fields = several
                .iter()
                .map(|o| format!("\"{}\": {}", o.name, o.ty))
                .collect::<Vec<_>>()
                .join(", ");
            (
                format!("an object {{{fields}}}"),
                format!("objects {{{fields}}}"),
            )
        }
    };
    let answer = match op.determinism {
        Determinism::Det => one,
        Determinism::Semidet if outputs.is_empty() => "true, or false if it fails".into(),
        Determinism::Semidet => format!("{one}, or null if it fails"),
        _ => format!("an array of {many}, one per solution ([] if there is none)"),
    };
    text.push_str(&format!("Prints (JSON): {answer}.\n"));
    text.push_str(
        "Exit status: 0 an answer, 1 no answer, 2 bad arguments, 3 the call failed \
         (see `charon call --help`).",
    );
    text
}
