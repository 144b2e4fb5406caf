"""Benchmarks of the rummy solver: ``python -m benchmarks --help``.  Three
concerns, a package each:

* ``benchmarks.speed`` -- the library's calls timed on seeded hands, every
  answer checked: ``suites`` (hand generators dealt from each preset's
  deck), ``runner`` (``solve()`` per suite and engine, the engines' optima
  compared), ``anchors`` (OpenSpiel and RLCard side by side on gin hands),
  ``hints`` (``draw_hint`` / ``discard_hint`` per call), ``overrides``
  (``solve(..., rules={...})`` against the preset, and the memory of many
  distinct overrides), ``bulk`` (``rummy-solver bulk`` throughput, 1 / 2
  processes and Ray), ``report`` (Markdown tables and the JSON file);
* ``benchmarks.service`` -- the real API server: ``load`` (a bounded
  concurrent client), ``deadline`` (hostile and heavy requests answered by
  the deadline + 100 ms, health checks kept answering), ``goodput`` (wrk),
  ``advise_load`` (``POST /v1/advise`` on arena positions);
* ``benchmarks.arena`` -- card games between bots and independent referees
  (``--arena``).

``benchmarks.__main__`` is the command line (``--arena`` hands over to
``benchmarks.arena.core.cli``) and ``run(...)``, the whole speed and service
benchmark as a function (what the command line and the smoke test call).
This package imports none of its modules: each concern loads only what it
uses, and a module run on its own (``python -m benchmarks.speed.bulk``) is
not imported twice.  Nothing here asserts on time.
"""
