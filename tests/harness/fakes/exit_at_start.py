"""A fake engine that gives up before the start exchange."""

import sys

sys.stderr.write("fake engine: cannot open the opening book 'book.bin'\n")
sys.exit(1)
