#!/usr/bin/env bash
# The project's one test command: what a developer runs and what .ci/run calls.
# Lints, builds (the end-to-end tests run the `charon` binary), tests (with a
# throwaway PostgreSQL for the replica tests, scripts/postgres.sh, and SWI-Prolog
# for the differential tests, scripts/swipl.sh), docs, packaging,
# an application crate outside the workspace (scripts/outside-check.sh), then the
# checks with external tools: OpenAPI validators and schemathesis, MCP clients, the
# /docs page in headless Chromium, and the reasoning tools beside the reference
# implementation, Euclid-MCP (each installs what it needs on first use).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v cargo >/dev/null || { echo "test.sh: cargo not found; install Rust with rustup" >&2; exit 1; }
command -v python3 >/dev/null || { echo "test.sh: python3 not found (the RBAC generator test needs it)" >&2; exit 1; }

cargo fmt --all --check
cargo build --release --workspace --all-targets
# The engine (charon-scryer-prolog, vendor/scryer-prolog) is upstream's code with
# Charon's changes: it is built, tested (upstream's suite and Charon's) and
# packaged with the workspace, but linted and documented as upstream keeps it.
# Warnings are errors through the workspace's [lints] (root Cargo.toml), which the
# engine's manifest does not take: `-- -D warnings` here would deny upstream's too.
cargo clippy --release --workspace --exclude charon-scryer-prolog --all-targets
# No file imports one that imports it back (the layers of charon/src/lib.rs).
python3 scripts/import-circles.py
# No function over 120 lines; at most three files over 900, each saying why.
python3 scripts/house-check.py
# The docs' links, anchors and `charon <subcommand> --flag`s are true (needs the built binary).
python3 scripts/docs-check-links.py
# The replica tests need a real PostgreSQL: a throwaway cluster, stopped at the end.
eval "$(scripts/postgres.sh start)"
trap 'scripts/postgres.sh stop "$CHARON_TEST_POSTGRES_DIR"' EXIT
# The differential tests compare the engine's answers with SWI-Prolog's (installed
# from Debian's packages when missing).
CHARON_SWIPL="$(scripts/swipl.sh)"
export CHARON_SWIPL
# The engine checks that every retract/1, retractall/1 and clause/2 that finds its
# clauses through the predicate's index finds every clause a scan would
# (CHARON_ENGINE_CHECK_INDEX, vendor/scryer-prolog/CHARON.md item 21): the
# differential tests' random sequences then test the index's answers, not only
# the results. Without SHELL, as a service manager or a CI runner starts
# processes: the engine's shell/1,2 must find /bin/sh on its own (upstream's
# file-system cases use it).
env -u SHELL CHARON_ENGINE_CHECK_INDEX=1 cargo test --release --workspace
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps --workspace --exclude charon-scryer-prolog
# Every crate packages with complete metadata (building each from its tarball would
# compile scryer-prolog once more; scripts/outside-check.sh builds charon as a
# dependency from outside instead).
cargo package --workspace --no-verify --allow-dirty --quiet
# The packaged charon builds the engine its tests ran: the workspace's engine crate,
# by name and exact version, not the registry's scryer-prolog.
engine_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' vendor/scryer-prolog/Cargo.toml | head -1)
packaged="${CARGO_TARGET_DIR:-target}/package"
test -f "$packaged/charon-scryer-prolog-$engine_version.crate" \
  || { echo "test.sh: the engine crate charon-scryer-prolog $engine_version was not packaged" >&2; exit 1; }
tar -xzOf "$packaged/charon-0.1.0.crate" charon-0.1.0/Cargo.toml \
  | python3 -c 'import sys, tomllib; d = tomllib.load(sys.stdin.buffer)["dependencies"]["scryer-prolog"]; sys.exit(0 if (d.get("package"), d.get("version")) == ("charon-scryer-prolog", "='"$engine_version"'") else "test.sh: the packaged charon depends on %r" % d)'
scripts/outside-check.sh
scripts/api-checks.sh
scripts/mcp-checks.sh
scripts/docs-check.sh
# Euclid-IR beside the reference implementation (Euclid-MCP from PyPI): the repository's
# examples, every call the reference's own test suite makes, and its README's examples.
scripts/euclid-corpora.sh
