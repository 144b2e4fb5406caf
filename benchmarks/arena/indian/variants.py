"""What tells the Indian rummy games of the arena apart, as data: ``indian13`` and ``indian21``.

One referee (``referee.IndianDeal``), one meld reader (``melds``) and one
set of players serve both games; each game is a frozen ``IndianVariant``
whose fields they read instead of asking which game it is (docs/RULES.md
sections 2.3-2.5, 4.4-4.5, 5.3, 10 and the presets of section 11):

* ``decks``, ``jokers_per_deck``, ``hand_size`` -- the deck (two decks and
  a joker each, 106 cards, 13 dealt; three decks and a joker each, 159
  cards, 21 dealt);
* ``neighbour_jokers`` -- the cards one rank below and above the cut card,
  in its suit (the lower and upper jokers), are wild too (a cut ace: the K
  and the 2; a cut king: the Q and the ace);
* ``tanala`` -- three identical cards are a meld that counts as a pure
  sequence;
* ``min_pure``, ``min_sequences`` -- what a show needs besides every card
  melded (13 cards: two sequences, one of them pure; 21 cards: three pure
  sequences, tanalas counting);
* ``count`` -- how a loser's count is found: ``cascade`` (13 cards: with the
  show's requirements only the unmelded cards count, with a pure sequence
  alone every card but that sequence's, else every card) or ``marriage`` (21
  cards: with three pure sequences only the unmelded cards count, else every
  card but the wild cards and at most two pure sequences, the least of
  both);
* ``value_cards`` -- the cut card and its lower and upper jokers are value
  cards (``value_card_points`` each, a marriage of one of each
  ``marriage_points``), settled between all players;
* ``rules`` -- the scoring knobs by default (``IndianRules``: the cap, the
  drops, the wrong show, the value cards);
* ``seeds`` -- the name of the deals' random streams.

>>> len(INDIAN13.deck), len(INDIAN21.deck), INDIAN21.deck.count(52)
(106, 159, 3)
>>> INDIAN13.rules.cap, INDIAN21.rules.cap, INDIAN21.rules.marriage_points
(80, None, 100)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from benchmarks.arena.core.joker_cards import JOKER

CARDS = 52
"""One deck without its jokers."""


@dataclass(frozen=True, slots=True)
class IndianRules:
    """The scoring knobs the referee applies (docs/RULES.md section 12):
    ``cap`` on a loser's count (None: no cap), the drops, the wrong show,
    and the value cards (``indian21``)."""

    cap: int | None = 80
    drop_first: int = 10
    drop_middle: int = 40
    wrong_declaration: int = 80
    value_card_points: int = 10
    marriage_points: int = 100


@dataclass(frozen=True, slots=True)
class IndianVariant:
    """One Indian rummy game (see the module docstring)."""

    game: str
    """The library's name of the game (what the players pass to it)."""
    label: str
    """The game as reports name it."""
    decks: int
    jokers_per_deck: int
    hand_size: int
    neighbour_jokers: bool
    tanala: bool
    min_pure: int
    min_sequences: int
    count: Literal["cascade", "marriage"]
    value_cards: bool
    seeds: str
    rules: IndianRules = field(default_factory=IndianRules)

    @property
    def deck(self) -> tuple[int, ...]:
        """Every card of a deal, sorted (each card ``decks`` times, the jokers)."""
        return tuple(sorted([*range(CARDS)] * self.decks
                            + [JOKER] * (self.decks * self.jokers_per_deck)))


INDIAN13 = IndianVariant(
    game="indian13", label="Indian 13", decks=2, jokers_per_deck=1, hand_size=13,
    neighbour_jokers=False, tanala=False, min_pure=1, min_sequences=2, count="cascade",
    value_cards=False, seeds="indian", rules=IndianRules())
INDIAN21 = IndianVariant(
    game="indian21", label="Indian 21", decks=3, jokers_per_deck=1, hand_size=21,
    neighbour_jokers=True, tanala=True, min_pure=3, min_sequences=3, count="marriage",
    value_cards=True, seeds="indian21", rules=IndianRules(cap=None))
VARIANTS: dict[str, IndianVariant] = {v.game: v for v in (INDIAN13, INDIAN21)}
