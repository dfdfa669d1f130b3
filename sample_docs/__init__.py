"""Realistic documents, each with a gold file of questions and their answers.

A package of data only: installed beside ``lab`` so that ``chunk-lab samples`` finds
them in a wheel as in a checkout (``lab.inputs.samples`` reads them).
"""
