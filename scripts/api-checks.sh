#!/usr/bin/env bash
# Standard tools against Charon's HTTP surface: openapi-spec-validator on the OpenAPI
# document of every example, and a bounded schemathesis run (every check) against
# `charon http` on examples/meds.pl and examples/library.pl. Any finding fails.
# The tools are installed from PyPI into a virtualenv on first use.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS="${CHARON_TOOLS:-$HOME/.cache/charon-tools}"
VENV="$TOOLS/venv"
if ! "$VENV/bin/python" -c "import schemathesis, openapi_spec_validator" 2>/dev/null; then
  echo "api-checks: installing schemathesis and openapi-spec-validator into $VENV"
  mkdir -p "$TOOLS"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    "schemathesis==4.32.5" "openapi-spec-validator==0.9.0"
fi

BIN="${CARGO_TARGET_DIR:-target}/release/charon"
[ -x "$BIN" ] || { echo "api-checks: $BIN missing; run cargo build --release -p charon-cli" >&2; exit 1; }

work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

for kb in examples/*.pl; do
  "$BIN" openapi "$kb" "$work/openapi.json" --log warn
  "$VENV/bin/openapi-spec-validator" "$work/openapi.json"
done

for kb in meds library; do
  "$BIN" http "examples/$kb.pl" --port 0 --log info 2> "$work/$kb.log" &
  server=$!
  addr=""
  for _ in $(seq 1 300); do
    addr=$(grep -o 'listening on http://[0-9.:]*' "$work/$kb.log" | head -n 1 | sed 's|listening on http://||') || true
    [ -n "$addr" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/$kb.log" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$addr" ] || { echo "api-checks: charon http did not start" >&2; cat "$work/$kb.log" >&2; exit 1; }
  echo "api-checks: schemathesis against examples/$kb.pl on $addr"
  "$VENV/bin/schemathesis" run "http://$addr/openapi.json" \
    --checks all --max-examples 100 --seed 1 --request-timeout 20 --no-color
  kill "$server"
  wait "$server" || true
  server=""
done
echo "api-checks: passed"
