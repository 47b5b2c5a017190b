#!/usr/bin/env bash
# Write idioms (assertz, upsert by key, retract by key; a read by key for scale) by
# database size, Charon beside SWI-Prolog's HTTP server: see bench/write_idioms.py
# for what is measured. SWI-Prolog comes from scripts/swipl.sh (Debian's package).
# Usage: scripts/bench-write-idioms.sh [N ...]   (default: 10 100000 1000000)
#        CALLS=300 WARMUP=50 (calls per idiom, measured and not)
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@"); [ ${#SIZES[@]} -gt 0 ] || SIZES=(10 100000 1000000)
BIN="${CARGO_TARGET_DIR:-target}/release/charon"
[ -x "$BIN" ] || cargo build --release -p charon-cli
SWIPL="$(scripts/swipl.sh)"
exec python3 bench/write_idioms.py "$BIN" "$SWIPL" "${SIZES[@]}"
