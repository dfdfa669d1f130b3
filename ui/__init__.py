"""Streamlit glue shared by app.py and the lab pages: the page frame, the sidebar and
session state, the chunk panel, tables, exports, and the cached calls.

Everything shown is computed in ``lab/`` and ``chunkers/``; ``ui.present`` turns it
into what a page shows without Streamlit, and this package wires widgets to those
functions and lays out what they return.
"""
