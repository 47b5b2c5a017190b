//! Command line definitions (clap derive; the doc comments are the help text).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

/// Turn a Prolog knowledge base into typed APIs.
///
/// Every predicate documented with a PlDoc mode line (`%! name(+In:type, -Out:type) is det.`)
/// becomes an operation.
#[derive(Debug, Parser)]
#[command(name = "charon", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Load a knowledge base, print which predicates are exposed and why others are not,
    /// and exit: 0 when it loads and every documented predicate is exposed, 1 otherwise.
    ///
    /// Example: charon check examples/meds.pl
    Check(CheckArgs),
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// The knowledge base (a .pl file).
    kb: PathBuf,
    #[command(flatten)]
    common: Common,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Options every subcommand takes.
#[derive(Debug, Args)]
struct Common {
    /// Diagnostics filter for stderr, in tracing syntax; RUST_LOG overrides it.
    ///
    /// Example: --log debug, --log charon=trace,warn
    #[arg(long, value_name = "FILTER", default_value = "info")]
    log: String,
}

/// Per-call limits.
#[derive(Debug, Args)]
struct LimitArgs {
    /// Wall-clock time limit per call, in milliseconds. Example: --timeout-ms 2000
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    timeout_ms: u64,
    /// Inference limit per call. Example: --max-inferences 1000000
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    max_inferences: u64,
    /// Most solutions collected for a nondet operation. Example: --max-solutions 500
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_solutions: usize,
    /// Engine worker processes (default: one per core). Example: --workers 4
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
}

impl LimitArgs {
    fn config(&self) -> charon::EngineConfig {
        let mut config = charon::EngineConfig::default();
        config.limits.time = Duration::from_millis(self.timeout_ms);
        config.limits.inferences = self.max_inferences;
        config.limits.solutions = self.max_solutions;
        if let Some(n) = self.workers {
            config.workers = n.max(1);
        }
        config
    }
}

fn init_logging(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(filter))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check(args),
    }
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    init_logging(&args.common.log);
    let mut config = args.limits.config();
    config.workers = 1;
    let kb = charon::KnowledgeBase::load_with(&args.kb, config)?;
    println!("{}", kb.report());
    Ok(if kb.report().is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
