# Shared by scripts/run and scripts/test: install what the checkout needs, once, and again
# only when a requirements or package file changes.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
STAMPS="$ROOT/var/stamps"

say() { printf '\033[1m[tandem]\033[0m %s\n' "$*" >&2; }

# Runs "$@" unless the stamp named $1 already records the checksum of the files in $2.
# $2 is a space-separated list of files whose content decides whether to run again.
run_once_per_change() {
  local name="$1" inputs="$2"
  shift 2
  local sum
  # shellcheck disable=SC2086
  sum="$(cd "$ROOT" && cat $inputs | sha256sum | cut -d' ' -f1)"
  mkdir -p "$STAMPS"
  if [[ -f "$STAMPS/$name" && "$(cat "$STAMPS/$name")" == "$sum" ]]; then
    return 0
  fi
  "$@"
  echo "$sum" >"$STAMPS/$name"
}

find_python() {
  local candidate
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        command -v "$candidate"
        return 0
    fi
  done
  say "Python 3.11 or newer is needed (python3.11 or python3 on PATH)."
  return 1
}

ensure_venv() {
  if [[ ! -x "$PY" ]]; then
    say "creating the virtual environment in .venv"
    "$(find_python)" -m venv "$VENV"
    "$PY" -m pip install --quiet --upgrade pip
  fi
}

pip_install() { "$PY" -m pip install --quiet --disable-pip-version-check "$@"; }

install_python_requirements() {
  ensure_venv
  run_once_per_change python-runtime "requirements.txt" pip_install -r "$ROOT/requirements.txt"
}

install_python_dev_requirements() {
  install_python_requirements
  run_once_per_change python-dev "requirements.txt requirements-dev.txt" \
    pip_install -r "$ROOT/requirements-dev.txt"
}

npm_ci() { (cd "$ROOT/frontend" && npm ci --no-audit --no-fund --loglevel=error); }

install_node_modules() {
  command -v npm >/dev/null 2>&1 || { say "Node.js 20 and npm are needed."; return 1; }
  if [[ ! -d "$ROOT/frontend/node_modules" ]]; then rm -f "$STAMPS/node-modules"; fi
  run_once_per_change node-modules "frontend/package-lock.json" npm_ci
}

vite_build() { (cd "$ROOT/frontend" && npx --no-install vite build --logLevel warn); }

build_frontend() {
  install_node_modules
  local sources
  sources="$(cd "$ROOT" && find frontend/src frontend/index.html frontend/vite.config.ts \
    frontend/package-lock.json -type f | sort | tr '\n' ' ')"
  if [[ ! -f "$ROOT/frontend/dist/index.html" ]]; then rm -f "$STAMPS/frontend-build"; fi
  run_once_per_change frontend-build "$sources" vite_build
}
