"""Cards and stacked decks for the lay-down arena tests (Rummy 500, Rommy,
basic rummy): the games differ only in the deck they deal from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from benchmarks.arena.joker_cards import parse_card, parse_cards


def cards(text: str) -> tuple[int, ...]:
    """The arena's card ids of ``text`` (names with spaces), in order."""
    return tuple(parse_cards(text))


def c(text: str) -> int:
    """The arena's card id of one name."""
    return parse_card(text)


def stacked(deck: Sequence[int], hands: Sequence[str], upcard: str,
            stock: str = "") -> list[int]:
    """``deck`` reordered to deal ``hands`` (seat order) and ``upcard``; the
    stock starts with ``stock`` and goes on with the other cards in id order."""
    top = [*(card for text in hands for card in cards(text)), c(upcard), *cards(stock)]
    rest = Counter(deck)
    rest.subtract(top)
    return top + sorted(rest.elements())
