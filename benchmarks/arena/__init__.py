"""The arena: card games between bots, refereed by code that shares nothing
with ``solver`` (``python -m benchmarks --arena --help``;
``benchmarks/README.md``, sections Arena).  The games (``--game``):

* ``gin`` (the default) -- gin hands and matches to 100 between two
  players, on mirrored deals, cross-checked against OpenSpiel;
* ``indian13`` -- Indian rummy 13, 2 to 4 players (``indian/``);
* ``rummy500`` -- Rummy 500, 2 to 4 players (``rummy500/``);
* ``rommy`` -- Rommy, Danish "500", 2 to 6 players, and ``basic`` -- basic
  rummy (52 cards, the winner collecting the other hands, doubled for a
  rummy), 2 to 6 players: the Rummy 500 referee and players with the game's
  ``Variant`` (``rummy500/variants.py``).

The games other than gin play rotated deals (every deal once per rotation of
the seats).  The modules:

* ``cards``, ``melds`` -- gin's card encoding and meld combinatorics of our
  own (least deadwood, arrangements, OpenSpiel's layoff rule);
* ``rules`` -- ``GinRules`` and the scoring of a knock;
* ``protocol`` -- ``PlayerView``, ``Action``, ``Event``, ``Player``: the one
  contract between the gin arena and every player;
* ``referee`` -- ``GinHand``: one hand, every action checked;
* ``game`` -- one hand between two players, decisions timed, watchers fed;
* ``openspiel_shadow`` -- a pyspiel state in step with the referee: the
  cross-check, and what OpenSpiel's bot plays on;
* ``players/`` -- the gin bots and their ``registry``;
* ``runner`` -- mirrored pairs of hands and of matches; ``stats`` -- rates
  and intervals; ``report`` -- Markdown and JSON; ``cli`` -- ``--arena``;
* ``indian/``, ``rummy500/`` -- the arenas of the rotated-deal games; what
  they share: ``rotations`` (dealing, workers, the common figures),
  ``entrants`` (the players' registry type), ``joker_cards`` (card names).
"""
