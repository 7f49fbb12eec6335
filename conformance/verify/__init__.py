"""Formal verification of engines' answers: an SMT encoding of the capture rules, checks, generators.

* :mod:`conformance.verify.jumps` -- the single-jump relation of a position (Art. 4.1, 4.3, 4.11);
* :mod:`conformance.verify.smt` -- the z3 questions about capture sequences (Art. 4.5-4.15):
  :class:`CaptureSolver`, independent of the oracle's move generator, asking them of the formula
  :mod:`conformance.verify.capture_formula` builds;
* :mod:`conformance.verify.checks` -- checks of an engine's answer returning :class:`Finding`;
  :mod:`conformance.verify.after` -- the position after a move, the engine's and the rules' own;
* :mod:`conformance.verify.strategies` -- Hypothesis strategies and seeded generators of positions
  (imported on demand: it needs Hypothesis);
* :mod:`conformance.verify.differential` -- comparisons with the oracle (moves, positions, outcomes);
* :mod:`conformance.verify.generate` (options, seeded positions), :mod:`~conformance.verify.asking`
  (calling the engine), :mod:`~conformance.verify.judges` (the checks), :mod:`~conformance.verify.shrink`,
  :mod:`~conformance.verify.casefile` (a disagreement described), :mod:`~conformance.verify.driver`
  (the checks of one position, a failing one shrunk) and :mod:`conformance.verify.run` -- the
  ``verify`` run: its header, the positions checked here or elsewhere, its certificate -- with
  :mod:`~conformance.verify.collector` taking their rows in order: the report, the disagreements
  and errors shrunk, ``max_fail``;
  :mod:`conformance.cli.verify` -- its command line;
* :mod:`conformance.verify.exhaustive` -- every position with few pieces, numbered and counted;
  :mod:`conformance.verify.pool` (worker processes) and :mod:`conformance.verify.cluster` (Dask) --
  the positions checked elsewhere, taken back in order;
* :mod:`conformance.verify.draw_campaigns` -- the games of ``--kind draws``, steered by the
  templates of :mod:`conformance.verify.draw_templates` (made abstract games by
  :mod:`conformance.verify.draw_plans`) so that every event of a count falls at every phase of it (:mod:`conformance.verify.draw_phases`: the grid of timings and its table);
  an outcome disagreement is filed by :mod:`conformance.core.filing.outcomes` (the one rule it breaks,
  or the reading the draw model shows);
* :mod:`conformance.verify.draw_model` -- the verifier's own model of the draw rules (Art. 6,
  7.2): abstract events, a z3 transition system, bounded model checking of the readings, and the
  synthesis of games that tell two readings apart (its modules are listed there).

Import the submodules you need (``from conformance.verify.smt import CaptureSolver``); the package
itself imports nothing heavy.
"""

KINDS = ("random", "captures", "chains", "endgames", "playouts", "draws")
"""The kinds of generated positions ``verify`` draws; a run cycles through the ones it is given.

``draws`` positions are the setups of games steered to each draw rule of Art. 6 and to a win on
the ply a count expires (:mod:`conformance.verify.draw_campaigns`).

(Kept here, apart from the modules that need z3 and Hypothesis, so that the command line can
offer them without importing either.)"""
