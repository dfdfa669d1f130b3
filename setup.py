"""Builds the compiled twins in place; scripts/build.sh runs it.

chunkers/_speedups.pyx holds the twins written for Cython (the block scan,
finish, the text checks).
pack.py is compiled as it stands, under its own name, so the Python module
stays importable as the reference. Neither is needed to run: see
chunkers/speedups.py.
"""
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [
            Extension("chunkers._speedups", ["chunkers/_speedups.pyx"]),
            Extension("chunkers.structural._pack_compiled", ["chunkers/structural/pack.py"]),
        ],
        language_level=3,
        quiet=True,
    )
)
