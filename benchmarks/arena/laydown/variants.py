"""What tells the games of this arena apart, as data: Rummy 500, Rommy and basic rummy.

Rommy (Danish "500") and basic rummy are played like Rummy 500 (docs/RULES.md's
presets ``rommy``, ``basic``, ``rummy500``)
but for a handful of numbers and rules; each game is one frozen
``Variant``, and the referee, its meld reader and the players read these
fields instead of asking which game it is:

* ``hand_sizes`` -- the players a table seats and the cards each gets;
* ``points`` -- what a card counts, in hand and on the table (``CardPoints``);
* ``pile_penalty`` -- a card taken from below the pile top and not used in
  that turn's play: None, the play is refused (Rummy 500); else the points
  charged, the take standing (Rommy: 50);
* ``must_throw`` -- every turn ends with a throw, also the one that empties
  the hand (Rommy); else a play may empty the hand without one (Rummy 500,
  basic rummy);
* ``jokers`` -- the deck's jokers besides its 52 cards (basic rummy: none);
* ``two_decks_from`` -- the smallest table dealt from two such decks
  shuffled together, every card twice and twice the jokers (Rummy 500: 5 to
  8 players, 108 cards; ``decks``, ``cards_for``); None: one deck at every
  size (Rommy, basic rummy);
* ``ace_high`` -- an ace may also end a run high, Q-K-A (never both ends);
  else the ace is low only (basic rummy);
* ``deep_takes`` -- the pile may be taken down to a deeper card; else its
  top card only (basic rummy);
* ``turn_over_pile`` -- a draw from an empty stock first turns the whole pile
  over, unshuffled, into a new stock (its bottom card drawn first), so there
  is no ``pass`` (basic rummy); else a player facing an empty stock may pass,
  which ends the round;
* ``scoring`` -- ``net``: each player scores what it laid less what it holds
  (Rummy 500, Rommy); ``collect``: the player who goes out collects every
  other hand's points, each other player pays its own, nobody scores when
  nobody went out (basic rummy); ``rummy_doubles``: every payment doubled
  when the winner laid no card before its last turn (a "rummy").

>>> ROMMY.hand_size(6), RUMMY500.hand_size(2), ROMMY.points.of(52), RUMMY500.points.of(52)
(7, 13, 25, 15)
>>> [ROMMY.points.of(card) for card in (0, 1, 8, 9, 12)]  # AS 2S 9S TS KS
[15, 5, 5, 10, 10]
>>> BASIC.hand_size(2), BASIC.hand_size(5), len(BASIC.deck), len(RUMMY500.deck)
(10, 6, 52, 54)
>>> [BASIC.points.of(card) for card in (0, 1, 8, 9, 12)]
[1, 2, 9, 10, 10]
>>> RUMMY500.decks(4), RUMMY500.decks(5), len(RUMMY500.cards_for(8)), ROMMY.decks(6)
(1, 2, 108, 1)
>>> RUMMY500.hand_size(8), RUMMY500.deck_label(8), RUMMY500.cards_for(4) == RUMMY500.deck
(7, 'two decks, 108 cards', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from benchmarks.arena.core.joker_cards import JOKER, RANKS

CARDS = 52
"""One deck without its jokers."""
DECK_SIZE = 54
"""One deck of 52 cards and two jokers, the deck of Rummy 500 (at 2 to 4 players) and Rommy."""
FIRST_COURT_RANK = 9
"""The rank of the ten (rank 0 is the ace): ten to king count ``court``."""

Scoring = Literal["net", "collect"]


@dataclass(frozen=True, slots=True)
class CardPoints:
    """What a card counts: ``joker`` (None: the game has none), ``ace``
    (``low_ace`` when melded as the low ace of a run, A-2-3), ``court`` for
    T J Q K, and ``pip`` for 2-9 (None: their number)."""

    joker: int | None
    ace: int
    low_ace: int
    court: int
    pip: int | None

    def __post_init__(self) -> None:
        values = (1 if self.joker is None else self.joker, self.ace, self.low_ace, self.court,
                  self.pip or 1)
        if any(value < 1 for value in values):
            raise ValueError(f"every card counts at least 1 point: {self}")

    def of(self, card: int) -> int:
        """What ``card`` counts in hand (and melded, but as a low ace)."""
        if card == JOKER:
            if self.joker is None:
                raise ValueError("a joker in a game without jokers")
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
    """The game as the library and the command line name it (``rummy500``, ``rommy``,
    ``basic``); also the name of its random streams (decks, seeds)."""
    label: str
    """The game as messages and reports name it."""
    hand_sizes: tuple[tuple[int, int], ...]
    """(players, cards each), for every table size the game seats."""
    points: CardPoints
    pile_penalty: int | None
    """Points charged for a deeper card taken and not used; None: such a play is refused."""
    must_throw: bool
    """Every turn ends with a throw, the closing one too."""
    jokers: int = 2
    """Jokers in the deck, besides its 52 cards."""
    two_decks_from: int | None = None
    """The smallest table dealt from two decks shuffled together (each card twice,
    twice the jokers); None: one deck at every size."""
    ace_high: bool = True
    """An ace may end a run high (Q-K-A) as well as low (A-2-3); else low only."""
    deep_takes: bool = True
    """The pile may be taken down to a card below its top; else the top card only."""
    turn_over_pile: bool = False
    """A draw from an empty stock turns the pile over into a new stock (no ``pass``)."""
    scoring: Scoring = "net"
    """``net``: laid points less hand points; ``collect``: the player who goes out
    collects the other hands' points."""
    rummy_doubles: bool = False
    """Collect scoring: a winner who laid no card before its last turn doubles every payment."""
    house_rules: tuple[tuple[str, object], ...] = ()
    """The rule book's knobs this table changed (``with_house``), as the
    library's players are told them (``rules``); empty: the game as published."""

    def __post_init__(self) -> None:
        if not 0 <= self.jokers <= 2 or (self.jokers == 0) != (self.points.joker is None):
            raise ValueError(f"{self.label}: {self.jokers} joker(s) in the deck, and the "
                             "card points give a joker's only when there is one")
        if self.two_decks_from is not None and self.two_decks_from not in self.seats:
            raise ValueError(f"{self.label}: two decks from {self.two_decks_from} players, "
                             "a table size the game does not seat")
        for players, size in self.hand_sizes:
            cards = len(self.cards_for(players))
            if players < 2 or size < 1 or players * size + 1 > cards:
                raise ValueError(f"{self.label}: {players} players with {size} cards each do "
                                 f"not fit {self._decks_named(players)} of {cards} with an "
                                 "upcard")
        if self.pile_penalty is not None and self.pile_penalty < 1:
            raise ValueError(f"{self.label}: a pile penalty is at least 1 point")
        if self.pile_penalty is not None and not self.deep_takes:
            raise ValueError(f"{self.label}: a pile penalty charges a card taken from below "
                             "the top, and the game takes the top card only")
        if self.rummy_doubles and self.scoring != "collect":
            raise ValueError(f"{self.label}: a rummy doubles a collect score only")

    @property
    def seats(self) -> tuple[int, ...]:
        """The table sizes the game seats."""
        return tuple(players for players, _ in self.hand_sizes)

    @property
    def deck(self) -> tuple[int, ...]:
        """One deck of the game: its cards, each once, the jokers last (the order a
        one-deck table's cards are shuffled from; ``cards_for`` a table's)."""
        return (*range(CARDS), *(JOKER,) * self.jokers)

    def decks(self, players: int) -> int:
        """How many decks a table of ``players`` is dealt from (1 or 2)."""
        two = self.two_decks_from is not None and players >= self.two_decks_from
        return 2 if two else 1

    def cards_for(self, players: int) -> tuple[int, ...]:
        """The cards of a table of ``players``, in the order they are shuffled from:
        the 52 cards ``decks(players)`` times over, then every deck's jokers
        (one deck: ``deck``)."""
        decks = self.decks(players)
        return (*range(CARDS),) * decks + (JOKER,) * (self.jokers * decks)

    def deck_label(self, players: int) -> str:
        """The cards of a table of ``players`` in words: ``one deck, 54 cards``,
        ``two decks, 108 cards``."""
        return f"{self._decks_named(players)}, {len(self.cards_for(players))} cards"

    def _decks_named(self, players: int) -> str:
        return "one deck" if self.decks(players) == 1 else "two decks"

    @property
    def passes(self) -> bool:
        """Whether a player facing an empty stock may pass (ending the round):
        not where the pile is turned over into a new stock."""
        return not self.turn_over_pile

    def hand_size(self, players: int) -> int:
        """Cards dealt to each of ``players`` (``ValueError`` when the game does not seat them)."""
        for seated, size in self.hand_sizes:
            if seated == players:
                return size
        low, high = min(self.seats), max(self.seats)
        raise ValueError(f"{self.label} seats {low} to {high} players here, not {players}")


