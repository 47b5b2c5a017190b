#!/usr/bin/env bash
# Standard tools against Charon's HTTP surface: openapi-spec-validator and Redocly's
# recommended lint on the OpenAPI document of every example and on one served with a
# token, and a bounded schemathesis run (every check) against `charon http` on
# examples/meds.pl (with and without a token, and with the reasoning tools) and
# examples/library.pl. Any finding fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/tools.sh
python_tools

charon_binary api-checks
work=$(mktemp -d)
trap 'stop_server; rm -rf "$work"' EXIT

node_tools
# Redocly's recommended rules: errors fail the check (its one warning, info-license,
# stays: a knowledge base's licence is not Charon's to declare).
redocly_lint() {
  "$NODE22" "$REDOCLY" lint --format stylish "$1"
}

for kb in examples/*.pl; do
  "$BIN" openapi "$kb" "$work/openapi.json" --log warn
  "$VENV/bin/openapi-spec-validator" "$work/openapi.json"
  echo "api-checks: redocly lint of the document of $kb"
  redocly_lint "$work/openapi.json"
done

# The document a server serves when it requires a token declares the bearer scheme.
start_server "$work/token.log" "$BIN" http examples/meds.pl --port 0 --log info --token api-checks-token
curl -sf -H "Authorization: Bearer api-checks-token" "http://$ADDR/openapi.json" -o "$work/token.json"
stop_server
"$VENV/bin/openapi-spec-validator" "$work/token.json"
echo "api-checks: redocly lint of the document served with a token"
redocly_lint "$work/token.json"

start_server "$work/token-st.log" "$BIN" http examples/meds.pl --port 0 --log info --token api-checks-token
echo "api-checks: schemathesis against examples/meds.pl with a token on $ADDR"
"$VENV/bin/schemathesis" run "http://$ADDR/openapi.json" -H "Authorization: Bearer api-checks-token" \
  --checks all --max-examples 50 --seed 1 --request-timeout 20 --no-color
stop_server

# The reasoning tools, alone and beside a knowledge base: the served documents pass
# the same lints, and schemathesis finds nothing against the reasoning routes,
# /explain and /metrics; then the Prometheus client's OpenMetrics parser reads
# /metrics, with the counters moving as calls are made.
start_server "$work/reasoning.log" "$BIN" http examples/meds.pl --reasoning --explain --metrics --port 0 --log info
curl -sf "http://$ADDR/openapi.json" -o "$work/reasoning.json"
"$VENV/bin/openapi-spec-validator" "$work/reasoning.json"
echo "api-checks: redocly lint of the document with the reasoning tools"
redocly_lint "$work/reasoning.json"
echo "api-checks: schemathesis against examples/meds.pl --reasoning --explain --metrics on $ADDR"
"$VENV/bin/schemathesis" run "http://$ADDR/openapi.json" \
  --checks all --max-examples 50 --seed 1 --request-timeout 20 --no-color
echo "api-checks: /metrics read by the Prometheus client's OpenMetrics parser"
"$VENV/bin/python" tests/metrics/check_metrics.py "http://$ADDR"
stop_server

for kb in meds library; do
  start_server "$work/$kb.log" "$BIN" http "examples/$kb.pl" --port 0 --log info
  echo "api-checks: schemathesis against examples/$kb.pl on $ADDR"
  "$VENV/bin/schemathesis" run "http://$ADDR/openapi.json" \
    --checks all --max-examples 100 --seed 1 --request-timeout 20 --no-color
  stop_server
done
echo "api-checks: passed"
