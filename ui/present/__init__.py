"""What a page shows, without Streamlit: measurements from ``lab/`` turned into table
rows, chart specs and figures, escaped HTML, sentences, the link's settings, the
notebook's pins and the labs' controls.

Nothing here imports Streamlit, directly or through the rest of ``ui``: every
module can be tested and cached without a running app (tests/test_layout.py)."""
