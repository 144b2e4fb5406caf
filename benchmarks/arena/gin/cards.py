"""Card encoding of the arena, written again here so the referee shares no
code with ``solver``: a card is ``suit * 13 + rank`` (rank 0 = ace ... 12 =
king; suits S H D C), the same small ints the library uses, so a player can
hand them to ``solver`` as they are.  A set of cards is also a bit mask (bit
``card`` set), which is what the meld search works on.

>>> card_name(22), parse_card("TH"), cards_text([0, 13, 51])
('TH', 22, 'AS AH KC')
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RANK_COUNT = 13
SUIT_COUNT = 4
DECK_SIZE = RANK_COUNT * SUIT_COUNT
HAND_SIZE = 10

# Ace 1, number cards their number, face cards 10: a table, built once.
POINTS: tuple[int, ...] = tuple(min(10, card % RANK_COUNT + 1) for card in range(DECK_SIZE))


def rank_of(card: int) -> int:
    """Rank 0 (ace) .. 12 (king)."""
    return card % RANK_COUNT


def suit_of(card: int) -> int:
    """Suit 0..3 (S H D C)."""
    return card // RANK_COUNT


def card_name(card: int) -> str:
    """``"AS"``, ``"TH"``, ``"KC"``."""
    if not 0 <= card < DECK_SIZE:
        raise ValueError(f"not a card id: {card!r}")
    return RANKS[card % RANK_COUNT] + SUITS[card // RANK_COUNT]


def parse_card(token: str) -> int:
    """The card id of ``"7H"`` (rank then suit, as ``card_name`` writes it)."""
    if len(token) != 2 or token[0].upper() not in RANKS or token[1].upper() not in SUITS:
        raise ValueError(f"unknown card {token!r}")
    return SUITS.index(token[1].upper()) * RANK_COUNT + RANKS.index(token[0].upper())


def parse_cards(text: str) -> tuple[int, ...]:
    """Space-separated card names, in the order given."""
    return tuple(parse_card(token) for token in text.split())


def cards_text(cards: Iterable[int]) -> str:
    """Card names joined by spaces, in the order given."""
    return " ".join(card_name(card) for card in cards)


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of ``cards`` (each card at most once)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


_SUIT_BITS = (1 << RANK_COUNT) - 1
# The cards of every 13-bit suit pattern, per suit: cards_of reads four of
# them instead of walking bit by bit (it runs at every decision).
_SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(suit * RANK_COUNT + r for r in range(RANK_COUNT) if pattern >> r & 1)
          for pattern in range(1 << RANK_COUNT))
    for suit in range(SUIT_COUNT)
)


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a bit mask, lowest id first."""
    return (_SUIT_CARDS[0][mask & _SUIT_BITS] + _SUIT_CARDS[1][mask >> 13 & _SUIT_BITS]
            + _SUIT_CARDS[2][mask >> 26 & _SUIT_BITS] + _SUIT_CARDS[3][mask >> 39 & _SUIT_BITS])


def points_of(mask: int) -> int:
    """Total card points of the cards in ``mask``."""
    return sum(POINTS[card] for card in cards_of(mask))
