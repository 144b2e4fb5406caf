"""The speed suites: the library's calls timed on seeded hands, every answer
checked (``python -m benchmarks``; ``benchmarks`` lists the modules).

* ``suites`` -- seeded hand generators dealt from each preset's deck;
* ``runner`` -- ``solve()`` per suite and engine; ``anchors`` -- OpenSpiel
  and RLCard side by side; ``hints`` and ``midgame`` -- the hints on dealt
  and mid-game positions; ``overrides`` -- rules overrides and their memory;
  ``bulk`` -- ``rummy-solver bulk`` throughput; ``indian_packing``,
  ``indian_steps`` -- the Indian advisor's packing search and race model;
* ``report``, ``markdown`` -- the tables and the JSON; ``charts`` -- SVGs.
"""
