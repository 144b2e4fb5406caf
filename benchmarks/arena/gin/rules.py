"""The rules the arena's referee plays: OpenSpiel's gin rummy, with the
undercut on a tie of the standard game.

* Knock at 10 points of deadwood or less, gin bonus 25, undercut bonus 25;
  no layoffs onto gin; no big gin (OpenSpiel has none).
* ``undercut_on_tie``: the defender undercuts when its deadwood after
  layoffs is less than **or equal to** the knocker's (standard and EAAI
  scoring).  OpenSpiel scores a tie 0; ``OPENSPIEL_RULES`` is that scoring,
  used to compare our scores with OpenSpiel's returns.
* Fixed, as OpenSpiel plays them: the first-upcard phase, the wall (the
  stock down to ``WALL_STOCK`` cards), a hand ends unscored on the
  ``MAX_UPCARD_DRAWS``-th draw of the pile top or when two turns in a row
  throw back the card they took from the pile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

WALL_STOCK = 2
MAX_UPCARD_DRAWS = 50
MATCH_TARGET = 100

KnockOutcome = Literal["knock", "gin", "undercut"]


@dataclass(frozen=True, slots=True)
class GinRules:
    """The scoring knobs of a gin hand (public: every player sees them)."""

    knock_limit: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 25
    undercut_on_tie: bool = True

    def __post_init__(self) -> None:
        if not 0 <= self.knock_limit <= 10:
            raise ValueError(f"knock_limit must be 0..10, got {self.knock_limit}")
        if self.gin_bonus < 0 or self.undercut_bonus < 0:
            raise ValueError("bonuses must not be negative")


ARENA_RULES = GinRules()
OPENSPIEL_RULES = GinRules(undercut_on_tie=False)


def settle(knocker_deadwood: int, defender_deadwood: int, rules: GinRules) -> tuple[KnockOutcome, int]:
    """The outcome of a knock and the points it gives the knocker (negative:
    the defender scores them).

    >>> settle(0, 12, ARENA_RULES), settle(4, 9, ARENA_RULES), settle(6, 6, ARENA_RULES)
    (('gin', 37), ('knock', 5), ('undercut', -25))
    >>> settle(6, 6, OPENSPIEL_RULES), settle(7, 3, OPENSPIEL_RULES)
    (('knock', 0), ('undercut', -29))
    """
    if knocker_deadwood == 0:
        return "gin", defender_deadwood + rules.gin_bonus
    if defender_deadwood < knocker_deadwood or (
            defender_deadwood == knocker_deadwood and rules.undercut_on_tie):
        return "undercut", -(knocker_deadwood - defender_deadwood + rules.undercut_bonus)
    return "knock", defender_deadwood - knocker_deadwood
