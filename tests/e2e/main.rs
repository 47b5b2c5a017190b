//! End-to-end tests of Charon through its public surfaces: the library API
//! (`KnowledgeBase`) and the `charon` binary run as a process.
//!
//! One test binary (fewer link steps on 2 cores); modules by subject:

mod arithmetic; // numbers compiled into arithmetic instructions ≡ the same expressions at run time
mod badinput; // bad input answered in format: problem details, JSON-RPC errors
mod cache; // the answer cache: what is cached, invalidation
mod call; // charon call: typed flags, help, exit statuses
mod cli; // the binary: check, exit codes, --help
mod concurrency; // many threads, visibility and atomicity of changes
mod diagnose; // the reasoning toolkit, part 2: diagnose, what_if, explain
mod differential; // answers equal SWI-Prolog's: the dynamic database, arithmetic, engine reproductions
mod equivalence; // knowledge_base! and the binary: identical operations, OpenAPI, tools
mod euclid_ir; // Euclid-IR as the reference reads it: strings, spellings, ids, nested terms
mod examples; // the example knowledge bases and the RBAC generator
mod files; // knowledge bases of several files: include, consult, ensure_loaded, use_module
mod guard; // Host/Origin checks, CORS, the bearer token (HTTP and MCP over HTTP)
mod hostile; // values that try to become code come back as data
mod http; // HTTP and OpenAPI through Router::oneshot, answers checked against the document
mod key_order; // answer objects keyed in mode-line order on every surface
mod limits; // exceptions, inference/time/solution limits, crashes, recovery
mod mcp; // MCP: tools from the model, Host/Origin checks, session limits (sessions: tests/mcp/)
mod metrics; // GET /metrics: OpenMetrics text, counters moving with calls, the access rules
mod mount; // the generated router and MCP nested in an app of its own (host name, fallback, state)
mod paging; // answers a page at a time: Rust API, HTTP, MCP; stale cursors
mod persist; // --persist: atomic write-back, byte preservation, crashes, external edits
mod persist_props; // --persist by property: random layouts and writes, clean stop or SIGKILL
mod pressure; // limits while collecting and waiting, long and deep answers, liveness, recycling
mod reason; // the reasoning toolkit (Euclid-IR) through the Rust API
mod recycling; // memory stays flat; dynamic facts survive worker replacement
mod reload; // hot reload: --watch and SIGHUP swap the KB; a broken edit keeps the old serving
mod replica_faults; // replicas when PostgreSQL stalls: a lost COMMIT answer, a stopped server, divergence at once
mod replicas; // replicas sharing one writable KB through a real PostgreSQL: convergence, faults, refusals
mod report; // PlDoc forms and every rejection reason, with file:line
mod roundtrip; // hostile values through every surface, several workers and cache vs one
mod scale; // knowledge bases at real sizes: many distinct long atoms, at load and at run time
mod shapes; // the determinism table
mod state; // the consistency invariant: differential tests on hostile KBs
mod stop; // a clean stop folds the writes, however it is signalled; charon://source
mod stream; // streamed answers: Rust API and NDJSON over HTTP, limits, flat memory
mod syntax; // the compile-time syntax check against the engine's reader
mod template; // workers forked from one loaded template: sharing, loss of the template
mod terms; // JSON <-> Prolog: every type, both directions, property tests
mod typed; // knowledge_base!: typed methods, compiled model, generated router and tools
mod util;
