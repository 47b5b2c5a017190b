#!/usr/bin/env bash
# Rebuild time of a program using knowledge_base! after its .pl file changes.
# Method: build examples/typed-call once (warm), then three times: append a comment
# line to examples/meds.pl, time `cargo build --release -p charon-example-typed`,
# restore the file (restoring is a change too, so that build is timed as well).
# Prints each time in seconds; the file is restored even if a build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
kb=examples/meds.pl
backup=$(mktemp)
cp "$kb" "$backup"
trap 'cp "$backup" "$kb"; rm -f "$backup"' EXIT
build() { cargo build --release -q -p charon-example-typed; }
timed() {
  local start end
  start=$(date +%s%N); build; end=$(date +%s%N)
  echo "$1: $(( (end - start) / 1000000 )) ms"
}
build
for i in 1 2 3; do
  printf '%% touched %s\n' "$i" >>"$kb"
  timed "after edit $i"
  cp "$backup" "$kb"
  timed "after restore $i"
done
