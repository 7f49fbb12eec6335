"""Adapters: how the harness reaches an engine that does not live in this Python process.

Each adapter implements :class:`conformance.engine.Engine`, so the runner and the judges of
:mod:`conformance.evaluate` treat every engine alike. :mod:`conformance.adapters.jsonl` speaks
the language-neutral JSON-lines protocol of ``docs/protocol.md`` to a subprocess.
"""
