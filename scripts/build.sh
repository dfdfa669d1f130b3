#!/usr/bin/env bash
# Build the compiled twins (setup.py: chunkers/_speedups.pyx and pack.py) in place. Optional for the
# app and the library, which fall back to their Python code; the test command
# runs it. Safe to run again: an up-to-date build is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r requirements-build.txt
CHUNK_LAB_BUILD_TWINS=1 python3 -W ignore setup.py -q build_ext --inplace >/dev/null
rm -rf build
python3 -c "from chunkers import speedups, structural as s; assert speedups.compiled, speedups.WHY_NOT; assert s.pack_compiled, s.WHY_NOT"
