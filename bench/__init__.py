"""The side-by-side benchmark: `python -m bench.run` (see README, "Benchmark")."""
