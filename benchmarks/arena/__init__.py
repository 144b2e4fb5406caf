"""The arena: card games between bots, refereed by code that shares nothing
with ``solver`` but each game's words, ``solver.play.words`` (``python -m
benchmarks --arena --help``; ``benchmarks/README.md``, sections Arena).  The games (``--game``):

* ``gin`` (the default) -- gin hands and matches to 100 between two
  players, on mirrored deals, cross-checked against OpenSpiel (``gin/``);
* ``indian13``, ``indian21`` -- Indian rummy, 2 to 4 players (``indian/``);
* ``rummy500`` -- Rummy 500, 2 to 8 players; ``rommy`` -- Rommy, Danish
  "500", 2 to 6 players; ``basic`` -- basic rummy (52 cards, the winner
  collecting the other hands, doubled for a rummy), 2 to 6 players: the
  lay-down games, one referee and one set of players, each game a
  ``Variant`` (``laydown/``).

The games other than gin play rotated deals (every deal once per rotation of
the seats).  One folder per game family, and what they share:

* ``core/`` -- ``rotations`` (dealing rotated deals, workers, the common
  figures), ``stats`` (means, intervals, percentiles), ``entrants`` (the one
  registry type every game lists its players in), ``report`` (how figures
  read, the rotated-deal table, the JSON file), ``joker_cards`` (the card
  names of the games with jokers) and ``cli`` (``--arena``);
* ``gin/`` -- gin's cards, melds, rules, protocol, referee, game loop,
  OpenSpiel shadow, runner, figures, report and ``players/``;
* ``indian/``, ``laydown/`` -- each game family's variants, melds, referee,
  players, runner and report.
"""
