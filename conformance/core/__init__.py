"""The ground floor of the harness: what every other room shares.

The protocol an engine speaks (:mod:`~conformance.core.protocol`),
results and the certificate, the report stream, the corpus model and loader, filing (the one rule a
result is charged to), baselines, shards, safe YAML and text, the rulebook and the draw model's
events. It imports nothing of the harness above it, only :mod:`oracle` (docs/architecture.md).
"""
