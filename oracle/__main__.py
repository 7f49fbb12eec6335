"""Entry point of ``python -m oracle``."""

import sys

from oracle.cli import main

sys.exit(main())
