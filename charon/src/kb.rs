//! [`KnowledgeBase`]: a loaded `.pl` file, its operations, and typed calls on them.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::analysis;
use crate::cache::AnswerCache;
use crate::engine::{Engine, EngineConfig, EngineError};
use crate::pldoc::{self, Mode, Operation, Report};
use crate::term::{self, InputTypeError, OutputTypeError, PlTerm};

/// Why a knowledge base did not load.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The engine rejected the file (syntax error, failed directive); the message
    /// names `file:line` where the engine gives one.
    #[error("{0}")]
    Consult(String),
    /// The engine could not be started.
    #[error(transparent)]
    Engine(EngineError),
}

/// What is wrong with the arguments of a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentError {
    /// The arguments are not a JSON object.
    #[error("arguments must be a JSON object keyed by argument name")]
    NotAnObject,
    /// A key that is not an argument of the operation.
    #[error("unknown argument `{0}`")]
    Unknown(String),
    /// An input argument is missing.
    #[error("missing input argument `{0}`")]
    Missing(String),
    /// A value was given for an output argument.
    #[error("`{0}` is an output argument and cannot be given")]
    Output(String),
    /// A value does not fit the declared type.
    #[error("argument `{name}`: {error}")]
    Type {
        /// The argument.
        name: String,
        /// What was expected and found.
        error: InputTypeError,
    },
}

impl ArgumentError {
    /// The argument this error is about, if it is about one.
    pub fn argument(&self) -> Option<&str> {
        match self {
            ArgumentError::NotAnObject => None,
            ArgumentError::Unknown(n) | ArgumentError::Missing(n) | ArgumentError::Output(n) => {
                Some(n)
            }
            ArgumentError::Type { name, .. } => Some(name),
        }
    }
}

/// Why a call did not produce an answer.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// No operation has that name.
    #[error("no operation named `{0}`")]
    UnknownOperation(String),
    /// Bad arguments.
    #[error("{operation}: {error}")]
    Arguments {
        /// The operation.
        operation: String,
        /// What is wrong.
        error: ArgumentError,
    },
    /// The goal raised a Prolog exception.
    #[error("{operation} raised a Prolog exception: {term}")]
    Exception {
        /// The operation.
        operation: String,
        /// The exception term, as Prolog text.
        term: String,
    },
    /// A `det` operation failed.
    #[error("{operation} is declared det but failed")]
    DetFailed {
        /// The operation.
        operation: String,
    },
    /// The inference limit was reached.
    #[error("{operation} exceeded the limit of {limit} inferences")]
    InferenceLimit {
        /// The operation.
        operation: String,
        /// The limit in force.
        limit: u64,
    },
    /// More solutions than the limit.
    #[error("{operation} has more than {limit} solutions (the solution limit)")]
    TooManySolutions {
        /// The operation.
        operation: String,
        /// The limit in force.
        limit: usize,
    },
    /// The wall-clock limit was reached.
    #[error("{operation} ran longer than the time limit of {limit:?} and was stopped")]
    TimeLimit {
        /// The operation.
        operation: String,
        /// The limit in force.
        limit: Duration,
    },
    /// An output value does not fit its declared type.
    #[error("{operation}: output `{argument}` {error}")]
    Output {
        /// The operation.
        operation: String,
        /// The output argument.
        argument: String,
        /// What was declared and found.
        error: OutputTypeError,
    },
    /// The engine process stopped during the call (memory, stack, panic).
    #[error("{operation}: {error}")]
    Engine {
        /// The operation.
        operation: String,
        /// What happened.
        error: EngineError,
    },
}

/// A call's answer and what the knowledge base printed while computing it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The JSON answer, shaped by the declared determinism (SPEC §4).
    pub value: Value,
    /// Text the goal wrote with `write/1`, `format/2`, … (also logged).
    pub output: String,
}

/// A knowledge base loaded into the engine, with its operations.
#[derive(Debug)]
pub struct KnowledgeBase {
    display: String,
    path: PathBuf,
    report: Report,
    index: HashMap<String, usize>,
    mutating: HashSet<String>,
    cacheable: HashSet<String>,
    cache: AnswerCache,
    engine: Engine,
    _temp: Option<TempFile>,
}

