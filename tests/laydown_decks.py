"""Cards, stacked decks and whole rounds of named bots for the lay-down arena
tests (Rummy 500, Rommy, basic rummy): the games differ only in the deck
they deal from and the checks of a round's end."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from benchmarks.arena.core.joker_cards import parse_card, parse_cards
from benchmarks.arena.laydown.players import make_player
from benchmarks.arena.laydown.referee import Rummy500Round


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


def played_out(game: Rummy500Round, lineup: Sequence[str],
               seed: Callable[[int], int]) -> Rummy500Round:
    """``game`` played to its end by the named bots in seat order, each
    started with ``seed(seat)``."""
    bots = [make_player(name) for name in lineup]
    for seat, bot in enumerate(bots):
        bot.start_deal(seat, seed(seat))
    while not game.over:
        game.apply(bots[game.to_act].act(game.view(game.to_act)))
    return game
