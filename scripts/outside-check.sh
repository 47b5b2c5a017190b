#!/usr/bin/env bash
# Uses Charon the way an application does: tests/outside-app is a crate outside this
# workspace (its own [workspace], its own serde code, the dev profile), depending on
# charon by path. Its tests check, through the public API only, that the generated
# router and MCP mount in an app with its own routes, fallback and layer under a
# public host name, that the app's serde_json behaves as serde_json does by default,
# and that the typed API takes string literals; then its binary runs from another
# directory (the knowledge base is compiled in).
set -euo pipefail
cd "$(dirname "$0")/.."
app=tests/outside-app
# README's snippets marked `<!-- snippet: FILE -->` are consecutive lines of FILE
# (indentation aside), so that what the README shows is what this script compiles
# and runs.
python3 - <<'PY'
import re, sys
readme = open("README.md").read()
bad = []
for path, block in re.findall(r"<!-- snippet: (\S+) -->\n```rust\n(.*?)```", readme, re.S):
    want = [l.strip() for l in block.strip("\n").split("\n")]
    have = [l.strip() for l in open(path).read().split("\n")]
    if not any(have[i:i + len(want)] == want for i in range(len(have))):
        bad.append(path)
if bad:
    sys.exit("outside-check: README snippets differ from " + ", ".join(bad))
PY
# The versions this repository is tested with (cargo adds what the app alone needs).
cp Cargo.lock "$app/Cargo.lock"
cargo test --manifest-path "$app/Cargo.toml"
cargo build --manifest-path "$app/Cargo.toml" --bins
target="${CARGO_TARGET_DIR:-$app/target}"
elsewhere=$(mktemp -d)
trap 'rm -rf "$elsewhere"' EXIT
total=$(cd "$elsewhere" && "$target/debug/outside-app" total apple bread cheese)
if [ "$total" != "9.75" ]; then
  echo "outside-check: the app's binary answered '$total' from $elsewhere, expected 9.75" >&2
  exit 1
fi
echo "outside-check: ok (the app's binary answers from $elsewhere)"
