//! `charon reason`, `charon diagnose`, `charon what-if` and `charon check-kb`: the
//! reasoning toolkit at a terminal.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use charon::reason::{
    Answers, CheckResult, DiagnoseMode, DiagnoseRequest, DiagnoseResult, FailedGoal, Failure,
    ProofKind, ProofNode, ReasonRequest, ReasonResult, Reasoner, Severity, WhatIfRequest,
    WhatIfResult,
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
    /// Most rule applications along one branch of the search (at most 500).
    /// Example: --max-depth 250
    #[arg(long, value_name = "N")]
    max_depth: Option<u32>,
    /// Most proofs shown per solution. Example: --max-proofs 1
    #[arg(long, value_name = "N")]
    max_proofs: Option<usize>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Diagnostics filter for stderr. Example: --log debug
    #[arg(long, value_name = "FILTER", default_value = "warn")]
    log: String,
}

/// The engine limits every one-shot command takes.
#[derive(Debug, Args)]
pub(crate) struct EngineArgs {
    /// Wall-clock time limit of each search, in milliseconds. Example: --timeout-ms 2000
    #[arg(long, value_name = "MS", default_value_t = Limits::default().time.as_millis() as u64)]
    timeout_ms: u64,
    /// Inference limit of each search (0: none). Example: --max-inferences 1000000
    #[arg(long, value_name = "N", default_value_t = Limits::default().inferences)]
    max_inferences: u64,
}

impl EngineArgs {
    fn reasoner(&self) -> anyhow::Result<Reasoner> {
        let mut config = EngineConfig {
            workers: 1,
            ..EngineConfig::default()
        };
        config.limits.time = Duration::from_millis(self.timeout_ms.max(1));
        config.limits.inferences = self.max_inferences;
        Ok(Reasoner::new(config)?)
    }
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Mode {
    /// The proofs of a goal that holds.
    Why,
    /// The premises that failed, traced through the search.
    WhyNot,
    /// Facts that, added, would make the goal hold (each verified).
    WhatNeeds,
}

#[derive(Debug, Args)]
pub(crate) struct DiagnoseArgs {
    /// The knowledge: a Euclid-IR file (text or YAML form), or - for stdin.
    file: PathBuf,
    /// The goal, e.g. 'mortal(plato)' (quote it: $ is the shell's). Without it, the
    /// file's single `? query`.
    query: Option<String>,
    /// What to explain. Example: --mode what-needs
    #[arg(long, value_enum, default_value = "why-not")]
    mode: Mode,
    /// Print the JSON result (the same as POST /diagnose and the MCP tool).
    #[arg(long)]
    json: bool,
    /// Most rule applications along one branch of each search. Example: --max-depth 20
    #[arg(long, value_name = "N")]
    max_depth: Option<u32>,
    /// what-needs: most facts in one proposal. Example: --max-facts 2
    #[arg(long, value_name = "N")]
    max_facts: Option<usize>,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Debug, Args)]
pub(crate) struct WhatIfArgs {
    /// The knowledge as it stands: a Euclid-IR file (text or YAML form).
    file: PathBuf,
    /// The changes: a file of `+ fact` / `- fact` lines, or - for stdin.
    changes: PathBuf,
    /// The goal to compare, e.g. 'user_has_permission($u, deploy)'. Without it, the
    /// file's single `? query`.
    query: Option<String>,
    /// Print the JSON result (the same as POST /what-if and the MCP tool).
    #[arg(long)]
    json: bool,
    /// Most changed solutions listed per side. Example: --max-solutions 20
    #[arg(long, value_name = "N")]
    max_solutions: Option<usize>,
    #[command(flatten)]
    engine: EngineArgs,
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
    crate::logging::init_logging(&args.log, crate::logging::LogFormat::Text);
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
    let reasoner = args.engine.reasoner()?;
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
            [one] => charon::json::to_string_pretty(one)?,
            many => charon::json::to_string_pretty(many)?,
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
        (ProofKind::Rule, Some(l)) => match &n.rule_id {
            Some(id) => format!("rule {id}, line {l}"),
            None => format!("rule, line {l}"),
        },
        (ProofKind::Negation, _) => "no proof exists".into(),
        (ProofKind::Comparison, _) => "holds".into(),
        (ProofKind::Query, _) => "query".into(),
        (kind, _) => format!("{kind:?}").to_lowercase(),
    };
    let branch = if last { "└─ " } else { "├─ " };
    writeln!(out, "{prefix}{branch}{}   [{what}]", n.goal)?;
    let inner = format!("{prefix}{}", if last { "   " } else { "│  " });
    for (i, c) in n.children.iter().enumerate() {
        node(out, c, &inner, i + 1 == n.children.len())?;
    }
    Ok(())
}

