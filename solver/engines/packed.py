"""The search's packed hand: card counts in one integer, ``BITS`` per type.

Card type ``c`` owns bits ``BITS*c .. BITS*c + BITS-1``; suits are 13
consecutive types, so one suit is one ``SUIT_BITS``-wide slice.  Whole-hand
questions (which types are held, which ranks of a suit) are a few integer
operations.

>>> code = pack([0, 0, 14])
>>> unpack(code)[:2], unpack(code)[14]
([2, 0], 1)
>>> rank_pattern(presence(code), 1)  # suit 1 holds its rank 1 (the 2)
2
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.cards import JOKER, NUM_CARD_TYPES

BITS = 5
"""Bits per card type: up to 31 copies (a hand holds at most 30 cards)."""
FIELD = (1 << BITS) - 1
WEIGHT = tuple(1 << (BITS * c) for c in range(NUM_CARD_TYPES))
SUIT_BITS = BITS * 13
SUIT_MASK = (1 << SUIT_BITS) - 1
FIELD_LOW = sum(WEIGHT)
"""Bit 0 of every field."""


def _signature_masks() -> tuple[int, ...]:
    """Per lead type: the bits of the counts that shape its options (its suit
    for runs and layoffs, its rank across suits for sets)."""
    masks = []
    for card in range(NUM_CARD_TYPES):
        if card == JOKER:
            masks.append(FIELD << (BITS * card))
            continue
        suit, rank = divmod(card, 13)
        mask = ((1 << (BITS * 13)) - 1) << (BITS * 13 * suit)
        for s in range(4):
            mask |= FIELD << (BITS * (13 * s + rank))
        masks.append(mask)
    return tuple(masks)


SIGNATURE = _signature_masks()
"""``code & SIGNATURE[lead]``: what of a hand shapes the options of ``lead``
(the search's row caches are keyed by it)."""
LEAD_SHIFT = BITS * NUM_CARD_TYPES + 8
"""Where the lead type goes in a row key, above every count bit."""


def pack(cards: Sequence[int]) -> int:
    """The packed count code of ``cards``."""
    code = 0
    for card in cards:
        code += WEIGHT[card]
    return code


def unpack(code: int) -> list[int]:
    """Copies of each card type in a packed code."""
    return [(code >> (BITS * c)) & FIELD for c in range(NUM_CARD_TYPES)]


def presence(code: int) -> int:
    """Bit 0 of each field set where the code holds at least one copy."""
    return (code | code >> 1 | code >> 2 | code >> 3 | code >> 4) & FIELD_LOW


_PATTERNS: dict[int, int] = {}


def _spread_table() -> tuple[int, ...]:
    table = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = mask & -mask
        table[mask] = table[mask ^ low] + WEIGHT[low.bit_length() - 1]
    return tuple(table)


_SPREAD = _spread_table()


def rank_pattern(present: int, suit: int) -> int:
    """The 13-bit rank mask of ``suit`` in a ``presence`` code."""
    spaced = (present >> (SUIT_BITS * suit)) & SUIT_MASK
    pattern = _PATTERNS.get(spaced)
    if pattern is None:
        pattern = 0
        for rank in range(13):
            if spaced >> (BITS * rank) & 1:
                pattern |= 1 << rank
        _PATTERNS[spaced] = pattern
    return pattern


def spread(pattern: int, suit: int) -> int:
    """One copy of each rank of the 13-bit ``pattern`` in ``suit``, packed."""
    return _SPREAD[pattern] << (SUIT_BITS * suit)
