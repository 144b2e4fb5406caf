"""Seeded hand generators: each suite deals realistic hands from its preset's deck.

A deck is ``decks x 52`` standard cards plus ``decks x jokers_per_deck``
printed jokers (``solver.rules.PRESETS``), so multi-deck suites hold
duplicates exactly as often as a real deal does.  Indian suites also turn up
a cut card from the rest of the deck (a printed joker cut is passed as
``"JK"``, as in a real game).  Suites with a ``rule_cycle`` (contract rummy's
seven rounds) give hand ``i`` the overrides ``rule_cycle[i % len]``.
Generators are pure functions of
``(suite, n, seed)``: the same arguments always give the same hands, which
lets two engines (and the anchors) be timed on identical input.

>>> [len(case.hand) for case in generate("gin11", 2)]
[11, 11]
>>> generate("gin10", 3, seed=7) == generate("gin10", 3, seed=7)
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass

from solver.cards import JOKER, card_name, make_card, rank_of, suit_of
from solver.rules import PRESETS, Rules

DEFAULT_SEED = 20_240_601


@dataclass(frozen=True, slots=True)
class Case:
    """One benchmark hand: card tokens, the cut card (``wild_rank``) if any,
    and rule overrides (``rules``, knob/value pairs; empty: the preset)."""

    hand: tuple[str, ...]
    wild_rank: str | None = None
    rules: tuple[tuple[str, int], ...] = ()

    def overrides(self) -> dict[str, int] | None:
        """The ``rules=`` argument of ``solve()`` / ``validate()`` (``None``: the preset)."""
        return dict(self.rules) if self.rules else None

    def payload(self, suite: Suite) -> dict[str, object]:
        """The ``POST /v1/solve`` body for this hand."""
        body: dict[str, object] = {"variant": suite.variant, "hand": list(self.hand),
                                   "discard": suite.discard}
        if self.wild_rank is not None:
            body["wild_rank"] = self.wild_rank
        if self.rules:
            body["rules"] = dict(self.rules)
        return body


Dealer = Callable[["Suite", random.Random], Case]


@dataclass(frozen=True, slots=True)
class Suite:
    """A named family of hands: variant, cards dealt, discard, how to deal.

    ``cards`` is the number of cards in each hand as given to ``solve()``
    (with ``discard=True`` one more than is kept).  ``objective`` names the
    ``Solution`` field the two engines must agree on and ``sense`` whether
    lower (``"min"``) or higher (``"max"``) is better.  ``rule_cycle`` holds
    rule overrides handed to the hands in turn (empty: the preset for all).
    """

    name: str
    variant: str
    cards: int
    discard: bool
    dealer: Dealer
    description: str
    objective: str = "deadwood_points"
    sense: str = "min"
    rule_cycle: tuple[tuple[tuple[str, int], ...], ...] = ()

    @property
    def rules(self) -> Rules:
        """The preset the hands are dealt for."""
        return PRESETS[self.variant]


def preset_deck(rules: Rules) -> list[int]:
    """Every physical card of the preset: ``decks x 52`` plus the printed jokers."""
    deck = [card for _ in range(rules.decks) for card in range(52)]
    deck.extend([JOKER] * (rules.decks * rules.jokers_per_deck))
    return deck


def _names(cards: list[int]) -> tuple[str, ...]:
    return tuple(card_name(c) for c in sorted(cards))


def deal_plain(suite: Suite, rng: random.Random) -> Case:
    """``suite.cards`` cards from the full shuffled deck, no cut card."""
    deck = preset_deck(suite.rules)
    return Case(_names(rng.sample(deck, suite.cards)))


def deal_with_cut(suite: Suite, rng: random.Random) -> Case:
    """A hand plus a cut card turned up from the rest of the deck.

    With neighbour jokers (``indian21``) the cut is passed as a full card
    (``"7H"``); otherwise as a bare rank (``"7"``).  A printed joker cut is
    ``"JK"`` either way.
    """
    deck = preset_deck(suite.rules)
    rng.shuffle(deck)
    hand, cut = deck[: suite.cards], deck[suite.cards]
    return Case(_names(hand), cut_token(suite.rules, cut))


def cut_token(rules: Rules, cut: int) -> str:
    """How the cut card ``cut`` is passed as ``wild_rank``: ``"JK"``, a full card
    (neighbour jokers) or a bare rank."""
    if cut == JOKER:
        return "JK"
    name = card_name(cut)
    return name if rules.neighbour_jokers else name[0]


def deal_narrow_window(suite: Suite, rng: random.Random, width: int = 5, top: int = 13) -> Case:
    """A hand from ``width`` consecutive ranks below ``top`` only: many
    overlapping sets and runs, and so many tied arrangements."""
    low = rng.randrange(0, top - width + 1)
    window = [card for card in preset_deck(suite.rules)
              if card != JOKER and low <= rank_of(card) < low + width]
    return Case(_names(rng.sample(window, suite.cards)))


def wild_cards(rules: Rules, cut: int) -> set[int]:
    """Card types wild after cutting ``cut`` (mirrors ``solver.rules.make_deal``)."""
    wild = {JOKER}
    rank = rank_of(cut)
    wild.update(make_card(rank, s) for s in range(4))
    if rules.neighbour_jokers:
        suit = suit_of(cut)
        wild.update({make_card((rank + 1) % 13, suit), make_card((rank - 1) % 13, suit)})
    return wild


def deal_dense_wilds(suite: Suite, rng: random.Random, low: int = 4, high: int = 6) -> Case:
    """A cut card that is not a joker, then ``low..high`` wild cards plus naturals.

    The wild cards (printed jokers, cut-rank cards, and for ``indian21`` the
    upper/lower jokers) and the naturals are each drawn without replacement
    from the deck, so copy limits hold.
    """
    rules = suite.rules
    deck = preset_deck(rules)
    cut = rng.choice([c for c in deck if c != JOKER])
    deck.remove(cut)
    wild = wild_cards(rules, cut)
    wild_pool = [c for c in deck if c in wild]
    natural_pool = [c for c in deck if c not in wild]
    count = rng.randint(low, high)
    hand = rng.sample(wild_pool, count) + rng.sample(natural_pool, suite.cards - count)
    return Case(_names(hand), cut_token(rules, cut))


def _dense_low(suite: Suite, rng: random.Random) -> Case:
    # Low ranks make the discard matter: ties between arrangements
    # leave different highest deadwood cards.
    return deal_narrow_window(suite, rng, width=6, top=9)


def _dense21(suite: Suite, rng: random.Random) -> Case:
    return deal_dense_wilds(suite, rng, low=5, high=8)


CONTRACT_ROUNDS: tuple[tuple[tuple[str, int], ...], ...] = tuple(
    (("contract_round", r),) for r in range(1, 8))
"""Contract rummy's seven rounds as ``rules`` overrides (the contract of each)."""

