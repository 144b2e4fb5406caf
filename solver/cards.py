"""Card encoding: small ints, parsing and formatting that round-trip.

A standard card is ``suit * 13 + rank`` with rank 0 = ace ... 12 = king and
suit 0..3 = spades, hearts, diamonds, clubs; the printed joker is ``JOKER``
(52).  ``parse_card("TH") == 22`` and ``card_name(22) == "TH"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from solver.errors import InvalidHandError as InvalidHandError  # raised here, defined there
from solver.errors import plain_int, shown

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = 52
NUM_CARD_TYPES = 53

_SUIT_ALIASES = {
    "S": 0, "H": 1, "D": 2, "C": 3,
    "♠": 0, "♥": 1, "♦": 2, "♣": 3,
    "♤": 0, "♡": 1, "♢": 2, "♧": 3,
}
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"10": 9}
"""The ranks a token may spell (``1`` is not an ace: no alias)."""

_JOKER_TOKENS = ("JK", "JOKER", "*")
"""The words for a printed joker (besides Unicode's joker cards, ``_PLAYING_CARDS``)."""

_SELECTORS = "\ufe0e\ufe0f"
_PRESENTATION = str.maketrans("", "", _SELECTORS)
"""The variation selectors a phone or a browser writes after a suit symbol
(``"♥\ufe0f"``, the emoji ♥️): how the symbol is drawn, not a part of the card."""

_PLAYING_CARDS: dict[str, int] = {"\U0001F0BF": JOKER, "\U0001F0CF": JOKER, "\U0001F0DF": JOKER}
"""Unicode's one-character playing cards (``🂡`` the ace of spades ... ``🃞`` the
king of clubs; the block's jokers): its suits run spades, hearts, diamonds,
clubs from U+1F0A0 by 16, its ranks ace, 2-10, jack, knight, queen, king
from 1 (no game here has the tarot's knight)."""
for _suit in range(4):
    for _offset, _rank in zip((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14), range(13), strict=True):
        _PLAYING_CARDS[chr(0x1F0A0 + 16 * _suit + _offset)] = _suit * 13 + _rank


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = ace .. 12 = king) and ``suit`` (0..3)."""
    return suit * 13 + rank


def rank_of(card: int) -> int:
    """Rank index 0 (ace) .. 12 (king) of a standard card."""
    return card % 13


def suit_of(card: int) -> int:
    """Suit index 0..3 (S H D C) of a standard card."""
    return card // 13


def card_name(card: int) -> str:
    """Canonical notation: ``"AS"``, ``"TH"``, ``"JK"``."""
    number = plain_int(card)
    if number is None or not 0 <= number <= JOKER:
        raise ValueError(f"not a card id: {shown(card)}")
    if number == JOKER:
        return "JK"
    return RANKS[number % 13] + SUITS[number // 13]


def parse_card(token: object, index: int | None = None, field: str = "hand") -> int:
    """Parse one card token (``"7H"``, ``"10h"``, ``"♥7"``, ``"7♥"``, ``"7♥️"``,
    ``"🂷"``, ``"JK"``).

    Raises ``InvalidHandError`` naming the token and its position.
    """
    if isinstance(token, str):
        known = CANONICAL.get(token)
        if known is not None:
            return known
    where = f" at position {index}" if index is not None else ""
    if not isinstance(token, str):
        raise InvalidHandError(
            f"card{where} must be a string like 'AS' or 'JK', got {shown(token)}",
            code="invalid_card", field=field, index=index,
        )
    text = token.strip().upper().translate(_PRESENTATION)
    if text in _JOKER_TOKENS:
        return JOKER
    if text in _PLAYING_CARDS:
        return _PLAYING_CARDS[text]
    rank_text: str | None = None
    suit: int | None = None
    if len(text) >= 2 and text[-1] in _SUIT_ALIASES:
        rank_text, suit = text[:-1], _SUIT_ALIASES[text[-1]]
    elif len(text) >= 2 and text[0] in _SUIT_ALIASES and text[1:] in _RANK_ALIASES:
        rank_text, suit = text[1:], _SUIT_ALIASES[text[0]]
    if rank_text is None or suit is None or rank_text not in _RANK_ALIASES:
        raise InvalidHandError(
            f"unknown card {shown(token)}{where}: use rank A 2-9 T (or 10) J Q K "
            f"followed by suit S H D C (or ♠ ♥ ♦ ♣), or JK for a joker",
            code="invalid_card", field=field, index=index,
        )
    return make_card(_RANK_ALIASES[rank_text], suit)


def token_grammar() -> dict[str, object]:
    """What ``parse_card`` reads, as data, for a parser written in another language (the
    playground's, ``api.pages.export_words``): after trimming, upper-casing and dropping
    the ``PRESENTATION`` characters, a token is one of ``JOKERS``, a key of
    ``PLAYING_CARDS``, or a rank of ``RANKS`` with a suit of ``SUITS`` after or before it.

    >>> grammar = token_grammar()
    >>> grammar["RANKS"]["10"], grammar["SUITS"]["♡"], grammar["PLAYING_CARDS"]["🂡"]
    (9, 1, 'AS')
    """
    return {
        "RANKS": dict(_RANK_ALIASES),
        "SUITS": dict(_SUIT_ALIASES),
        "JOKERS": list(_JOKER_TOKENS),
        "PLAYING_CARDS": {char: card_name(card) for char, card in _PLAYING_CARDS.items()},
        "PRESENTATION": _SELECTORS,
    }


CANONICAL: dict[str, int] = {}
"""Card id of every canonical token (``"AS"``, ``"as"``, ``"10h"``...): the fast parse."""
for _card in range(NUM_CARD_TYPES):
    _name = card_name(_card)
    CANONICAL[_name] = CANONICAL[_name.lower()] = _card
    if _name[0] == "T":
        CANONICAL["10" + _name[1]] = CANONICAL["10" + _name[1].lower()] = _card


def card_tokens(tokens: object, field: str = "hand") -> list[object]:
    """The tokens of a group of cards, read once: one space/comma separated
    string split, any other iterable (a list, a tuple, a generator) made a
    list; a mapping, bytes or a value that is not iterable is refused
    (``invalid_hand``), as is a hand passed as something else by mistake.

    >>> card_tokens("AS, 2S 3S"), card_tokens(iter(["KD"]))
    (['AS', '2S', '3S'], ['KD'])
    >>> card_tokens(None)
    Traceback (most recent call last):
    ...
    solver.errors.InvalidHandError: hand must be a string of cards or a list of card tokens, not NoneType
    """
    if isinstance(tokens, str):
        return list(tokens.replace(",", " ").split())
    if isinstance(tokens, Iterable) and not isinstance(tokens, Mapping | bytes | bytearray):
        return list(tokens)
    raise InvalidHandError(f"{field} must be a string of cards or a list of card tokens, not "
                           f"{type(tokens).__name__}", code="invalid_hand", field=field)


def too_many_cards(field: str, count: int, most: int) -> InvalidHandError:
    """The refusal of a group of ``count`` cards where at most ``most`` fit
    (code ``hand_too_large``)."""
    return InvalidHandError(f"{field} has {count} cards; at most {most} are allowed",
                            code="hand_too_large", field=field)


def parse_cards(tokens: object, field: str = "hand", most: int | None = None) -> list[int]:
    """Parse a list of tokens (or one space/comma separated string) into card
    ids (``card_tokens`` reads them).  With ``most``, more tokens than that
    are refused (``too_many_cards``) before any is parsed: the bound is
    checked before the work it bounds.

    >>> parse_cards(["AS"] * 1_000_000, most=30)
    Traceback (most recent call last):
    ...
    solver.errors.InvalidHandError: hand has 1000000 cards; at most 30 are allowed
    """
    tokens = card_tokens(tokens, field)
    if most is not None and len(tokens) > most:
        raise too_many_cards(field, len(tokens), most)
    cards = []
    for i, token in enumerate(tokens):
        known = CANONICAL.get(token) if isinstance(token, str) else None
        cards.append(parse_card(token, i, field) if known is None else known)
    return cards


def parse_rank(text: object, field: str = "wild_rank") -> int:
    """Parse a bare rank (``"7"``, ``"10"``, ``"T"``, ``"A"``) into 0..12."""
    if isinstance(text, str) and text.strip().upper() in _RANK_ALIASES:
        return _RANK_ALIASES[text.strip().upper()]
    raise InvalidHandError(
        f"unknown rank {shown(text)}: use A 2-9 T (or 10) J Q K",
        code="invalid_wild_rank", field=field,
    )


def without(cards: Sequence[int], card: int) -> list[int]:
    """``cards`` with one copy of ``card`` removed (``ValueError`` if absent)."""
    left = list(cards)
    left.remove(card)
    return left


def names(cards: Iterable[int]) -> str:
    """Card names joined by spaces: ``"AS 2S 3S"``."""
    return " ".join(card_name(c) for c in cards)


def sort_key(card: int) -> tuple[int, int]:
    """Display order: by suit, then rank; jokers last."""
    return (4, 0) if card == JOKER else (card // 13, card % 13)


SORT_KEYS: tuple[tuple[int, int], ...] = tuple(sort_key(c) for c in range(NUM_CARD_TYPES))
"""``sort_key`` of every card id, for ``sorted(cards, key=SORT_KEYS.__getitem__)``."""


def count_vector(cards: Sequence[int]) -> list[int]:
    """Copies of each of the 53 card types in ``cards``."""
    counts = [0] * NUM_CARD_TYPES
    for c in cards:
        counts[c] += 1
    return counts
