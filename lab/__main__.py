import sys

from .cli import main

# the guard matters: a local Dask cluster starts its workers by re-running this module
if __name__ == "__main__":
    sys.exit(main())
