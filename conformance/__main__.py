"""``python -m conformance`` is ``draughts-conformance``."""

import sys

from conformance.cli.main import main

sys.exit(main())
