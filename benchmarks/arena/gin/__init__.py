"""The gin arena: hands and matches to 100 between two bots on mirrored deals,
cross-checked against OpenSpiel.

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
* ``runner`` -- mirrored pairs of hands and of matches; ``stats`` -- what
  each side did; ``report`` -- the Markdown tables.
"""
