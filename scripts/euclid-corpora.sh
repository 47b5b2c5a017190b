#!/usr/bin/env bash
# Euclid-IR side by side with the reference implementation (tests/euclid/corpora.py):
# installs euclid-mcp from PyPI, with pytest, into ~/.cache/charon-tools/euclid-venv-VERSION
# on first use (it runs SWI-Prolog, which scripts/swipl.sh installs), and downloads and
# unpacks its sdist (its test suite and README) beside it; then compares Charon's
# `reason` with the reference's on the repository's Euclid-IR examples, on every call
# the reference's own test suite makes (recorded from a run of it), and on its README's
# examples. Arguments are passed on (--verbose, --save-corpus FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
EUCLID_VERSION=${EUCLID_VERSION:-0.5.0}
TOOLS="${CHARON_TOOLS:-$HOME/.cache/charon-tools}"
VENV="$TOOLS/euclid-venv-$EUCLID_VERSION"
SDIST="$TOOLS/euclid-mcp-$EUCLID_VERSION-sdist"
BIN="${CARGO_TARGET_DIR:-target}/release/charon"
SWIPL="$(scripts/swipl.sh)"
export PATH="$(dirname "$SWIPL"):$PATH"
if ! "$VENV/bin/python" -c 'import euclid_mcp, pytest' 2>/dev/null; then
  echo "euclid-corpora: installing euclid-mcp==$EUCLID_VERSION and pytest into $VENV" >&2
  test -x "$VENV/bin/python" || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "euclid-mcp==$EUCLID_VERSION" pytest >&2
fi
if ! test -f "$SDIST/euclid_mcp-$EUCLID_VERSION/README.md"; then
  echo "euclid-corpora: downloading the euclid-mcp==$EUCLID_VERSION sdist into $SDIST" >&2
  rm -rf "$SDIST.tmp" && mkdir -p "$SDIST.tmp"
  "$VENV/bin/pip" download --quiet --disable-pip-version-check --no-binary :all: --no-deps \
    --dest "$SDIST.tmp" "euclid-mcp==$EUCLID_VERSION" >&2
  tar -xzf "$SDIST.tmp/euclid_mcp-$EUCLID_VERSION.tar.gz" -C "$SDIST.tmp"
  rm -rf "$SDIST" && mv "$SDIST.tmp" "$SDIST"
fi
test -x "$BIN" || cargo build --release -p charon-cli
exec "$VENV/bin/python" tests/euclid/corpora.py "$BIN" "$SDIST/euclid_mcp-$EUCLID_VERSION" "$@"
