#!/usr/bin/env bash
# The project's one test command: what a developer runs and what .ci/run calls.
# Lints, builds (the end-to-end tests run the `charon` binary), tests, docs, then the
# checks with external tools: OpenAPI validators and schemathesis, MCP clients, and
# the /docs page in headless Chromium (each installs what it needs on first use).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v cargo >/dev/null || { echo "test.sh: cargo not found; install Rust with rustup" >&2; exit 1; }
command -v python3 >/dev/null || { echo "test.sh: python3 not found (the RBAC generator test needs it)" >&2; exit 1; }

cargo fmt --all --check
cargo build --release --workspace --all-targets
cargo clippy --release --workspace --all-targets -- -D warnings
cargo test --release --workspace
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps --workspace
scripts/api-checks.sh
scripts/mcp-checks.sh
scripts/docs-check.sh
