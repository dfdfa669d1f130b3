"""Retrieval: the judges that pick chunks for a question (BM25 variants, dense
vectors, and their reciprocal-rank fusion) behind one interface."""
