//! The commands that run once and exit: `charon openapi`, `charon call`,
//! `charon export` and `charon check`.

use std::process::ExitCode;

use anyhow::Context as _;
use charon::EngineConfig;

use super::{CallArgs, CheckArgs, ExportArgs, OpenapiArgs, call_options, load};
use crate::logging::{LogFormat, init_logging};

pub(super) fn openapi(args: OpenapiArgs) -> anyhow::Result<ExitCode> {
    init_logging(&args.common.log, args.common.log_format);
    let config = EngineConfig {
        workers: 1,
        ..EngineConfig::default()
    };
    let kb = load(&args.kb, config, None)?;
    let doc = charon::http::openapi::document_for(&kb, &kb.title(), kb.operations());
    let text = serde_json::to_string_pretty(&doc)? + "\n";
    match args.file {
        Some(file) => std::fs::write(&file, text)
            .with_context(|| format!("cannot write {}", file.display()))?,
        None => {
            use std::io::Write as _;
            std::io::stdout().lock().write_all(text.as_bytes())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn call(args: CallArgs) -> ExitCode {
    init_logging(&args.log, LogFormat::Text);
    // One call: one worker, and no answer cache to fill.
    let config = match args.limits.config() {
        Ok(config) => EngineConfig {
            workers: 1,
            answer_cache: 0,
            ..config
        },
        Err(e) => {
            eprintln!("charon: {e}");
            return ExitCode::from(2);
        }
    };
    // OP and its flags are one trailing list, so that nothing after OP (not even
    // `--help` or a limit flag) is taken for an option of `charon call` itself.
    let (op, rest) = match args.operation.split_first() {
        Some((op, rest)) => (Some(op.as_str()), rest),
        None => (None, &[][..]),
    };
    let mode = match (args.explain, args.page_size) {
        (true, _) => crate::call::Mode::Explain,
        (false, Some(size)) => crate::call::Mode::Page(size, args.cursor),
        (false, None) => crate::call::Mode::Answer,
    };
    crate::call::run(&args.kb, op, rest, config, mode, &call_options())
}

pub(super) fn export(args: ExportArgs) -> anyhow::Result<ExitCode> {
    init_logging(&args.common.log, args.common.log_format);
    let config = EngineConfig {
        workers: 1,
        answer_cache: 0,
        replica: Some(
            charon::ReplicaConfig::new(args.replicate_url)
                .with_table(args.replicate_table)
                .existing(),
        ),
        ..EngineConfig::default()
    };
    let kb = charon::KnowledgeBase::load_with(&args.kb, config)?;
    let carried = kb.export(&args.output)?;
    tracing::info!(target: "charon::cli", file = %args.output.display(), records = kb.generation(), "exported");
    if let Some(journal) = carried {
        tracing::warn!(target: "charon::cli", journal = %journal.display(), "state outside the file's module (other modules, the blackboard) is in this journal beside the file: load the file with --persist to apply it");
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    init_logging(&args.common.log, args.common.log_format);
    let mut config = args.limits.config()?;
    config.workers = 1;
    let kb = charon::KnowledgeBase::load_with(&args.kb, config)?;
    if args.json {
        let mut report = report_json(kb.report())?;
        report["effects"] = effects_json(&kb);
        report["single_worker"] = kb.single_worker_reason().into();
        report["warnings"] = kb.warnings().into();
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!("{}", kb.report());
        print_effects(&kb);
    }
    Ok(if kb.report().is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// What each operation may do to the state, one line each, for `charon check`.
fn print_effects(kb: &charon::KnowledgeBase) {
    use charon::Effects;
    if !kb.operations().is_empty() {
        println!("effects on the state:");
    }
    for op in kb.operations() {
        let line = match kb.effects(&op.name) {
            Some(Effects::Read) => match kb.cache_scope(&op.name) {
                Some(charon::CacheScope::Reads(preds)) => format!(
                    "read (answers may be cached until a write changes {})",
                    list_names(&preds)
                ),
                Some(charon::CacheScope::Anything { reason }) => {
                    format!("read (answers may be cached until any write: {reason})")
                }
                _ => "read (answers may be cached)".to_string(),
            },
            Some(Effects::VolatileRead { reason }) => {
                format!("read, not cached because {reason}")
            }
            Some(Effects::Write {
                reason,
                replicated_by,
            }) => format!("write because {reason} (replicated by {replicated_by})"),
            Some(Effects::AssumedWrite { reason }) => {
                format!("treated as a write because {reason}")
            }
            Some(other) => format!("{other:?}"),
            None => continue,
        };
        println!("  {}: {line}", op.name);
    }
    for warning in kb.warnings() {
        println!("warning: {warning}");
    }
    if let Some(why) = kb.single_worker_reason() {
        println!("runs on one worker: {why}");
    }
}

/// `a/1, b/2 or c/0`; past eight names, how many more.
fn list_names(names: &[String]) -> String {
    let shown = names.len().min(8);
    let mut text = names[..shown].join(", ");
    if names.len() > shown {
        text.push_str(&format!(" or {} more", names.len() - shown));
    } else if let Some(i) = text.rfind(", ") {
        text.replace_range(i..i + 2, " or ");
    }
    text
}

/// [`print_effects`] as JSON: operation name → class, reason, replication.
fn effects_json(kb: &charon::KnowledgeBase) -> serde_json::Value {
    use charon::Effects;
    let mut map = serde_json::Map::new();
    for op in kb.operations() {
        let value = match kb.effects(&op.name) {
            Some(Effects::Read) => match kb.cache_scope(&op.name) {
                Some(charon::CacheScope::Reads(preds)) => {
                    serde_json::json!({"class": "read", "reads": preds})
                }
                Some(charon::CacheScope::Anything { reason }) => {
                    serde_json::json!({"class": "read", "reads_anything": reason})
                }
                _ => serde_json::json!({"class": "read"}),
            },
            Some(Effects::VolatileRead { reason }) => {
                serde_json::json!({"class": "volatile_read", "reason": reason})
            }
            Some(Effects::Write {
                reason,
                replicated_by,
            }) => {
                serde_json::json!({"class": "write", "reason": reason, "replicated_by": replicated_by})
            }
            Some(Effects::AssumedWrite { reason }) => {
                serde_json::json!({"class": "assumed_write", "reason": reason})
            }
            Some(other) => serde_json::json!({"class": format!("{other:?}")}),
            None => continue,
        };
        map.insert(op.name.to_string(), value);
    }
    map.into()
}

/// The exposure report as JSON: operations as the model serializes them, rejections
/// with their reason as text.
fn report_json(report: &charon::Report) -> anyhow::Result<serde_json::Value> {
    let operations = report
        .operations
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<Vec<_>, _>>()?;
    let rejections: Vec<serde_json::Value> = report
        .rejections
        .iter()
        .map(|r| {
            serde_json::json!({
                "location": r.location,
                "predicate": r.predicate,
                "reason": r.reason.to_string(),
            })
        })
        .collect();
    Ok(serde_json::json!({"operations": operations, "rejections": rejections}))
}
