"""A fake engine that answers 'start' and then stops reading its stdin, forever."""

import sys
import time

from _fake import started

sys.stdin.readline()
started(capabilities=["play"])
while True:
    time.sleep(60)
