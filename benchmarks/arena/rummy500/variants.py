"""What tells the games of this arena apart, as data: Rummy 500 and Rommy.

Rommy (Danish "500", notes/rommy_spec.md) is played like Rummy 500
(notes/rummy500_spec.md) but for a handful of numbers and two rules; each
game is one frozen ``Variant``, and the referee, its meld reader and the
players read these fields instead of asking which game it is:

* ``hand_sizes`` -- the players a table seats and the cards each gets;
* ``points`` -- what a card counts, in hand and on the table (``CardPoints``);
* ``pile_penalty`` -- a card taken from below the pile top and not used in
  that turn's play: None, the play is refused (Rummy 500); else the points
  charged, the take standing (Rommy: 50);
* ``must_throw`` -- every turn ends with a throw, also the one that empties
  the hand (Rommy); else a play may empty the hand without one (Rummy 500).

>>> ROMMY.hand_size(6), RUMMY500.hand_size(2), ROMMY.points.of(52), RUMMY500.points.of(52)
(7, 13, 25, 15)
>>> [ROMMY.points.of(card) for card in (0, 1, 8, 9, 12)]  # AS 2S 9S TS KS
[15, 5, 5, 10, 10]
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.arena.joker_cards import JOKER, RANKS

DECK_SIZE = 54
"""One deck of 52 cards and two jokers, the deck of both games."""
FIRST_COURT_RANK = 9
"""The rank of the ten (rank 0 is the ace): ten to king count ``court``."""


@dataclass(frozen=True, slots=True)
class CardPoints:
    """What a card counts: ``joker``, ``ace`` (``low_ace`` when melded as the
    low ace of a run, A-2-3), ``court`` for T J Q K, and ``pip`` for 2-9 (None:
    their number)."""

    joker: int
    ace: int
    low_ace: int
    court: int
    pip: int | None

    def __post_init__(self) -> None:
        values = (self.joker, self.ace, self.low_ace, self.court, self.pip or 1)
        if any(value < 1 for value in values):
            raise ValueError(f"every card counts at least 1 point: {self}")

    def of(self, card: int) -> int:
        """What ``card`` counts in hand (and melded, but as a low ace)."""
        if card == JOKER:
            return self.joker
        rank = card % RANKS
        if rank == 0:
            return self.ace
        if rank >= FIRST_COURT_RANK:
            return self.court
        return rank + 1 if self.pip is None else self.pip


@dataclass(frozen=True, slots=True)
class Variant:
    """One game's rules, as the referee and the players read them (see the module docstring)."""

    name: str
    """The game as the library and the command line name it (``rummy500``, ``rommy``);
    also the name of its random streams (decks, seeds)."""
    label: str
    """The game as messages and reports name it."""
    hand_sizes: tuple[tuple[int, int], ...]
    """(players, cards each), for every table size the game seats."""
    points: CardPoints
    pile_penalty: int | None
    """Points charged for a deeper card taken and not used; None: such a play is refused."""
    must_throw: bool
    """Every turn ends with a throw, the closing one too."""

    def __post_init__(self) -> None:
        for players, size in self.hand_sizes:
            if players < 2 or size < 1 or players * size + 1 > DECK_SIZE:
                raise ValueError(f"{self.label}: {players} players with {size} cards each do "
                                 f"not fit one deck of {DECK_SIZE} with an upcard")
        if self.pile_penalty is not None and self.pile_penalty < 1:
            raise ValueError(f"{self.label}: a pile penalty is at least 1 point")

    @property
    def seats(self) -> tuple[int, ...]:
        """The table sizes the game seats."""
        return tuple(players for players, _ in self.hand_sizes)

    def hand_size(self, players: int) -> int:
        """Cards dealt to each of ``players`` (``ValueError`` when the game does not seat them)."""
        for seated, size in self.hand_sizes:
            if seated == players:
                return size
        low, high = min(self.seats), max(self.seats)
        raise ValueError(f"{self.label} seats {low} to {high} players here, not {players}")


RUMMY500_POINTS = CardPoints(joker=15, ace=15, low_ace=1, court=10, pip=None)
ROMMY_POINTS = CardPoints(joker=25, ace=15, low_ace=15, court=10, pip=5)

RUMMY500 = Variant("rummy500", "Rummy 500", ((2, 13), (3, 7), (4, 7)), RUMMY500_POINTS,
                   pile_penalty=None, must_throw=False)
ROMMY = Variant("rommy", "Rommy", tuple((players, 7) for players in range(2, 7)), ROMMY_POINTS,
                pile_penalty=50, must_throw=True)

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (RUMMY500, ROMMY)}