SUITES: dict[str, Suite] = {
    suite.name: suite
    for suite in (
        Suite("gin10", "gin", 10, False, deal_plain, "gin, 10 cards"),
        Suite("gin11", "gin", 11, True, deal_plain, "gin, 11 cards, best discard"),
        Suite("basic10", "basic", 10, False, deal_plain, "basic rummy, 10 cards"),
        Suite("rummy500_13", "rummy500", 13, False, deal_plain,
              "rummy 500, 13 cards, 1 deck + 2 jokers", "net_points", "max"),
        Suite("rommy7", "rommy", 8, True, deal_plain,
              "rommy, 7 kept of 8 (must discard to close), 1 deck + 2 jokers", "net_points", "max"),
        Suite("indian13_14", "indian13", 14, True, deal_with_cut,
              "indian 13, 14 cards + discard, 2 decks + 2 jokers, cut rank"),
        Suite("indian21_22", "indian21", 22, True, deal_with_cut,
              "indian 21, 22 cards + discard, 3 decks + 3 jokers, cut card (neighbour jokers)"),
        Suite("contract12", "contract", 13, True, deal_plain,
              "contract rummy, 12 kept of 13 + discard, rounds 1-7 in turn, 2 decks + 2 jokers",
              rule_cycle=CONTRACT_ROUNDS),
        Suite("kalooki14", "kalooki", 14, True, deal_plain,
              "kalooki, 13 kept of 14 + discard, 2 decks + 4 jokers, 51 to open"),
        Suite("gin_dense", "gin", 10, False, deal_narrow_window,
              "gin, 10 cards from 5 consecutive ranks"),
        Suite("gin11_dense", "gin", 11, True, _dense_low,
              "gin, 11 cards + discard from 6 consecutive ranks within A-9"),
        Suite("indian13_dense_wilds", "indian13", 14, True, deal_dense_wilds,
              "indian 13, 14 cards + discard, 4-6 wild cards"),
        Suite("indian21_dense_wilds", "indian21", 22, True, _dense21,
              "indian 21, 22 cards + discard, 5-8 wild cards"),
    )
}
"""Every suite by name, in report order."""


def generate(name: str, n: int, seed: int = DEFAULT_SEED) -> list[Case]:
    """``n`` hands of suite ``name``; deterministic in ``(name, n, seed)``."""
    suite = SUITES[name]
    rng = random.Random(f"{name}:{seed}")
    cases = [suite.dealer(suite, rng) for _ in range(n)]
    if suite.rule_cycle:
        cycle = suite.rule_cycle
        cases = [dataclasses.replace(case, rules=cycle[i % len(cycle)]) for i, case in enumerate(cases)]
    return cases
