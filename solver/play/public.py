"""Checks every game's public state makes the same way: the number of players,
the seats, the hand's form, and the pile and stock a client may send to be
checked against what the history leaves.  Each raises ``InvalidStateError``
naming the field.

>>> check_stock(31, 32)
Traceback (most recent call last):
...
solver.errors.InvalidStateError: stock_count is 31 but the history leaves 32 cards in the stock
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Real

from solver.cards import card_name, parse_cards
from solver.errors import InvalidHandError, InvalidStateError, plain_int, shown
from solver.rules import MAX_DECK_CARDS


def names(cards: Sequence[int]) -> str:
    """Card names for a message ("nothing" for none)."""
    return " ".join(card_name(c) for c in cards) or "nothing"


def check_players(players: object, low: int, high: int, game: str, note: str = "") -> int:
    """``players`` as a plain int when it is a whole number from ``low`` to ``high``."""
    number = plain_int(players)
    if number is None or not low <= number <= high:
        raise InvalidStateError(f"players must be {low} to {high} for {game}{note}; got "
                                f"{shown(players)}", code="wrong_player_count", loc=("players",))
    return number


def check_seats(players: int, **seats: object) -> tuple[int, ...]:
    """Each named seat (``me``, ``dealer``) as a plain int, in the order
    given, when it is one of ``0 .. players - 1``."""
    checked = []
    for name, seat in seats.items():
        number = plain_int(seat)
        if number is None or not 0 <= number < players:
            raise InvalidStateError(f"{name} must be a seat from 0 to {players - 1}; got "
                                    f"{shown(seat)}", code="invalid_state", loc=(name,))
        checked.append(number)
    return tuple(checked)


def hand_cards(hand: object) -> tuple[int, ...]:
    """The hand's cards (a list of tokens or one string of them)."""
    if not isinstance(hand, str | list | tuple):
        raise InvalidStateError("hand must be a list of cards", code="invalid_state",
                                loc=("hand",))
    return tuple(parse_cards(hand, "hand"))


def pile_cards(discard_pile: object) -> tuple[int, ...] | None:
    """The cards of a ``discard_pile`` sent (None: none was sent)."""
    if discard_pile is None:
        return None
    if not isinstance(discard_pile, str | list | tuple):
        raise InvalidStateError("discard_pile must be a list of cards, bottom to top; got "
                                f"{type(discard_pile).__name__}", code="invalid_state",
                                loc=("discard_pile",))
    cards = tuple(parse_cards(discard_pile, "discard_pile"))
    if len(cards) > MAX_DECK_CARDS:  # as the hints' pile (a mismatch would list every card)
        raise InvalidHandError(f"discard_pile has {len(cards)} cards; at most {MAX_DECK_CARDS}",
                               code="too_many_cards", field="discard_pile")
    return cards


def check_pile(discard_pile: object, pile: Sequence[int]) -> None:
    """A ``discard_pile`` sent (bottom to top) is the pile the history leaves."""
    given = pile_cards(discard_pile)
    if given is None:
        return
    if given != tuple(pile):
        raise InvalidStateError(f"discard_pile is {names(given)} but the history leaves "
                                f"{names(pile)} (bottom to top)", code="pile_mismatch",
                                loc=("discard_pile",))


def check_stock(stock_count: int | None, stock: int) -> None:
    """A ``stock_count`` sent is the stock the history leaves."""
    if stock_count is None:
        return
    count = plain_int(stock_count)
    if count is None and (isinstance(stock_count, bool) or not isinstance(stock_count, Real)):
        raise InvalidStateError(f"stock_count must be a number of cards; got "
                                f"{shown(stock_count)}", code="invalid_state", loc=("stock_count",))
    if (stock_count if count is None else count) != stock:
        raise InvalidStateError(f"stock_count is {stock_count} but the history leaves {stock} "
                                "cards in the stock", code="stock_mismatch", loc=("stock_count",))


__all__ = ["check_pile", "check_players", "check_seats", "check_stock", "hand_cards", "names",
           "pile_cards"]
