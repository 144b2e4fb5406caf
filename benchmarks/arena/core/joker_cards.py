"""Card names of the arena's games with jokers (Indian rummy, Rummy 500),
written again here so their referees share no code with ``solver``.

Cards are the arena's ints, ``suit * 13 + rank`` (suits S H D C, rank 0 =
ace ... 12 = king), and 52 for a joker; both referees (and their players)
name cards the way the library parses them.

>>> card_name(20), parse_card("8H"), names([0, 22, JOKER])
('8H', 20, ['AS', 'TH', 'JK'])
>>> parse_cards("10h JK") == [parse_card("TH"), JOKER]
True
"""

from __future__ import annotations

from collections.abc import Iterable

JOKER = 52
RANKS = 13
SUITS = 4
RANK_NAMES = "A23456789TJQK"
SUIT_NAMES = "SHDC"


def card_name(card: int) -> str:
    """``"AS"``, ``"TH"``, ``"JK"``."""
    if card == JOKER:
        return "JK"
    if not 0 <= card < JOKER:
        raise ValueError(f"no card {card!r}")
    return RANK_NAMES[card % RANKS] + SUIT_NAMES[card // RANKS]


def parse_card(token: str) -> int:
    """The card named ``token`` (``card_name``'s inverse; ``10`` for a ten is accepted)."""
    text = token.strip().upper()
    if text == "JK":
        return JOKER
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANK_NAMES or text[1] not in SUIT_NAMES:
        raise ValueError(f"unknown card {token!r}")
    return SUIT_NAMES.index(text[1]) * RANKS + RANK_NAMES.index(text[0])


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Cards from names, separated by spaces or given as a list."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def names(cards: Iterable[int]) -> list[str]:
    """The names of ``cards``, in order (what the library parses)."""
    return [card_name(c) for c in cards]
