#!/usr/bin/env bash
# Standard tools against Charon's HTTP surface: openapi-spec-validator on the OpenAPI
# document of every example, and a bounded schemathesis run (every check) against
# `charon http` on examples/meds.pl and examples/library.pl. Any finding fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/tools.sh
python_tools

BIN="${CARGO_TARGET_DIR:-target}/release/charon"
[ -x "$BIN" ] || { echo "api-checks: $BIN missing; run cargo build --release -p charon-cli" >&2; exit 1; }
work=$(mktemp -d)
trap 'stop_server; rm -rf "$work"' EXIT

for kb in examples/*.pl; do
  "$BIN" openapi "$kb" "$work/openapi.json" --log warn
  "$VENV/bin/openapi-spec-validator" "$work/openapi.json"
done

for kb in meds library; do
  start_server "$work/$kb.log" "$BIN" http "examples/$kb.pl" --port 0 --log info
  echo "api-checks: schemathesis against examples/$kb.pl on $ADDR"
  "$VENV/bin/schemathesis" run "http://$ADDR/openapi.json" \
    --checks all --max-examples 100 --seed 1 --request-timeout 20 --no-color
  stop_server
done
echo "api-checks: passed"
