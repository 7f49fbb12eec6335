"""The real engines from the package registries: which ones, installing them, the command.

* :mod:`~conformance.engines.thirdparty` -- the registry of the real engines (dame-rs, draughts-js,
  py-draughts, pydraughts), each pinned, in a folder of its own, reached over the JSON-lines
  protocol; the PyPI engines' virtual environments;
* :mod:`~conformance.engines.npm` -- draughts.js, an npm package folder run with Node.js;
* :mod:`~conformance.engines.base` -- what both kinds share (description, status, install steps);
* :mod:`~conformance.engines.selfinstall` -- how this project installs itself into those venvs
  (editable from a checkout, or from the installed wheel);
* :mod:`~conformance.cli.engines` -- ``draughts-conformance engines install|list``.
"""
