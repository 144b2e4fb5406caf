"""Rummy 500, Rommy and basic rummy cards, melds and points, written again for the
referee: no ``solver`` import.

Cards are ints ``suit * 13 + rank`` (suits S H D C, rank 0 = ace ... 12 =
king) and 52 for a joker; a deck holds each card once and two jokers, and
a table of two decks (Rummy 500 at 5 to 8 players) each card twice: a group
may then hold two copies of a card, which no meld takes (a set holds each
suit once, a run each rank once).
``benchmarks.arena.core.joker_cards`` names them (``card_name``, ``parse_card``),
for the Indian referee too: arena code, not the library's.

* ``read_meld(cards)`` -- a group given in meld order, read as a run (one
  suit, low to high, each joker standing for the card of its place; the ace
  low, A-2-3, or high, Q-K-A, never both: no K-A-2; with ``ace_high=False``,
  basic rummy's, low only: no Q-K-A) or else as a set (3 or 4 cards of one
  rank in distinct suits, each joker standing for a missing suit); every
  meld holds a natural card.  ``meld_problem`` says why a group is no meld;
* ``read_extension(old, extended)`` -- a table meld after a layoff: the old
  cards in their places (a set: anywhere) plus the cards added, still a meld
  of the same kind, so every joker keeps its meaning;
* points: the game's ``CardPoints`` (``benchmarks.arena.laydown.variants``),
  Rummy 500's unless told: 2-9 their number, T J Q K 10, ace 15 (1 melded as
  the low ace of a run), joker 15 wherever it stands; Rommy's: 2-9 5, T J Q K
  10, ace 15 wherever it stands, joker 25; basic rummy's: ace 1, 2-9 their
  number, T J Q K 10, no joker.  A card in hand counts as it is.  The games
  meld alike but for basic rummy's ace (``Variant.ace_high``).

>>> from benchmarks.arena.core.joker_cards import parse_cards
>>> read_meld(parse_cards("5H 6H JK")).represents == tuple(parse_cards("5H 6H 7H"))
True
>>> print(meld_problem(parse_cards("KH AH 2H")).split(" and ")[0])
KH AH 2H is no meld: not a run (the ace is low, A-2-3, or high, Q-K-A, never both: no K-A-2)
>>> read_meld(parse_cards("AH 2H 3H")).points, read_meld(parse_cards("QH KH AH")).points
((1, 2, 3), (10, 10, 15))
>>> from benchmarks.arena.laydown.variants import ROMMY_POINTS
>>> read_meld(parse_cards("AH 2H JK"), points=ROMMY_POINTS).points
(15, 5, 25)
>>> print(meld_problem(parse_cards("QH KH AH"), ace_high=False).split(" and ")[0])
QH KH AH is no meld: not a run (the ace is low only, A-2-3: no Q-K-A)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from benchmarks.arena.core.joker_cards import JOKER, RANKS, SUITS, card_name
from benchmarks.arena.laydown.variants import RUMMY500_POINTS, CardPoints

HIGH_ACE = 13
"""The run coordinate of an ace above the king (0 is the ace below the two)."""
MAX_RUN = 13
MAX_SET = 4
MIN_MELD = 3
JOKER_POINTS = RUMMY500_POINTS.of(JOKER)
ACE_POINTS = RUMMY500_POINTS.ace
LOW_ACE_POINTS = RUMMY500_POINTS.low_ace

MeldKind = Literal["run", "set"]


class InvalidMeldError(ValueError):
    """A group of cards is not a meld (or not a layoff of the meld it extends)."""


def card_points(card: int, points: CardPoints = RUMMY500_POINTS) -> int:
    """What ``card`` counts in hand (and melded, but as a low ace): Rummy 500's
    joker and ace 15 unless ``points`` says otherwise."""
    return points.of(card)


def hand_points(cards: Iterable[int], points: CardPoints = RUMMY500_POINTS) -> int:
    """What a hand left at the end of a round costs."""
    return sum(points.of(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld as read: ``cards[i]`` (meld order) stands for ``represents[i]``
    and scores ``points[i]``; ``low`` is a run's first coordinate (0 = a low
    ace, 13 = a high ace), None for a set."""

    kind: MeldKind
    cards: tuple[int, ...]
    represents: tuple[int, ...]
    points: tuple[int, ...]
    low: int | None

    @property
    def total(self) -> int:
        """The meld's points."""
        return sum(self.points)


