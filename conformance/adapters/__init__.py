"""Adapters: how the harness reaches an engine, in this Python process or another one.

Each adapter implements :class:`conformance.engine.Engine`, so the runner,
:mod:`conformance.evaluate` and the judges of :mod:`conformance.judges` treat every engine alike.
:mod:`conformance.adapters.specs` reads an engine spec (``oracle``, ``python:MOD:ATTR``,
``jsonl:CMD``, ``hub:CMD``, ``dxp:...``, ``mutant:NAME``, a real engine's name) into a factory of
engines; :mod:`conformance.adapters.inprocess` wraps a Python object,
:mod:`conformance.adapters.jsonl` speaks the language-neutral JSON-lines protocol of
``docs/protocol.md`` to a subprocess (its messages in :mod:`~conformance.adapters.jsonl_messages`,
its start exchange in :mod:`~conformance.adapters.jsonl_start`), and :mod:`~conformance.adapters.hub`
and :mod:`~conformance.adapters.dxp` the protocols real engines speak (DXP's messages in
:mod:`~conformance.adapters.dxp_messages`, its TCP connection in
:mod:`~conformance.adapters.dxp_connection`).
"""
