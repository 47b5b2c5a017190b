//! Charon: a Prolog knowledge base as typed APIs, on an embedded scryer-prolog engine.
//!
//! Every predicate documented with a PlDoc mode line becomes an [`Operation`]
//! (see [`pldoc`]); [`KnowledgeBase::call`] runs one with JSON arguments and returns
//! its JSON answer, shaped by the declared determinism. The same operations are
//! served over HTTP by [`http::router`] (with the OpenAPI document of
//! [`http::openapi`]) and over MCP by [`mcp::McpServer`].
//!
//! * [`pldoc`]: PlDoc parsing, the operation model, JSON Schemas (no engine);
//! * [`term`]: JSON ↔ Prolog by declared type;
//! * [`engine`]: the worker processes that run scryer-prolog, and their limits;
//! * [`http`], [`mcp`]: the surfaces.
//!
//! ```no_run
//! let kb = charon::KnowledgeBase::load("examples/meds.pl")?;
//! let hits = kb.call("pim_check", &serde_json::json!({"Age": 82, "Drugs": ["diazepam"]}))?;
//! println!("{hits}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analysis;
mod cache;
pub mod engine;
pub mod http;
mod kb;
pub mod mcp;
pub mod term;

pub use charon_pldoc as pldoc;
pub use engine::{EngineConfig, EngineError, EngineStats, Limits};
pub use kb::{Answer, ArgumentError, CallError, KnowledgeBase, LoadError, PreparedCall};
pub use pldoc::{Operation, Report};
