#!/usr/bin/env bash
# The Python package (python/, README "From Python"): its format and lints, a build and install
# with pip (maturin from PyPI) into a venv, its pytest suite, which compares it with the
# command line of the same sources (target/release/tdpe, built here), and the bilby_pipe
# example with tdpe as its sampler.
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

# The bilby_pipe example (examples/bilby_pipe_tdpe.ini): bilby_pipe generates the data and tdpe,
# its sampler, analyses them; about two minutes.
cd "$root"
"$venv/bin/pip" install -q "bilby_pipe==1.10.1"
work="$(mktemp -d)"
cp examples/bilby_pipe_tdpe.ini examples/gw150914_like.prior "$work"/
if ! (cd "$work" && PATH="$venv/bin:$PATH" bilby_pipe bilby_pipe_tdpe.ini --local \
    > bilby_pipe.log 2>&1); then
    tail -60 "$work/bilby_pipe.log"
    exit 1
fi
"$venv/bin/python" - "$work/outdir_tdpe" <<'PYTHON'
import glob, sys
import bilby
import numpy as np

outdir = sys.argv[1]
assert glob.glob(f"{outdir}/result/tdpe_*/config.toml"), "no tdpe run directory"
result = bilby.core.result.read_in_result(glob.glob(f"{outdir}/final_result/*.hdf5")[0])
truth = {"chirp_mass": 28.0955557954604, "luminosity_distance": 1200.0, "dec": -1.27}
for name, value in truth.items():
    lo, hi = np.quantile(result.posterior[name], [0.005, 0.995])
    assert lo < value < hi, (name, lo, hi, value)
print(f"bilby_pipe with sampler = tdpe: {len(result.posterior)} draws, the injection recovered")
PYTHON
rm -rf "$work"
