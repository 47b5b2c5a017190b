#!/usr/bin/env bash
# Uses Charon the way an application does: tests/outside-app is a crate outside this
# workspace (its own [workspace], its own serde code, the dev profile), depending on
# charon by path. Its tests check, through the public API only, that the generated
# router and MCP mount in an app with its own routes, fallback and layer under a
# public host name, that the app's serde_json behaves as serde_json does by default,
# and that the typed API takes string literals; then its binary runs from another
# directory (the knowledge base, four files loaded by include, use_module and
# consult, is compiled in), and editing a file the knowledge base includes rebuilds
# the binary with the new text.
set -euo pipefail
cd "$(dirname "$0")/.."
app=tests/outside-app
# The snippets of README.md and docs/*.md marked `<!-- snippet: FILE -->` are
# consecutive lines of FILE (indentation aside), so that what the docs show is what
# this script compiles and runs. FILE is relative to the repository's root, in
# docs/ as in README.md.
python3 - <<'PY'
import glob, re, sys
bad = []
for doc in ["README.md", *sorted(glob.glob("docs/*.md"))]:
    text = open(doc).read()
    for path, block in re.findall(r"<!-- snippet: (\S+) -->\n```rust\n(.*?)```", text, re.S):
        want = [l.strip() for l in block.strip("\n").split("\n")]
        have = [l.strip() for l in open(path).read().split("\n")]
        if not any(have[i:i + len(want)] == want for i in range(len(have))):
            bad.append(f"{doc}: {path}")
if bad:
    sys.exit("outside-check: snippets differ from their files: " + ", ".join(bad))
PY
# The versions this repository is tested with (cargo adds what the app alone needs).
cp Cargo.lock "$app/Cargo.lock"
cargo test --manifest-path "$app/Cargo.toml"
cargo build --manifest-path "$app/Cargo.toml" --bins
# Absolute: the binary is run from another directory below.
target=$(cd "${CARGO_TARGET_DIR:-$app/target}" && pwd)
elsewhere=$(mktemp -d)
items="$app/kb/data/items.pl"
cp "$items" "$elsewhere/items.pl"
# Whatever happens, the included file is put back as it was.
trap 'cp "$elsewhere/items.pl" "$items"; rm -rf "$elsewhere"' EXIT
run() { (cd "$elsewhere" && "$target/debug/outside-app" "$@"); }
expect() {
  local want=$1; shift
  local got
  got=$(run "$@")
  if [ "$got" != "$want" ]; then
    echo "outside-check: 'outside-app $*' answered '$got' from $elsewhere, expected '$want'" >&2
    exit 1
  fi
}
expect 9.75 total apple bread cheese
expect 3628800 factorial 10
# The dev profile with the README's setting runs an optimised engine: no warning.
if run factorial 10 2>&1 >/dev/null | grep -q "compiled without optimisation"; then
  echo "outside-check: the dev build warns that the engine is unoptimised despite the README's setting" >&2
  exit 1
fi
expect "bread 10%, cheese 25%" offers
# An edit of an included file reaches the next build.
echo "item(milk, 1.5)." >>"$items"
cargo build --manifest-path "$app/Cargo.toml" --bins
expect 11.25 total apple bread cheese milk
cp "$elsewhere/items.pl" "$items"
cargo build --manifest-path "$app/Cargo.toml" --bins
expect 9.75 total apple bread cheese milk
echo "outside-check: ok (the app's binary answers from $elsewhere, and rebuilds when an included file changes)"
