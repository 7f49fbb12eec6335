"""The real engines from the package registries: which ones, installing them, the command.

* :mod:`~conformance.engines.thirdparty` -- dame-rs, py-draughts and pydraughts, each pinned, in a
  virtual environment of its own, reached over the JSON-lines protocol;
* :mod:`~conformance.engines.selfinstall` -- how this project installs itself into those venvs
  (editable from a checkout, or from the installed wheel);
* :mod:`~conformance.engines.commands` -- ``draughts-conformance engines install|list``.
"""
