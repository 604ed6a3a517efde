#!/usr/bin/env bash
# The Python package (python/, README "From Python"): its format and lints, a build and install
# with pip (maturin from PyPI) into a venv, and its pytest suite, which compares it with the
# command line of the same sources (target/release/tdpe, built here if missing).
#
# Usage: tools/python_package_test.sh [VENV]   (a venv to install into; default: a new one)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# One target directory for the workspace and the package: the package's dependencies are the
# workspace's crates, built once.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
cargo build --release -q -p tdpe
venv="${1:-}"
if [ -z "$venv" ]; then
    venv="$(mktemp -d)/venv"
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --upgrade pip
# Lints need pyo3's build script, which needs a Python interpreter: the venv's.
export PYO3_PYTHON="$venv/bin/python"
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --release --manifest-path python/Cargo.toml --all-targets -- -D warnings
"$venv/bin/pip" install -q "./python[test]"
cd python/tests
TDPE_BIN="$CARGO_TARGET_DIR/release/tdpe" "$venv/bin/python" -m pytest -q -p no:cacheprovider
