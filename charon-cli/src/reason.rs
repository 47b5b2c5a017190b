//! `charon reason` and `charon check-kb`: the reasoning toolkit at a terminal.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use charon::reason::{
    Answers, CheckResult, Failure, ProofKind, ProofNode, ReasonRequest, ReasonResult, Reasoner,
    Severity,
};
use charon::{EngineConfig, Limits};
use clap::Args;

#[derive(Debug, Args)]
pub(crate) struct ReasonArgs {
    /// The knowledge: a Euclid-IR file (text or YAML form), or - for stdin.
    file: PathBuf,
    /// The goal to prove, e.g. 'ancestor(tom, $who)' (quote it: $ is the shell's).
    /// Without it, every `? query` line of the file is answered in turn.
    query: Option<String>,
    /// Print the JSON result (the same as POST /reason and the MCP tool) instead of
    /// drawing the proofs.
    ///
    /// Example: --json
    #[arg(long)]
    json: bool,
    /// Most solutions shown; the count says how many exist. Example: --max-solutions 10
    #[arg(long, value_name = "N")]
    max_solutions: Option<usize>,
    /// Most rule applications along one branch of the search (at most 100).
    /// Example: --max-depth 80
    #[arg(long, value_name = "N")]
    max_depth: Option<u32>,
    /// Most proofs shown per solution. Example: --max-proofs 1
    #[arg(long, value_name = "N")]
    max_proofs: Option<usize>,
    /// Wall-clock time limit, in milliseconds. Example: --timeout-ms 2000
    #[arg(long, value_name = "MS", default_value_t = Limits::default().time.as_millis() as u64)]
    timeout_ms: u64,
    /// Inference limit (0: none). Example: --max-inferences 1000000
    #[arg(long, value_name = "N", default_value_t = Limits::default().inferences)]
    max_inferences: u64,
    /// Diagnostics filter for stderr. Example: --log debug
    #[arg(long, value_name = "FILTER", default_value = "warn")]
    log: String,
}

#[derive(Debug, Args)]
pub(crate) struct CheckKbArgs {
    /// The knowledge: a Euclid-IR file (text or YAML form), or - for stdin.
    file: PathBuf,
    /// Print the JSON result (the same as POST /check-kb) instead of a report.
    ///
    /// Example: --json
    #[arg(long)]
    json: bool,
}

fn read(file: &PathBuf) -> anyhow::Result<String> {
    if file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .context("cannot read the knowledge from stdin")?;
        return Ok(text);
    }
    std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))
}

/// `charon reason`.
pub(crate) fn reason(args: ReasonArgs) -> anyhow::Result<ExitCode> {
    crate::cli::init_logging(&args.log);
    let knowledge = read(&args.file)?;
    let queries: Vec<Option<String>> = match &args.query {
        Some(q) => vec![Some(q.clone())],
        None => {
            // The file's own queries, each asked in turn.
            let program = charon::reason::parse_knowledge(&knowledge);
            match program {
                Ok(p) if p.queries.len() > 1 => {
                    p.queries.iter().map(|q| Some(q.to_string())).collect()
                }
                _ => vec![None],
            }
        }
    };
    let mut config = EngineConfig {
        workers: 1,
        ..EngineConfig::default()
    };
    config.limits.time = Duration::from_millis(args.timeout_ms.max(1));
    config.limits.inferences = args.max_inferences;
    let reasoner = Reasoner::new(config)?;
    let mut results = Vec::new();
    for query in queries {
        let request = ReasonRequest {
            knowledge: knowledge.clone(),
            query,
            max_solutions: args.max_solutions,
            max_depth: args.max_depth,
            max_proofs: args.max_proofs,
        };
        results.push(reasoner.reason(&request));
    }
    let ok = results.iter().all(ReasonResult::ok);
    let mut out = std::io::stdout().lock();
    if args.json {
        let text = match &results[..] {
            [one] => serde_json::to_string_pretty(one)?,
            many => serde_json::to_string_pretty(many)?,
        };
        writeln!(out, "{text}")?;
    } else {
        for (i, result) in results.iter().enumerate() {
            if i > 0 {
                writeln!(out)?;
            }
            match result {
                ReasonResult::Answered(a) => draw(&mut out, a)?,
                ReasonResult::Failed(f) => eprintln!("charon: {}", failure_line(&f.error)),
            }
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn failure_line(f: &Failure) -> String {
    f.message.clone()
}

/// Draws the solutions and their proofs as indented trees.
fn draw(out: &mut impl std::io::Write, a: &Answers) -> std::io::Result<()> {
    let shown = a.solutions.len();
    let count = match a.solution_count {
        0 => "no solutions".to_string(),
        1 => "1 solution".to_string(),
        n if a.truncated => format!("{n} solutions, the first {shown} shown"),
        n => format!("{n} solutions"),
    };
    writeln!(out, "? {}  ({count})", a.query)?;
    for w in &a.warnings {
        writeln!(out, "  warning: {w}")?;
    }
    for s in &a.solutions {
        writeln!(out)?;
        let bindings: Vec<String> = s
            .bindings
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(text) => format!("${k} = {text}"),
                serde_json::Value::Null => format!("${k} unbound"),
                other => format!("${k} = {other}"),
            })
            .collect();
        let head = if bindings.is_empty() {
            "true".to_string()
        } else {
            bindings.join(", ")
        };
        writeln!(out, "{head}")?;
        for (i, proof) in s.proofs.iter().enumerate() {
            if s.proof_count > 1 {
                writeln!(out, "  proof {} of {}:", i + 1, s.proof_count)?;
            }
            node(out, proof, "  ", true)?;
        }
    }
    Ok(())
}

fn node(
    out: &mut impl std::io::Write,
    n: &ProofNode,
    prefix: &str,
    last: bool,
) -> std::io::Result<()> {
    let what = match (n.kind, n.line) {
        (ProofKind::Fact, Some(l)) => format!("fact, line {l}"),
        (ProofKind::Rule, Some(l)) => format!("rule, line {l}"),
        (ProofKind::Negation, _) => "no proof exists".into(),
        (ProofKind::Comparison, _) => "holds".into(),
        (ProofKind::Query, _) => "query".into(),
        (kind, None) => format!("{kind:?}").to_lowercase(),
    };
    let branch = if last { "└─ " } else { "├─ " };
    writeln!(out, "{prefix}{branch}{}   [{what}]", n.goal)?;
    let inner = format!("{prefix}{}", if last { "   " } else { "│  " });
    for (i, c) in n.children.iter().enumerate() {
        node(out, c, &inner, i + 1 == n.children.len())?;
    }
    Ok(())
}

/// `charon check-kb`.
pub(crate) fn check_kb(args: CheckKbArgs) -> anyhow::Result<ExitCode> {
    let knowledge = read(&args.file)?;
    let result: CheckResult = charon::reason::check_kb(&knowledge, &Default::default());
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&result)?)?;
    } else if let Some(e) = &result.error {
        eprintln!("charon: {}", e.message);
    } else {
        writeln!(
            out,
            "{}: {} facts, {} rules, {} queries, {} predicates",
            args.file.display(),
            result.facts,
            result.rules,
            result.queries,
            result.predicates.len()
        )?;
        for i in &result.issues {
            let level = match i.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            writeln!(
                out,
                "{}:{}:{}: {level}: {} [{}]",
                args.file.display(),
                i.line,
                i.column,
                i.message,
                i.kind
            )?;
        }
        if result.issues.is_empty() {
            writeln!(out, "no issues")?;
        }
    }
    Ok(if result.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
