"""What differs between the games this advisor plays: Rummy 500 and Rommy.

Rommy is the Danish form of Rummy 500 (seed 002: "kaldes også 500"): the same
turn -- draw or take the pile down to a card, lay down, lay off, throw -- and
the same score (laid points less hand points), with its own card values, a
50-point penalty instead of a refusal when a card taken from below the pile
top is not used at once, and a throw that ends every turn, also the last.
One ``Variant`` holds those differences; the state, the fast player and the
advisor read them from it and from the preset's ``Deal`` (card points).

>>> VARIANTS["rommy"].hand_size(5), VARIANTS["rummy500"].hand_size(2)
(7, 13)
>>> VARIANTS["rommy"].values.hand[52], VARIANTS["rommy"].values.low_ace
(25, 15)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.cards import JOKER
from solver.rules import Deal, make_deal, make_rules


@dataclass(frozen=True, slots=True)
class Values:
    """Card points in a playout: ``hand[c]`` in hand and melded as itself
    (both presets score a card alike in both places), ``low_ace`` for an ace
    melded low in A-2-3..., ``joker`` the printed joker's."""

    hand: tuple[int, ...]
    low_ace: int

    @property
    def joker(self) -> int:
        """Points of the printed joker."""
        return self.hand[JOKER]


@dataclass(frozen=True, slots=True)
class Variant:
    """One game's rules as the advisor needs them (see the module docstring)."""

    game: str
    min_players: int
    max_players: int
    two_player_hand: int
    """Cards dealt to each of two players (three or more get ``hand``)."""
    hand: int
    pile_penalty: int | None
    """A card taken from below the top and not used at once: refused (None),
    or it costs this much."""
    throw_to_close: bool
    """Every turn ends with a throw, the last one too (no going out by laying
    the last card)."""
    deal: Deal = field(compare=False)

    @property
    def values(self) -> Values:
        """The card points of the preset."""
        return Values(self.deal.points, self.deal.ace_low_points)

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player."""
        return self.two_player_hand if players == 2 else self.hand


def _variant(game: str, max_players: int, two_player_hand: int, hand: int,
             pile_penalty: int | None, throw_to_close: bool) -> Variant:
    deal = make_deal(make_rules(game), None)
    return Variant(game, 2, max_players, two_player_hand, hand, pile_penalty, throw_to_close, deal)


VARIANTS: dict[str, Variant] = {
    "rummy500": _variant("rummy500", 4, 13, 7, None, False),
    "rommy": _variant("rommy", 6, 7, 7, make_rules("rommy").pile_penalty, True),
}
"""Rummy 500: one deck serves 2 to 4 players (5 to 8 take two decks: not
advised); Rommy: seven cards each for 2 to 6 players from one deck."""


__all__ = ["VARIANTS", "Values", "Variant"]