def _joined(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def _run(cards: Sequence[int], scale: CardPoints, ace_high: bool) -> Meld | str:
    """``cards`` read as a run (an ace high too when ``ace_high``), or why they are not one."""
    naturals = [(i, c) for i, c in enumerate(cards) if c != JOKER]
    if not naturals:
        return "it has no natural card"
    suits = {c // RANKS for _, c in naturals}
    if len(suits) > 1:
        return "its natural cards are of more than one suit"
    if len(cards) > MAX_RUN:
        return f"a run has at most {MAX_RUN} cards"
    first_index, first = naturals[0]
    top = HIGH_ACE if ace_high else HIGH_ACE - 1  # the high ace's place, or the king's
    coordinates = (0, HIGH_ACE) if first % RANKS == 0 else (first % RANKS,)
    for coordinate in coordinates:
        low = coordinate - first_index
        high = low + len(cards) - 1
        if low < 0 or high > top:
            continue
        if all((low + i) % RANKS == c % RANKS for i, c in naturals):
            base = suits.pop() * RANKS
            represents = tuple(base + (low + i) % RANKS for i in range(len(cards)))
            points = tuple(scale.low_ace if low + i == 0 and c != JOKER else scale.of(c)
                           for i, c in enumerate(cards))
            return Meld("run", tuple(cards), represents, points, low)
    if all((first % RANKS - first_index + i) % RANKS == c % RANKS for i, c in naturals):
        if not ace_high:
            return "the ace is low only, A-2-3: no Q-K-A"
        return "the ace is low, A-2-3, or high, Q-K-A, never both: no K-A-2"
    return "its cards are not in sequence from low to high (a joker stands for the card of its place)"


def _set(cards: Sequence[int], scale: CardPoints) -> Meld | str:
    """``cards`` read as a set, or why they are not one."""
    naturals = [c for c in cards if c != JOKER]
    if not naturals:
        return "it has no natural card"
    if len({c % RANKS for c in naturals}) > 1:
        return "its natural cards are of more than one rank"
    suits = [c // RANKS for c in naturals]
    if len(set(suits)) != len(suits):
        return "two of its cards are of one suit"
    if len(cards) > MAX_SET:
        return (f"a set has at most {MAX_SET} cards, one per suit: a joker stands for a "
                "missing suit, so four of a kind and a joker is no set")
    rank = naturals[0] % RANKS
    missing = iter(s for s in range(SUITS) if s not in suits)
    represents = tuple(c if c != JOKER else next(missing) * RANKS + rank for c in cards)
    return Meld("set", tuple(cards), represents, tuple(scale.of(c) for c in cards), None)


def _reading(cards: Sequence[int], kind: MeldKind | None,
             scale: CardPoints = RUMMY500_POINTS, ace_high: bool = True) -> Meld | str:
    if len(cards) < MIN_MELD:
        return f"a meld has at least {MIN_MELD} cards"
    if any(not isinstance(c, int) or not 0 <= c <= JOKER for c in cards):
        return "it holds something that is not a card"
    twice = sorted(card for card, count in Counter(cards).items() if count > 1 and card != JOKER)
    if twice:  # two decks: two copies of a card never meld together
        return (f"it holds {_joined(twice)} twice (a run holds each rank once, a set each "
                "suit once)")
    reasons = []
    if kind in (None, "run"):
        run = _run(cards, scale, ace_high)
        if isinstance(run, Meld):
            return run
        reasons.append(f"not a run ({run})")
    if kind in (None, "set"):
        found = _set(cards, scale)
        if isinstance(found, Meld):
            return found
        reasons.append(f"not a set ({found})")
    return " and ".join(reasons)


def meld_problem(cards: Sequence[int], kind: MeldKind | None = None, *,
                 ace_high: bool = True) -> str | None:
    """Why ``cards`` (meld order) are no meld (of ``kind``, when given; the
    ace low only unless ``ace_high``); None: they are."""
    found = _reading(cards, kind, ace_high=ace_high)
    if isinstance(found, Meld):
        return None
    return f"{_joined(cards)} is no meld: {found}"


def read_meld(cards: Sequence[int], kind: MeldKind | None = None,
              points: CardPoints = RUMMY500_POINTS, *, ace_high: bool = True) -> Meld:
    """``cards`` (meld order) read as a meld: a run when they read as one,
    else a set (``kind`` forces one), each card scoring as ``points`` say, an
    ace ending a run high only when ``ace_high``; ``InvalidMeldError`` saying
    why not."""
    found = _reading(cards, kind, points, ace_high)
    if isinstance(found, Meld):
        return found
    raise InvalidMeldError(f"{_joined(cards)} is no meld: {found}")


def _run_offset(old: Sequence[int], extended: Sequence[int]) -> int | None:
    """Where the table run ``old`` lies whole inside ``extended`` (how many
    cards are added below it), None when it does not (with a copy of one of
    its cards added too, where the run lies whole: the copy is then refused
    as no run)."""
    span = len(old)
    return next((offset for offset in range(len(extended) - span + 1)
                 if tuple(extended[offset:offset + span]) == tuple(old)), None)


@dataclass(frozen=True, slots=True)
class Extension:
    """A layoff as read: the meld afterwards, the cards added and their points."""

    meld: Meld
    added: tuple[int, ...]
    points: int
    offset: int
    """Cards added before the old ones (a run; 0 for a set)."""


def read_extension(old: Meld, extended: Sequence[int],
                   points: CardPoints = RUMMY500_POINTS, *, ace_high: bool = True) -> Extension:
    """``extended`` (meld order) as ``old`` with cards laid off: a run keeps
    its cards in their places and grows at either end (an ace high only when
    ``ace_high``), a set takes cards anywhere; the result is a meld of the
    same kind, so every joker keeps its meaning; the cards added score as
    ``points`` say.  ``InvalidMeldError`` saying why not."""
    was, now = _joined(old.cards), _joined(extended)
    if len(extended) <= len(old.cards):
        raise InvalidMeldError(f"{now} does not add a card to the table meld {was}")
    if old.kind == "set":
        left = Counter(extended)
        left.subtract(old.cards)
        if any(count < 0 for count in left.values()):
            raise InvalidMeldError(f"{now} does not hold every card of the table meld {was}")
        added = list(extended)
        for card in old.cards:
            added.remove(card)
        offset = 0
    else:
        found_offset = _run_offset(old.cards, extended)
        if found_offset is None:
            raise InvalidMeldError(f"{now} does not keep the table run {was} in its place "
                                   "(a run grows only at its ends)")
        offset = found_offset
        added = [*extended[:offset], *extended[offset + len(old.cards):]]
    found = _reading(extended, old.kind, points, ace_high)
    if not isinstance(found, Meld):
        raise InvalidMeldError(f"laying off onto {was}: {now} is no {old.kind}: {found}")
    if old.kind == "run" and found.represents[offset:offset + len(old.cards)] != old.represents:
        raise InvalidMeldError(f"laying off onto {was}: a joker would change its meaning")
    if old.kind == "run":
        scored = sum(found.points[:offset]) + sum(found.points[offset + len(old.cards):])
    else:
        scored = sum(points.of(c) for c in added)
    return Extension(found, tuple(added), scored, offset)
