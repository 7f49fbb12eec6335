"""Servers: in-process engines exposed over the JSON-lines protocol (``docs/protocol.md``).

``python -m conformance.servers.oracle_jsonl`` serves the reference oracle; its
:func:`~conformance.servers.oracle_jsonl.serve` exposes any :class:`conformance.core.protocol.Engine`,
e.g. a Python engine that must run in a virtual environment of its own.
"""
