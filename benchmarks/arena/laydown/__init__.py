"""The arena of the lay-down games: Rummy 500 rounds between bots, rotated
over the seats, refereed by code that shares nothing with ``solver`` but
the game's words (the rules: docs/RULES.md's presets, as ``referee`` states them;
``python -m benchmarks --arena --game rummy500``); Rommy (``--game rommy``)
and basic rummy (``--game basic``)
are played by the same referee and players, each game a ``Variant``.

* ``variants`` -- what tells the games apart, as data (``Variant``);
* ``melds`` -- cards, melds (meld order, jokers fixed by their place), layoffs
  and points of our own;
* ``referee`` -- ``Rummy500Round``: one round, every action checked, each
  player's ``PlayerView``, the public history in the spec's JSON form;
* ``hint_players``, ``random_player``, ``advisor_player`` -- the bots;
  ``players`` -- their ``Player`` protocol and registry;
* ``runner`` -- the round loop and the games' figures over rotated deals
  (dealt, shared out to processes and summed up by ``arena.core.rotations``);
  ``report`` -- the Markdown table.
"""
