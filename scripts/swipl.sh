#!/usr/bin/env bash
# Prints the path of SWI-Prolog's `swipl`, installing Debian's swi-prolog-nox with
# apt-get first when it is missing (through sudo when not root). The differential
# tests (tests/e2e/differential.rs) compare Charon's answers with SWI-Prolog's;
# scripts/test.sh runs this and exports the path as CHARON_SWIPL.
#
#   export CHARON_SWIPL="$(scripts/swipl.sh)"
#
# Progress goes to stderr; stdout has the path only. Exits 1, saying why, when
# swipl is missing and cannot be installed.
set -euo pipefail

fail() {
  echo "swipl.sh: $*" >&2
  echo "swipl.sh: install SWI-Prolog (Debian: apt-get install swi-prolog-nox), or set CHARON_SWIPL to its swipl" >&2
  exit 1
}

found() {
  local path
  if [ -n "${CHARON_SWIPL:-}" ]; then
    [ -x "$CHARON_SWIPL" ] || fail "CHARON_SWIPL is $CHARON_SWIPL, which is not an executable"
    echo "$CHARON_SWIPL"
    return 0
  fi
  path="$(command -v swipl 2>/dev/null)" || return 1
  echo "$path"
}

if found; then
  exit 0
fi

command -v apt-get >/dev/null || fail "swipl is not installed, and there is no apt-get to install it with"
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || fail "swipl is not installed, and installing it needs root (no sudo here)"
  sudo=sudo
fi
echo "swipl.sh: installing Debian's swi-prolog-nox" >&2
$sudo apt-get update -q >&2 || fail "apt-get update failed"
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends swi-prolog-nox >&2 \
  || fail "apt-get install swi-prolog-nox failed"
found || fail "swi-prolog-nox is installed but swipl is not on the PATH"
