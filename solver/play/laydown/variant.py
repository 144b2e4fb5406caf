"""What differs between the games this advisor plays: Rummy 500, Rommy and basic rummy.

Rommy is the Danish form of Rummy 500 (seed 002: "kaldes også 500"): the same
turn -- draw or take the pile down to a card, lay down, lay off, throw -- and
the same score (laid points less hand points), with its own card values, a
50-point penalty instead of a refusal when a card taken from below the pile
top is not used at once, and a throw that ends every turn, also the last.
Basic rummy (seeds 000 and 004) plays the same turn with the pile's top card
only, no jokers, the ace low, and a different score: the player who goes out
collects what the others hold.  One ``Variant`` holds those differences; the
state, the fast player and the advisor read them from it and from the
preset's ``Deal`` (card points).

>>> VARIANTS["rommy"].hand_size(5), VARIANTS["rummy500"].hand_size(2), VARIANTS["basic"].hand_size(5)
(7, 13, 6)
>>> sum(VARIANTS["rummy500"].seated(4).copies), sum(VARIANTS["rummy500"].seated(5).copies)
(54, 108)
>>> VARIANTS["rommy"].values.hand[52], VARIANTS["rommy"].values.low_ace
(25, 15)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from solver.cards import JOKER
from solver.errors import InvalidRulesError, shown
from solver.rules import Deal, deck_copies, make_deal, make_rules

HOUSE_KNOBS: tuple[str, ...] = ("ace", "ace_points", "ace_low_run_points", "pip_points",
                                "court_points", "joker_points", "jokers_per_deck",
                                "pile_penalty", "rummy_doubles")
"""The knobs a house may change (``rules``): card points, the jokers, the
ace low only or high too, Rommy's pile penalty, basic rummy's doubling.
The rest shape what the playouts' fast player assumes (a set's suits, a
run's length, a card scoring alike in hand and melded), or the table (the
decks, the hand sizes), and are refused by name."""
ACES = ("low", "high_low")
"""The ``ace`` knob's values the advisor plays (A-2-3, and Q-K-A too)."""


@dataclass(frozen=True, slots=True)
class Values:
    """Card points in a playout: ``hand[c]`` in hand and melded as itself
    (every preset here scores a card alike in both places), ``low_ace`` for
    an ace melded low in A-2-3..., and whether an ace may also end a run high
    (Q-K-A)."""

    hand: tuple[int, ...]
    low_ace: int
    ace_high: bool = True

    @property
    def joker(self) -> int:
        """Points of the printed joker."""
        return self.hand[JOKER]


