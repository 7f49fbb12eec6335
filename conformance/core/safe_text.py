"""Engine text made inert for every output: terminals, XML, Markdown, HTML.

An engine's messages, answers, name and stderr reach the reports as they are. They may hold ANSI
escape sequences (colour, clear screen, set the terminal's title...), characters XML 1.0 forbids
(a JUnit file with one of them is rejected by CI systems), or markup. :func:`printable` shows
every control character as a visible escape (``\\x1b``), keeping line breaks and tabs; the
renderers then escape for their format (HTML, Markdown) on top of it.
"""

from __future__ import annotations

import re
from typing import Final

_CONTROL: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff\ud800-\udfff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``text`` with every control character (but newline and tab) written as a visible escape."""
    return _CONTROL.sub(_visible, str(text))
