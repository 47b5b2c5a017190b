#!/usr/bin/env bash
# Euclid-IR side by side with the reference implementation (tests/euclid/side_by_side.py):
# installs euclid-mcp from PyPI into ~/.cache/charon-tools/euclid-venv on first use
# (it runs SWI-Prolog, which scripts/swipl.sh installs), then compares Charon's
# `reason` with the reference's on the repository's Euclid-IR examples.
set -euo pipefail
cd "$(dirname "$0")/.."
EUCLID_VERSION=${EUCLID_VERSION:-0.5.0}
VENV="${CHARON_TOOLS:-$HOME/.cache/charon-tools}/euclid-venv-$EUCLID_VERSION"
BIN="${CARGO_TARGET_DIR:-target}/release/charon"
SWIPL="$(scripts/swipl.sh)"
export PATH="$(dirname "$SWIPL"):$PATH"
if ! "$VENV/bin/python" -c 'import euclid_mcp' 2>/dev/null; then
  echo "euclid-side-by-side: installing euclid-mcp==$EUCLID_VERSION into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "euclid-mcp==$EUCLID_VERSION" >&2
fi
test -x "$BIN" || cargo build --release -p charon-cli
exec "$VENV/bin/python" tests/euclid/side_by_side.py "$BIN"