fn exit(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `charon diagnose`.
pub(crate) fn diagnose(args: DiagnoseArgs) -> anyhow::Result<ExitCode> {
    let knowledge = read(&args.file)?;
    let reasoner = args.engine.reasoner()?;
    let request = DiagnoseRequest {
        knowledge,
        query: args.query.clone(),
        mode: match args.mode {
            Mode::Why => DiagnoseMode::Why,
            Mode::WhyNot => DiagnoseMode::WhyNot,
            Mode::WhatNeeds => DiagnoseMode::WhatNeeds,
        },
        max_depth: args.max_depth,
        max_facts: args.max_facts,
        max_proposals: None,
    };
    let result = reasoner.diagnose(&request);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", charon::json::to_string_pretty(&result)?)?;
        return Ok(exit(result.ok()));
    }
    let d = match result {
        DiagnoseResult::Diagnosed(d) => d,
        DiagnoseResult::Failed(f) => {
            eprintln!("charon: {}", failure_line(&f.error));
            return Ok(ExitCode::FAILURE);
        }
    };
    writeln!(out, "{}", d.conclusion)?;
    for w in &d.warnings {
        writeln!(out, "  warning: {w}")?;
    }
    if let Some(trace) = &d.trace {
        writeln!(out)?;
        failed_node(&mut out, trace, "", true)?;
    } else if let Some(proposals) = &d.proposals {
        for p in proposals {
            let minimal = if p.minimal { "minimal" } else { "not minimal" };
            writeln!(
                out,
                "  add {}   [verified: {} solution(s); {minimal}]",
                p.facts.join(" and "),
                p.solution_count
            )?;
        }
    } else {
        for s in &d.solutions {
            for p in &s.proofs {
                writeln!(out)?;
                node(&mut out, p, "  ", true)?;
            }
        }
    }
    if !d.complete {
        writeln!(out, "  (incomplete: a bound cut the analysis short)")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Draws a why_not trace: each failed goal, the rules tried, where each failed.
fn failed_node(
    out: &mut impl std::io::Write,
    n: &FailedGoal,
    prefix: &str,
    last: bool,
) -> std::io::Result<()> {
    let branch = if last { "└─ " } else { "├─ " };
    writeln!(out, "{prefix}{branch}{}   [{}]", n.goal, n.message)?;
    let inner = format!("{prefix}{}", if last { "   " } else { "│  " });
    if let Some(p) = &n.proof {
        node(
            out,
            p,
            &inner,
            n.closest.is_empty() && n.attempts.is_empty(),
        )?;
    }
    for (i, c) in n.closest.iter().enumerate() {
        let b = if i + 1 == n.closest.len() {
            "└─ "
        } else {
            "├─ "
        };
        writeln!(out, "{inner}{b}closest fact: {c}")?;
    }
    for (i, a) in n.attempts.iter().enumerate() {
        let last_attempt = i + 1 == n.attempts.len();
        let b = if last_attempt { "└─ " } else { "├─ " };
        writeln!(
            out,
            "{inner}{b}rule, line {}: {} — goal {} failed: {} ({} value set(s) reached it)",
            a.line, a.rule, a.failed_at, a.failed_goal, a.reached
        )?;
        let deeper = format!("{inner}{}", if last_attempt { "   " } else { "│  " });
        for (j, c) in a.because.iter().enumerate() {
            failed_node(out, c, &deeper, j + 1 == a.because.len())?;
        }
    }
    Ok(())
}

/// `charon what-if`.
pub(crate) fn what_if(args: WhatIfArgs) -> anyhow::Result<ExitCode> {
    let base_knowledge = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let modifications = read(&args.changes)?;
    let reasoner = args.engine.reasoner()?;
    let request = WhatIfRequest {
        base_knowledge,
        modifications,
        query: args.query.clone(),
        max_solutions: args.max_solutions,
        max_depth: None,
        max_proofs: None,
    };
    let result = reasoner.what_if(&request);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", charon::json::to_string_pretty(&result)?)?;
        return Ok(exit(result.ok()));
    }
    let w = match result {
        WhatIfResult::Compared(w) => w,
        WhatIfResult::Failed(f) => {
            eprintln!("charon: {}", failure_line(&f.error));
            return Ok(ExitCode::FAILURE);
        }
    };
    let show = |b: &serde_json::Map<String, serde_json::Value>| {
        let parts: Vec<String> = b
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(t) => format!("${k} = {t}"),
                other => format!("${k} = {other}"),
            })
            .collect();
        if parts.is_empty() {
            "true".to_string()
        } else {
            parts.join(", ")
        }
    };
    writeln!(
        out,
        "? {}  before: {}, after: {} ({:+})",
        w.query, w.before_count, w.after_count, w.delta
    )?;
    for b in &w.appeared {
        writeln!(out, "  + {}", show(b))?;
    }
    for b in &w.disappeared {
        writeln!(out, "  - {}", show(b))?;
    }
    if w.changes_truncated {
        writeln!(out, "  (more changes than shown: raise --max-solutions)")?;
    }
    for warning in &w.warnings {
        writeln!(out, "  warning: {warning}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `charon check-kb`.
pub(crate) fn check_kb(args: CheckKbArgs) -> anyhow::Result<ExitCode> {
    let knowledge = read(&args.file)?;
    let result: CheckResult = charon::reason::check_kb(&knowledge, &Default::default());
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", charon::json::to_string_pretty(&result)?)?;
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
