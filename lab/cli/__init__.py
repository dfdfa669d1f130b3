"""The command line (`python -m lab`, or `chunk-lab` when installed): the lab's
measurements from a terminal or a CI job.

Human-readable tables by default, ``--json`` for machines. Bad input exits 2
with one line saying what is wrong and how to fix it; `check` exits 1 when the
gate fails (lab.measure.verdict says when), so an index build can be gated on it.

parser.py reads the command line, args.py checks what it says, commands.py runs
each subcommand, gold_paths.py matches gold lines to documents, distributed.py
chunks many documents here or on a Dask cluster.
"""

from .parser import main

__all__ = ["main"]