RUMMY500_POINTS = CardPoints(joker=15, ace=15, low_ace=1, court=10, pip=None)
ROMMY_POINTS = CardPoints(joker=25, ace=15, low_ace=15, court=10, pip=5)
BASIC_POINTS = CardPoints(joker=None, ace=1, low_ace=1, court=10, pip=None)

RUMMY500 = Variant("rummy500", "Rummy 500", ((2, 13), *((players, 7) for players in range(3, 9))),
                   RUMMY500_POINTS, pile_penalty=None, must_throw=False, two_decks_from=5)
ROMMY = Variant("rommy", "Rommy", tuple((players, 7) for players in range(2, 7)), ROMMY_POINTS,
                pile_penalty=50, must_throw=True)
BASIC = Variant("basic", "Basic rummy", ((2, 10), (3, 7), (4, 7), (5, 6), (6, 6)), BASIC_POINTS,
                pile_penalty=None, must_throw=False, jokers=0, ace_high=False, deep_takes=False,
                turn_over_pile=True, scoring="collect", rummy_doubles=True)

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (RUMMY500, ROMMY, BASIC)}


def with_house(variant: Variant, knobs: Mapping[str, object]) -> Variant:
    """``variant`` under a house's rules, named by the rule book's knobs
    (docs/RULES.md): ``ace_points``, ``ace_low_run_points`` (an ace melded
    low; when the game scores it as any ace, a new ``ace_points`` moves it
    too), ``pip_points``, ``court_points``, ``joker_points``,
    ``jokers_per_deck`` (0 to 2), ``ace`` (``low`` or ``high_low``),
    ``pile_penalty`` (a game that charges one) and ``rummy_doubles`` (a
    collect score); ``ValueError`` for any other.  The referee reads the
    fields; the knobs are kept to tell the library's players.

    >>> house = with_house(ROMMY, {"ace_points": 20, "joker_points": 50, "pile_penalty": 30})
    >>> house.points.of(0), house.points.low_ace, house.points.of(JOKER), house.pile_penalty
    (20, 20, 50, 30)
    >>> with_house(RUMMY500, {"ace": "low", "jokers_per_deck": 0}).ace_high
    False
    """
    known = {"ace_points", "ace_low_run_points", "pip_points", "court_points", "joker_points",
             "jokers_per_deck", "ace", "pile_penalty", "rummy_doubles"}
    unknown = sorted(set(knobs) - known)
    if unknown:
        raise ValueError(f"{variant.label}: the arena plays these house knobs only: "
                         f"{', '.join(sorted(known))}; not {', '.join(unknown)}")
    points = variant.points
    ace = _int_knob(knobs, "ace_points", points.ace)
    low_ace = _int_knob(knobs, "ace_low_run_points",
                        ace if points.low_ace == points.ace else points.low_ace)
    jokers = _int_knob(knobs, "jokers_per_deck", variant.jokers)
    joker = _int_knob(knobs, "joker_points", points.joker or 0) if jokers else None
    pip = knobs.get("pip_points", points.pip)
    if pip is not None and not isinstance(pip, int):
        raise ValueError(f"pip_points must be a whole number or null, not {pip!r}")
    new_points = CardPoints(joker, ace, low_ace, _int_knob(knobs, "court_points", points.court),
                            pip)
    ace_high = {"low": False, "high_low": True}.get(
        str(knobs.get("ace", "high_low" if variant.ace_high else "low")))
    if ace_high is None:
        raise ValueError(f"ace must be low or high_low, not {knobs['ace']!r}")
    if "pile_penalty" in knobs and variant.pile_penalty is None:
        raise ValueError(f"{variant.label} charges no pile penalty")
    if "rummy_doubles" in knobs and (variant.scoring != "collect"
                                     or not isinstance(knobs["rummy_doubles"], bool)):
        raise ValueError(f"{variant.label}: rummy_doubles is a collect score's, true or false")
    return replace(
        variant, label=f"{variant.label} (house rules)", points=new_points, jokers=jokers,
        ace_high=ace_high,
        pile_penalty=_int_knob(knobs, "pile_penalty", variant.pile_penalty or 0)
        if variant.pile_penalty is not None else None,
        rummy_doubles=bool(knobs.get("rummy_doubles", variant.rummy_doubles)),
        house_rules=tuple(sorted(knobs.items())))


def _int_knob(knobs: Mapping[str, object], name: str, default: int) -> int:
    value = knobs.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return value