#[derive(Debug)]
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl KnowledgeBase {
    /// Loads `path` with the default configuration.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        Self::load_with(path, EngineConfig::default())
    }

    /// Loads `path` with `config`.
    pub fn load_with(path: impl AsRef<Path>, config: EngineConfig) -> Result<Self, LoadError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let abs = std::path::absolute(path).map_err(|source| LoadError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::start(path.display().to_string(), &text, abs, config, None)
    }

    /// Loads a knowledge base from source text; `name` is used in report locations.
    pub fn from_source(name: &str, text: &str) -> Result<Self, LoadError> {
        Self::from_source_with(name, text, EngineConfig::default())
    }

    /// Loads a knowledge base from source text with `config`.
    pub fn from_source_with(
        name: &str,
        text: &str,
        config: EngineConfig,
    ) -> Result<Self, LoadError> {
        // The engine consults files only (string consults abort the process on error).
        static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let file = std::env::temp_dir().join(format!(
            "charon-src-{}-{}.pl",
            std::process::id(),
            SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::write(&file, text).map_err(|source| LoadError::Read {
            path: file.clone(),
            source,
        })?;
        let temp = TempFile(file.clone());
        Self::start(name.to_string(), text, file, config, Some(temp))
    }

    fn start(
        display: String,
        text: &str,
        abs: PathBuf,
        config: EngineConfig,
        temp: Option<TempFile>,
    ) -> Result<Self, LoadError> {
        let report = pldoc::analyse(&display, text);
        let display_for_errors = display.clone();
        let engine = Engine::start(&abs, config).map_err(|e| match e {
            EngineError::Load(m) => {
                LoadError::Consult(m.replace(&abs.display().to_string(), &display_for_errors))
            }
            other => LoadError::Engine(other),
        })?;
        let rules = engine.rules().map_err(LoadError::Engine)?;
        let effects = analysis::effects(&rules);
        let with = |set: &HashSet<(String, usize)>, wanted: bool| -> HashSet<String> {
            report
                .operations
                .iter()
                .filter(|op| set.contains(&(op.name.clone(), op.arity())) == wanted)
                .map(|op| op.name.clone())
                .collect()
        };
        let mutating = with(&effects.mutating, true);
        let cacheable = with(&effects.impure, false)
            .difference(&mutating)
            .cloned()
            .collect();
        let cache = AnswerCache::new(engine.config().answer_cache);
        let index = report
            .operations
            .iter()
            .enumerate()
            .map(|(i, op)| (op.name.clone(), i))
            .collect();
        Ok(KnowledgeBase {
            display,
            path: abs,
            report,
            index,
            mutating,
            cacheable,
            cache,
            engine,
            _temp: temp,
        })
    }

    /// The exposed operations, in file order.
    pub fn operations(&self) -> &[Operation] {
        &self.report.operations
    }

    /// The operation named `name`.
    pub fn operation(&self, name: &str) -> Option<&Operation> {
        self.index.get(name).map(|&i| &self.report.operations[i])
    }

    /// The exposure report (SPEC §2).
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The name of the knowledge base: its file name (or the name given to
    /// [`from_source`](Self::from_source)).
    pub fn title(&self) -> String {
        Path::new(&self.display).file_name().map_or_else(
            || self.display.clone(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// Checks that the engine answers a trivial goal.
    pub fn ping(&self) -> Result<(), CallError> {
        let outcome = self
            .engine
            .run("'$charon_once'(sol,true,1000,R).".into(), false)
            .map_err(|error| CallError::Engine {
                operation: "health".into(),
                error,
            })?;
        match outcome.result {
            Some(PlTerm::Compound(ok, _)) if ok == "ok" => Ok(()),
            other => Err(CallError::Exception {
                operation: "health".into(),
                term: format!("{other:?}"),
            }),
        }
    }

    /// The file the engine consulted.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether calls of `name` may change the database (and so run alone).
    pub fn is_mutating(&self, name: &str) -> bool {
        self.mutating.contains(name)
    }

    /// Whether answers of `name` may be cached: it neither changes the database nor
    /// has other effects (output, time, randomness), so the same arguments give the
    /// same answer until the database changes.
    pub fn is_cacheable(&self, name: &str) -> bool {
        self.cacheable.contains(name)
    }

    /// Engine counters (workers started, calls).
    pub fn stats(&self) -> crate::engine::EngineStats {
        self.engine.stats()
    }

    /// Process ids of the engine workers that are idle at this moment (for
    /// monitoring; busy workers are not listed).
    pub fn idle_worker_pids(&self) -> Vec<u32> {
        self.engine.idle_worker_pids()
    }

    /// The engine configuration in force.
    pub fn config(&self) -> &EngineConfig {
        self.engine.config()
    }

    /// Calls operation `name` with JSON arguments; returns the JSON answer.
    pub fn call(&self, name: &str, args: &Value) -> Result<Value, CallError> {
        self.call_full(name, args).map(|a| a.value)
    }

    /// Like [`call`](Self::call), also returning what the goal printed.
    pub fn call_full(&self, name: &str, args: &Value) -> Result<Answer, CallError> {
        let prepared = self.prepare(name, args)?;
        if let Some(value) = self.cached(&prepared) {
            return Ok(Answer {
                value,
                output: String::new(),
            });
        }
        self.run(prepared)
    }

    /// Validates the arguments of a call and builds its goal, without running it.
    /// Cheap and non-blocking: an async caller can do this (and [`cached`](Self::cached))
    /// on its own task, and only hand [`run`](Self::run) to a blocking thread.
    pub fn prepare(&self, name: &str, args: &Value) -> Result<PreparedCall, CallError> {
        let (index, op) = self
            .index
            .get(name)
            .map(|&i| (i, &self.report.operations[i]))
            .ok_or_else(|| CallError::UnknownOperation(name.to_string()))?;
        let limits = &self.engine.config().limits;
        let query =
            build_query(op, args, limits.inferences, limits.solutions).map_err(|error| {
                CallError::Arguments {
                    operation: op.name.clone(),
                    error,
                }
            })?;
        let cacheable = self.cache.enabled() && self.is_cacheable(name);
        Ok(PreparedCall {
            index,
            query,
            cacheable,
            generation: self.engine.generation(),
        })
    }

    /// The cached answer of a prepared call, if the cache holds one for the current
    /// state of the database.
    pub fn cached(&self, call: &PreparedCall) -> Option<Value> {
        if !call.cacheable {
            return None;
        }
        self.cache.get(&call.query, self.engine.generation())
    }

    /// Runs a prepared call on the engine (blocking until it answers or a limit hits).
    pub fn run(&self, call: PreparedCall) -> Result<Answer, CallError> {
        let op = &self.report.operations[call.index];
        let limits = &self.engine.config().limits;
        let key = call.cacheable.then(|| call.query.clone());
        let outcome = self
            .engine
            .run(call.query, self.is_mutating(&op.name))
            .map_err(|error| match error {
                EngineError::TimeLimit(limit) => CallError::TimeLimit {
                    operation: op.name.clone(),
                    limit,
                },
                error => CallError::Engine {
                    operation: op.name.clone(),
                    error,
                },
            })?;
        if !outcome.output.is_empty() {
            tracing::info!(target: "charon::kb_output", operation = %op.name, "{}", outcome.output.trim_end());
        }
        let value = shape(op, outcome.result, limits.inferences, limits.solutions)?;
        if let Some(key) = key {
            // Tagged with the generation seen before the run (see `cache`).
            self.cache.insert(key, call.generation, value.clone());
        }
        Ok(Answer {
            value,
            output: outcome.output,
        })
    }
}

impl KnowledgeBase {
    /// Runs a prepared call from async code. On a multi-threaded tokio runtime the
    /// call blocks in place (the runtime moves its other tasks to another thread),
    /// which saves a thread hand-off per call; elsewhere it runs on the blocking pool.
    pub async fn run_async(
        self: &std::sync::Arc<Self>,
        call: PreparedCall,
    ) -> Result<Answer, CallError> {
        use tokio::runtime::{Handle, RuntimeFlavor};
        let multi_thread = Handle::try_current()
            .map(|h| h.runtime_flavor() == RuntimeFlavor::MultiThread)
            .unwrap_or(false);
        if multi_thread {
            return tokio::task::block_in_place(|| self.run(call));
        }
        let operation = self.report.operations[call.index].name.clone();
        let kb = self.clone();
        tokio::task::spawn_blocking(move || kb.run(call))
            .await
            .unwrap_or_else(|e| {
                Err(CallError::Engine {
                    operation,
                    error: EngineError::Crashed(format!("the call's thread failed: {e}")),
                })
            })
    }
}

/// A call whose arguments are validated and whose goal is built; see
/// [`KnowledgeBase::prepare`].
#[derive(Debug, Clone)]
pub struct PreparedCall {
    index: usize,
    query: String,
    cacheable: bool,
    generation: u64,
}

/// Builds `'$charon_once'(sol(O0,…), name(…), Limit, R).` or the `'$charon_all'` form.
pub(crate) fn build_query(
    op: &Operation,
    args: &Value,
    inferences: u64,
    solutions: usize,
) -> Result<String, ArgumentError> {
    let given = args.as_object().ok_or(ArgumentError::NotAnObject)?;
    for key in given.keys() {
        match op.args.iter().find(|a| a.name == *key) {
            None => return Err(ArgumentError::Unknown(key.clone())),
            Some(a) if a.mode == Mode::Out => return Err(ArgumentError::Output(key.clone())),
            Some(_) => {}
        }
    }
    let mut goal = term::GoalText::default();
    term::write_atom(&mut goal.text, &op.name);
    let mut template = String::from("sol");
    let mut outputs = 0;
    for (i, arg) in op.args.iter().enumerate() {
        goal.text.push(if i == 0 { '(' } else { ',' });
        if arg.mode == Mode::In {
            let value = given
                .get(&arg.name)
                .ok_or_else(|| ArgumentError::Missing(arg.name.clone()))?;
            term::write_input(&mut goal, &arg.ty, value).map_err(|error| ArgumentError::Type {
                name: arg.name.clone(),
                error,
            })?;
        } else {
            let var = format!("O{i}");
            template.push(if outputs == 0 { '(' } else { ',' });
            template.push_str(&var);
            goal.text.push_str(&var);
            outputs += 1;
        }
    }
    if !op.args.is_empty() {
        goal.text.push(')');
    }
    let goal = if goal.has_floats {
        format!("'$charon_floats'({})", goal.text)
    } else {
        goal.text
    };
    if outputs > 0 {
        template.push(')');
    }
    Ok(if op.determinism.is_many() {
        format!("'$charon_all'({template},{goal},{inferences},{solutions},R).")
    } else {
        format!("'$charon_once'({template},{goal},{inferences},R).")
    })
}

/// Shapes the wrapper's result by the declared determinism (SPEC §4).
fn shape(
    op: &Operation,
    result: Option<PlTerm>,
    inferences: u64,
    solutions: usize,
) -> Result<Value, CallError> {
    let operation = || op.name.clone();
    let result = result.unwrap_or(PlTerm::Atom("false".into()));
    match result {
        PlTerm::Compound(f, mut args) if f == "ok" && args.len() == 1 => {
            let payload = args.remove(0);
            if op.determinism.is_many() {
                let items = match payload {
                    PlTerm::List(items) => items,
                    // A list of `sol` atoms could only come back as text if it were
                    // one-character atoms; `sol` is not, so anything else is a bug.
                    other => {
                        return Err(CallError::Exception {
                            operation: operation(),
                            term: other.to_string(),
                        });
                    }
                };
                items
                    .iter()
                    .map(|s| solution(op, s))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Value::Array)
            } else {
                solution(op, &payload)
            }
        }
        PlTerm::Atom(a) if a == "false" => match op.determinism {
            pldoc::Determinism::Det => Err(CallError::DetFailed {
                operation: operation(),
            }),
            _ if op.outputs().next().is_none() => Ok(Value::Bool(false)),
            _ => Ok(Value::Null),
        },
        PlTerm::Atom(a) if a == "limit" => Err(CallError::InferenceLimit {
            operation: operation(),
            limit: inferences,
        }),
        PlTerm::Atom(a) if a == "too_many" => Err(CallError::TooManySolutions {
            operation: operation(),
            limit: solutions,
        }),
        PlTerm::Compound(f, args) if f == "exception" && args.len() == 1 => {
            Err(CallError::Exception {
                operation: operation(),
                term: args[0].to_string(),
            })
        }
        other => Err(CallError::Exception {
            operation: operation(),
            term: other.to_string(),
        }),
    }
}

/// One solution `sol(O…)`: none → `true`, one → the value, several → an object.
fn solution(op: &Operation, sol: &PlTerm) -> Result<Value, CallError> {
    let values: &[PlTerm] = match sol {
        PlTerm::Compound(_, values) => values,
        _ => &[],
    };
    let outputs: Vec<_> = op.outputs().collect();
    let convert = |i: usize| {
        let arg = outputs[i];
        let term = values.get(i).ok_or_else(|| CallError::Output {
            operation: op.name.clone(),
            argument: arg.name.clone(),
            error: OutputTypeError {
                declared: arg.ty.to_string(),
                found: "nothing".into(),
            },
        })?;
        term::to_json(&arg.ty, term).map_err(|error| CallError::Output {
            operation: op.name.clone(),
            argument: arg.name.clone(),
            error,
        })
    };
    match outputs.len() {
        0 => Ok(Value::Bool(true)),
        1 => convert(0),
        _ => {
            let mut map = Map::new();
            for (i, arg) in outputs.iter().enumerate() {
                map.insert(arg.name.clone(), convert(i)?);
            }
            Ok(Value::Object(map))
        }
    }
}