@dataclass(frozen=True, slots=True)
class Variant:
    """One game's rules as the advisor needs them (see the module docstring)."""

    game: str
    hand_sizes: tuple[tuple[int, int], ...]
    """(players, cards dealt to each), for every number of players allowed."""
    pile_penalty: int | None
    """A card taken from below the top and not used at once: refused (None),
    or it costs this much."""
    throw_to_close: bool
    """Every turn ends with a throw, the last one too (no going out by laying
    the last card)."""
    deep_takes: bool
    """The pile may be taken down to a card below the top (else the top only)."""
    turn_over_pile: bool
    """An empty stock is refilled by turning the pile over, unshuffled (else a
    player may ``pass`` and the round ends)."""
    scoring: Literal["net", "collect"]
    """``net``: each player's laid points less its hand points; ``collect``:
    the player who goes out collects every other hand's points (doubled for
    a "rummy": out in one turn with nothing laid before)."""
    deal: Deal = field(compare=False)
    two_decks_from: int | None = None
    """Tables of this many players or more play with two decks shuffled
    together (Rummy 500: 5 to 8 players, 108 cards); None: one deck always."""
    two_decks: Deal | None = field(default=None, compare=False)
    """The preset's deal with two decks (when ``two_decks_from`` is set)."""

    def with_rules(self, overrides: Mapping[str, Any] | None) -> Variant:
        """The variant with a house's knob ``overrides`` (``HOUSE_KNOBS``);
        ``InvalidRulesError`` naming a knob the advisor does not take, or a
        value it does not.

        >>> house = VARIANTS["rummy500"].with_rules({"joker_points": 25, "ace": "low"})
        >>> house.values.joker, house.values.ace_high, house.seated(6).values.joker
        (25, False, 25)
        >>> VARIANTS["rommy"].with_rules({"pile_penalty": 30}).pile_penalty
        30
        """
        if not isinstance(overrides, Mapping | None):
            make_rules(self.game, overrides)  # refuses it, as every game's rules layer does
        if not overrides:
            return self
        for knob in overrides:
            if knob not in HOUSE_KNOBS:
                raise InvalidRulesError(knob, f"the {self.game} advisor takes the preset's "
                                              f"rules with these knobs changed only: "
                                              f"{', '.join(HOUSE_KNOBS)}; not {shown(knob)}")
        rules = make_rules(self.game, overrides)
        if rules.ace not in ACES:
            raise InvalidRulesError("ace", f"ace: the {self.game} advisor plays the ace low "
                                           f"(A-2-3) or high and low (Q-K-A too): "
                                           f"{' or '.join(ACES)}; not {rules.ace!r}")
        if rules.jokers_per_deck and not rules.printed_jokers_wild:
            raise InvalidRulesError("jokers_per_deck", f"jokers_per_deck: {self.game}'s "
                                                       "printed jokers are not wild; the "
                                                       "advisor plays wild jokers only")
        if "pile_penalty" in overrides and self.pile_penalty is None:
            raise InvalidRulesError("pile_penalty", f"pile_penalty: {self.game} has no pile "
                                                    "penalty (a card taken from below the top must be "
                                                    "used at once)")
        if "rummy_doubles" in overrides and self.scoring != "collect":
            raise InvalidRulesError("rummy_doubles", f"rummy_doubles: {self.game} scores laid "
                                                     "points less hand points: no rummy to "
                                                     "double")
        two_decks = None if self.two_decks_from is None else \
            make_deal(make_rules(self.game, {**overrides, "decks": 2}), None)
        return replace(self, deal=make_deal(rules, None), two_decks=two_decks,
                       pile_penalty=None if self.pile_penalty is None else rules.pile_penalty)

    @property
    def rummy_doubles(self) -> bool:
        """Collect scoring: a "rummy" (out in one turn, nothing laid before)
        doubles what the others pay."""
        return self.scoring == "collect" and self.deal.rules.rummy_doubles

    def seated(self, players: int) -> Variant:
        """The variant as a table of ``players`` plays it: with the two-deck
        deal from ``two_decks_from`` players on, else this one."""
        if self.two_decks is None or self.two_decks_from is None \
                or players < self.two_decks_from:
            return self
        return replace(self, deal=self.two_decks, two_decks_from=None, two_decks=None)

    @property
    def copies(self) -> list[int]:
        """Copies of each card (by id, the joker last) in the deal's deck."""
        return deck_copies(self.deal.rules)

    @property
    def deck_note(self) -> str:
        """The deck in words, for messages: "one deck", or where two start."""
        if self.two_decks_from is None:
            return "one deck" if self.deal.rules.decks == 1 else "two decks"
        return f"one deck, two from {self.two_decks_from} players"

    @property
    def min_players(self) -> int:
        """The fewest players the advisor takes."""
        return self.hand_sizes[0][0]

    @property
    def max_players(self) -> int:
        """The most players the advisor takes."""
        return self.hand_sizes[-1][0]

    @property
    def values(self) -> Values:
        """The card points of the preset."""
        return Values(self.deal.points, self.deal.ace_low_points,
                      self.deal.rules.ace != "low")

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player."""
        return dict(self.hand_sizes)[players]


def _variant(game: str, hand_sizes: dict[int, int], *, pile_penalty: int | None = None,
             throw_to_close: bool = False, deep_takes: bool = True,
             turn_over_pile: bool = False, scoring: Literal["net", "collect"] = "net",
             two_decks_from: int | None = None) -> Variant:
    deal = make_deal(make_rules(game), None)
    two_decks = None if two_decks_from is None else make_deal(make_rules(game, {"decks": 2}),
                                                              None)
    return Variant(game, tuple(sorted(hand_sizes.items())), pile_penalty, throw_to_close,
                   deep_takes, turn_over_pile, scoring, deal, two_decks_from, two_decks)


VARIANTS: dict[str, Variant] = {
    "rummy500": _variant("rummy500", {2: 13, **dict.fromkeys(range(3, 9), 7)},
                         two_decks_from=5),
    "rommy": _variant("rommy", dict.fromkeys(range(2, 7), 7),
                      pile_penalty=make_rules("rommy").pile_penalty, throw_to_close=True),
    "basic": _variant("basic", {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}, deep_takes=False,
                      turn_over_pile=True, scoring="collect"),
}
"""Rummy 500: one deck and two jokers serve 2 to 4 players, two such decks
shuffled together (108 cards) 5 to 8 (seed 001); 13 cards each for two
players, 7 for three or more; Rommy: seven cards each for 2 to 6 players from one deck; basic
rummy: 52 cards, no jokers, the ace low only, the pile's top card only, 10
cards each for two players, 7 for three or four, 6 for five or six."""


__all__ = ["ACES", "HOUSE_KNOBS", "VARIANTS", "Values", "Variant"]
