"""Streamlit glue shared by app.py and the lab pages: state, caching, widgets, charts.

Everything shown is computed in ``lab/`` and ``chunkers/``; this package only
wires widgets to those functions and lays out what they return.
"""
