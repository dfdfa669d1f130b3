"""Chunk Lab's pure-Python measurements: tokenizing, BM25 scoring (rank-bm25 and
SQLite FTS5), the theoretical length-normalisation curve, chunk-length statistics
and cost arithmetic. No UI imports here, so the app and the tests share one truth."""
