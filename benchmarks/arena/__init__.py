"""The arena: gin hands and matches to 100 between bots, on mirrored deals,
refereed by code that shares nothing with ``solver`` (``python -m benchmarks
--arena --help``; ``benchmarks/README.md``, section Arena).

* ``cards``, ``melds`` -- card encoding and meld combinatorics of our own
  (least deadwood, arrangements, OpenSpiel's layoff rule);
* ``rules`` -- ``GinRules`` and the scoring of a knock;
* ``protocol`` -- ``PlayerView``, ``Action``, ``Event``, ``Player``: the one
  contract between the arena and every player;
* ``referee`` -- ``GinHand``: one hand, every action checked;
* ``game`` -- one hand between two players, decisions timed, watchers fed;
* ``openspiel_shadow`` -- a pyspiel state in step with the referee: the
  cross-check, and what OpenSpiel's bot plays on;
* ``players/`` -- the bots and their ``registry``;
* ``runner`` -- mirrored pairs of hands and of matches; ``stats`` -- rates
  and intervals; ``report`` -- Markdown and JSON; ``cli`` -- ``--arena``;
* ``indian/``, ``rummy500/`` -- the arenas of those games: rotated deals
  between 2 to 4 players (``--game indian13``, ``--game rummy500``); what
  the two share: ``rotations`` (dealing, workers, the common figures),
  ``entrants`` (the players' registry type), ``joker_cards`` (card names).
"""
