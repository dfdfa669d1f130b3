"""Builds the compiled twins in place when scripts/build.sh asks for them.

chunkers/_speedups.pyx holds the twins written for Cython (the block scan,
finish, the text checks). pack.py is compiled as it stands, under its own
name, so the Python module stays importable as the reference. Neither is
needed to run (see chunkers/speedups.py), so a plain ``pip install .`` builds
no extension and needs neither Cython nor a C compiler.
"""

import os

from setuptools import Extension, setup

ext_modules = []
if os.environ.get("CHUNK_LAB_BUILD_TWINS") == "1":
    from Cython.Build import cythonize

    ext_modules = cythonize(
        [
            Extension("chunkers._speedups", ["chunkers/_speedups.pyx"]),
            Extension("chunkers.structural._pack_compiled", ["chunkers/structural/pack.py"]),
        ],
        language_level=3,
        quiet=True,
    )

setup(ext_modules=ext_modules)
