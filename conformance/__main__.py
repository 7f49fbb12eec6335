"""``python -m conformance`` is ``draughts-conformance``."""

import sys

from conformance.cli import main

sys.exit(main())
