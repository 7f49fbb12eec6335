"""Entry point of ``python -m oracle``."""

import sys

from oracle.cli import main

if __name__ == "__main__":  # not when a spawned worker process imports the main module
    sys.exit(main())
