#!/usr/bin/env bash
# Install what the tests need, then run them all. Safe to run again.
# --fast (first argument): everything but the browser and slow tests, without
# installing Chromium or nginx; the other arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

FAST=0
if [ "${1:-}" = "--fast" ]; then
  FAST=1
  shift
fi

# pip itself first: pip 23's resolver stops with an internal error on lxml asked for
# with its extra spelled two ways ("html_clean" by justext, "html-clean" by
# readability-lxml), which requirements-dev.txt does
python3 -m pip install --quiet --disable-pip-version-check "pip==25.3"

# requirements-dev.txt holds the runtime, the benchmark's peers (its quick test measures
# them) and Dask (the distributed check's LocalCluster test), all pinned.
python3 -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

# The browser test drives Debian's Chromium (no browser download).
if [ "$FAST" = 0 ] && ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# The class test runs two app processes behind nginx (Debian's package); the test starts
# its own nginx on a loopback port, whatever the package's service does.
if [ "$FAST" = 0 ] && ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nginx >/dev/null
fi

# The linter and the formatter, as configured in pyproject.toml: a finding fails the run.
python3 -m ruff check .
python3 -m ruff format --check .
# The type checker, as configured in pyproject.toml ([tool.mypy]): an error fails the run.
python3 -m mypy

# One worker per core (pytest-xdist): the suite is mostly Python and browser runs that
# each use one core, so on two cores it takes about half as long as one process.
# Work-stealing keeps both workers busy through the few long browser tests at the end.
if [ "$FAST" = 1 ]; then
  set -- -m "not browser and not slow" "$@"
fi
exec python3 -m pytest -p xdist -n auto --dist worksteal "$@"
