#!/usr/bin/env bash
# GET /docs in a real browser: Debian's Chromium, headless, driven by playwright-core
# (tests/docs/check_docs.mjs), against `charon http` on examples/meds.pl. Every
# operation of the OpenAPI document must render, nothing outside the server may be
# fetched, and "Try it" must show the right answer for a GET operation (query string)
# and a POST one (JSON body with a list). Installs Chromium and the Node packages on
# first use (scripts/tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/tools.sh
browser_tools
node_tools

charon_binary docs-check
work=$(mktemp -d)
trap 'stop_server; rm -rf "$work"' EXIT

start_server "$work/meds.log" "$BIN" http examples/meds.pl --port 0 --log info
check() { "$NODE22" tests/docs/check_docs.mjs "$NODE_MODULES" "http://$ADDR" "$@"; }
check get_interaction '{"First":"aspirin","Second":"warfarin"}' '"major"'
check screening_summary '{"Age":80,"Drugs":["diazepam","aspirin"]}' '{"Flagged":["diazepam"],"Interactions":0}'
stop_server
echo "docs-check: passed"
