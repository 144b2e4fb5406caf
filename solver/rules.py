"""Variant rules as validated frozen data, the preset registry, card points.

Every knob of ``RULES.md`` is a field of ``Rules``.  A preset is an instance in
``PRESETS``; per-call overrides go through ``make_rules(variant, overrides)``
which rejects unknown knobs and impossible values with ``InvalidRulesError``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from solver.cards import (
    JOKER,
    NUM_CARD_TYPES,
    InvalidHandError,
    card_name,
    make_card,
    parse_card,
    parse_rank,
    rank_of,
    suit_of,
)

AceMode = Literal["low", "high_low", "wrap"]
Objective = Literal["min_deadwood", "max_net", "cascade", "marriage"]

ACE_MODES: tuple[str, ...] = get_args(AceMode)
OBJECTIVES: tuple[str, ...] = get_args(Objective)
MAX_HAND_CARDS = 30


class InvalidRulesError(ValueError):
    """An unknown knob or an impossible knob value; ``knob`` names it."""

    def __init__(self, knob: str, message: str) -> None:
        super().__init__(message)
        self.knob = knob
        self.message = message
        self.code = "invalid_rules"


@dataclass(frozen=True, slots=True)
class Rules:
    """One ruleset.  Field docs are the knob docs served by the API."""

    name: str = "custom"
    # deck
    decks: int = 1
    jokers_per_deck: int = 0
    hand_size: int = 10
    # melds
    ace: AceMode = "low"
    printed_jokers_wild: bool = False
    cut_joker: bool = False
    neighbour_jokers: bool = False
    joker_cut_makes_aces_wild: bool = False
    set_allow_same_suit: bool = False
    tanala: bool | None = None
    min_naturals_per_meld: int = 1
    max_wilds_per_meld: int | None = None
    # points
    ace_points: int = 1
    ace_low_run_points: int | None = None
    pip_points: int | None = None
    court_points: int = 10
    joker_points: int = 0
    wild_cards_score_zero: bool = False
    # objective and declaration
    objective: Objective = "min_deadwood"
    knock_limit: int | None = None
    penalty_tiers: int = 3
    points_cap: int | None = None
    min_sequences: int = 2
    min_pure_sequences: int = 1
    # gin scoring
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    oklahoma_ace_knock: int = 0
    # round scoring
    rummy_doubles: bool = True
    pile_penalty: int = 50
    drop_first: int = 10
    drop_middle: int = 40
    wrong_declaration: int = 80
    value_card_points: int = 10
    marriage_points: int = 100

    def __post_init__(self) -> None:
        _check_rules(self)

    @property
    def tanala_enabled(self) -> bool:
        """Tanala melds are allowed (explicit knob, else ``decks >= 3``)."""
        return self.decks >= 3 if self.tanala is None else self.tanala

    def to_dict(self) -> dict[str, Any]:
        """All knobs as plain data."""
        return dataclasses.asdict(self)


KNOB_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))
KNOB_DOCS: dict[str, str] = {
    "name": "preset name (informational)",
    "decks": "standard 52-card decks in play (1-8); limits copies of each card",
    "jokers_per_deck": "printed jokers per deck (0-4)",
    "hand_size": "cards kept in a hand (the deal size; validate checks declarations against it)",
    "ace": "ace order in runs: low (A-2-3 only), high_low (A-2-3 and Q-K-A), wrap (K-A-2 too)",
    "printed_jokers_wild": "printed jokers are wild cards",
    "cut_joker": "a cut card (wild_rank) makes every card of its rank wild",
    "neighbour_jokers": "the cards one rank above and below the cut card, in its suit, are wild",
    "joker_cut_makes_aces_wild": "when the cut card is a printed joker, aces become wild",
    "set_allow_same_suit": "a set may repeat a suit (house rule with 2+ decks)",
    "tanala": "three identical cards form a meld counting as a pure sequence (null: decks >= 3)",
    "min_naturals_per_meld": "cards in a meld that stand for themselves, at least",
    "max_wilds_per_meld": "wild cards standing in for another card in one meld, at most (null: no limit)",
    "ace_points": "points of an ace",
    "ace_low_run_points": "points of an ace melded low in A-2-3... (null: ace_points)",
    "pip_points": "points of each card 2-9 (null: face value)",
    "court_points": "points of T J Q K",
    "joker_points": "points of a printed joker",
    "wild_cards_score_zero": "every wild card (printed, cut rank, neighbour) is worth 0 wherever it lies",
    "objective": "min_deadwood | max_net (melded minus in hand) | cascade (Indian 13) | marriage (Indian 21)",
    "knock_limit": "gin: a knock is allowed with deadwood at most this (null: no knocking)",
    "penalty_tiers": "cascade: 3 (pure sequence alone exempts its cards) or 2 (it does not)",
    "points_cap": "maximum count a losing hand pays (null: no cap)",
    "min_sequences": "cascade: sequences needed to declare",
    "min_pure_sequences": "pure sequences needed to declare",
    "gin_bonus": "gin: bonus for going gin",
    "big_gin_bonus": "gin: bonus for big gin (11 cards melded)",
    "undercut_bonus": "gin: bonus to the defender for an undercut",
    "undercut_on_tie": "gin: equal deadwood is an undercut",
    "oklahoma_ace_knock": "gin (Oklahoma): knock limit when the upcard is an ace (0: gin only)",
    "rummy_doubles": "basic: going rummy (all down in one turn) doubles the score",
    "pile_penalty": "rommy: penalty for taking the pile without melding at once",
    "drop_first": "indian: points for dropping on the first turn",
    "drop_middle": "indian: points for dropping later",
    "wrong_declaration": "indian: points for a wrong declaration",
    "value_card_points": "indian21: points for each cut/upper/lower joker held",
    "marriage_points": "indian21: points for cut + upper + lower joker of one suit",
}

_INT_BOUNDS: dict[str, tuple[int, int]] = {
    "decks": (1, 8),
    "jokers_per_deck": (0, 4),
    "hand_size": (1, MAX_HAND_CARDS),
    "min_naturals_per_meld": (1, 14),
    "max_wilds_per_meld": (0, 13),
    "ace_points": (0, 100),
    "ace_low_run_points": (0, 100),
    "pip_points": (0, 100),
    "court_points": (0, 100),
    "joker_points": (0, 100),
    "knock_limit": (0, 200),
    "penalty_tiers": (2, 3),
    "points_cap": (0, 10_000),
    "min_sequences": (0, 10),
    "min_pure_sequences": (0, 10),
    "gin_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "oklahoma_ace_knock": (0, 200),
    "pile_penalty": (0, 1000),
    "drop_first": (0, 1000),
    "drop_middle": (0, 1000),
    "wrong_declaration": (0, 1000),
    "value_card_points": (0, 1000),
    "marriage_points": (0, 10_000),
}
_NULLABLE = {"tanala", "max_wilds_per_meld", "ace_low_run_points", "pip_points",
             "knock_limit", "points_cap"}


def _check_rules(rules: Rules) -> None:
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if value is None:
            if f.name not in _NULLABLE:
                raise InvalidRulesError(f.name, f"knob {f.name!r} may not be null")
            continue
        if f.name == "name":
            if not isinstance(value, str) or not value:
                raise InvalidRulesError("name", "knob 'name' must be a non-empty string")
        elif f.name == "ace":
            if value not in ACE_MODES:
                raise InvalidRulesError(
                    "ace", f"knob 'ace' must be one of {', '.join(ACE_MODES)}; got {value!r}"
                )
        elif f.name == "objective":
            if value not in OBJECTIVES:
                raise InvalidRulesError(
                    "objective",
                    f"knob 'objective' must be one of {', '.join(OBJECTIVES)}; got {value!r}",
                )
        elif f.name in _INT_BOUNDS:
            low, high = _INT_BOUNDS[f.name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise InvalidRulesError(
                    f.name, f"knob {f.name!r} must be an integer from {low} to {high}; got {value!r}"
                )
        elif not isinstance(value, bool):
            raise InvalidRulesError(f.name, f"knob {f.name!r} must be true or false; got {value!r}")


PRESETS: dict[str, Rules] = {
    "basic": Rules(name="basic", hand_size=10),
    "gin": Rules(name="gin", hand_size=10, knock_limit=10),
    "rummy500": Rules(
        name="rummy500", jokers_per_deck=2, hand_size=13, ace="high_low",
        printed_jokers_wild=True, ace_points=15, ace_low_run_points=1, joker_points=15,
        objective="max_net",
    ),
    "rommy": Rules(
        name="rommy", jokers_per_deck=2, hand_size=7, ace="high_low",
        printed_jokers_wild=True, ace_points=15, pip_points=5, joker_points=25,
        objective="max_net",
    ),
    "indian13": Rules(
        name="indian13", decks=2, jokers_per_deck=1, hand_size=13, ace="high_low",
        printed_jokers_wild=True, cut_joker=True, ace_points=10, wild_cards_score_zero=True,
        objective="cascade", points_cap=80, min_sequences=2, min_pure_sequences=1,
    ),
    "indian21": Rules(
        name="indian21", decks=3, jokers_per_deck=1, hand_size=21, ace="high_low",
        printed_jokers_wild=True, cut_joker=True, neighbour_jokers=True, ace_points=10,
        wild_cards_score_zero=True, objective="marriage", min_sequences=0,
        min_pure_sequences=3,
    ),
}


def make_rules(variant: str | Rules, overrides: Mapping[str, Any] | None = None) -> Rules:
    """The preset ``variant`` (or a ``Rules``) with knob ``overrides`` applied.

    Raises ``InvalidRulesError`` for an unknown preset, unknown knob or bad value.
    """
    if isinstance(variant, Rules):
        base = variant
    else:
        if not isinstance(variant, str) or variant not in PRESETS:
            raise InvalidRulesError(
                "variant", f"unknown variant {variant!r}; choose one of {', '.join(PRESETS)}"
            )
        base = PRESETS[variant]
    if not overrides:
        return base
    if not isinstance(overrides, Mapping):
        raise InvalidRulesError("rules", "rules must be an object mapping knob names to values")
    for knob in overrides:
        if knob not in KNOB_NAMES or knob == "name":
            raise InvalidRulesError(
                str(knob), f"unknown knob {knob!r}; knobs are: {', '.join(KNOB_NAMES[1:])}"
            )
    return dataclasses.replace(base, **dict(overrides))


# ---------------------------------------------------------------------------
# Wild cards for one deal


@dataclass(frozen=True, slots=True)
class Deal:
    """Rules plus the cut card of one deal: which card types are wild.

    ``wild`` holds every wild card type; ``JOKER`` is in it when printed jokers
    are wild.  Every wild type except ``JOKER`` can also stand for itself.
    """

    rules: Rules
    wild_rank: int | None = None
    cut_card: int | None = None
    joker_cut: bool = False
    wild: frozenset[int] = field(default_factory=frozenset)
    points: tuple[int, ...] = ()  # per card type, filled in from the rules and wild cards

    def __post_init__(self) -> None:
        if not self.points:
            table = tuple(_card_points(c, self.rules, self.wild) for c in range(NUM_CARD_TYPES))
            object.__setattr__(self, "points", table)

    def is_wild(self, card: int) -> bool:
        """True when ``card`` may stand in for another card."""
        return card in self.wild


# Deals are reused per (rules object, cut card): the hot paths key their own
# caches on the deal's identity instead of hashing forty knobs per call.
_DEAL_CACHE: dict[tuple[int, str | None], tuple[Rules, Deal]] = {}


def make_deal(rules: Rules, wild_rank: str | None = None) -> Deal:
    """Resolve ``wild_rank`` (a rank, a full cut card or ``"JK"``) under ``rules``.

    Raises ``InvalidHandError`` (field ``wild_rank``) when the variant has no
    cut joker, the token is unknown, or ``indian21`` needs a suit.
    """
    if wild_rank is not None and not isinstance(wild_rank, str):
        return _make_deal(rules, wild_rank)  # raises the clear error
    key = (id(rules), wild_rank)
    hit = _DEAL_CACHE.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    deal = _make_deal(rules, wild_rank)
    if len(_DEAL_CACHE) >= 1024:
        _DEAL_CACHE.clear()
    _DEAL_CACHE[key] = (rules, deal)
    return deal


def _make_deal(rules: Rules, wild_rank: str | None) -> Deal:
    wild: set[int] = set()
    if rules.printed_jokers_wild and rules.jokers_per_deck > 0:
        wild.add(JOKER)
    if wild_rank is None:
        return Deal(rules=rules, wild=frozenset(wild))
    if not rules.cut_joker:
        raise InvalidHandError(
            f"variant {rules.name!r} has no wild rank (cut joker); omit wild_rank "
            "or set the knob cut_joker",
            code="wild_rank_not_allowed", field="wild_rank",
        )
    if not isinstance(wild_rank, str):
        raise InvalidHandError(
            f"wild_rank must be a string like '7', '7H' or 'JK'; got {wild_rank!r}",
            code="invalid_wild_rank", field="wild_rank",
        )
    text = wild_rank.strip().upper()
    if text in ("JK", "JOKER"):
        if rules.jokers_per_deck == 0:
            raise InvalidHandError(
                "wild_rank 'JK' needs printed jokers in the deck (jokers_per_deck > 0)",
                code="invalid_wild_rank", field="wild_rank",
            )
        if rules.joker_cut_makes_aces_wild:
            wild.update(make_card(0, s) for s in range(4))
        return Deal(rules=rules, joker_cut=True, wild=frozenset(wild))
    cut_card: int | None = None
    if len(text) >= 2 and not text.isdigit():
        try:
            cut_card = parse_card(text, field="wild_rank")
        except InvalidHandError:
            raise InvalidHandError(
                f"unknown wild_rank {wild_rank!r}: give a rank ('7'), a cut card ('7H') or 'JK'",
                code="invalid_wild_rank", field="wild_rank",
            ) from None
        rank = rank_of(cut_card)
    else:
        try:
            rank = parse_rank(text)
        except InvalidHandError:
            raise InvalidHandError(
                f"unknown wild_rank {wild_rank!r}: give a rank ('7'), a cut card ('7H') or 'JK'",
                code="invalid_wild_rank", field="wild_rank",
            ) from None
    if rules.neighbour_jokers and cut_card is None:
        raise InvalidHandError(
            f"variant {rules.name!r} uses upper/lower jokers, so wild_rank must be the full "
            f"cut card with its suit (e.g. '{RANK_LETTERS[rank]}H'), not {wild_rank!r}",
            code="wild_rank_needs_suit", field="wild_rank",
        )
    wild.update(make_card(rank, s) for s in range(4))
    if rules.neighbour_jokers and cut_card is not None:
        suit = suit_of(cut_card)
        wild.add(make_card((rank + 1) % 13, suit))
        wild.add(make_card((rank - 1) % 13, suit))
    return Deal(rules=rules, wild_rank=rank, cut_card=cut_card, wild=frozenset(wild))


RANK_LETTERS = "A23456789TJQK"


def deck_copies(rules: Rules) -> list[int]:
    """Copies of each of the 53 card types in the full deck of ``rules``."""
    copies = [rules.decks] * NUM_CARD_TYPES
    copies[JOKER] = rules.decks * rules.jokers_per_deck
    return copies


def check_copies(groups: Sequence[tuple[str, Sequence[int]]], rules: Rules) -> None:
    """Raise ``InvalidHandError`` when the cards of all ``groups`` together hold
    more copies of a card than the deck has; the error names the group's field
    (``"hand"``, ``"table[2]"``, ``"discard_pile"`` ...) and the position of the
    extra copy."""
    copies = deck_copies(rules)
    seen = [0] * NUM_CARD_TYPES
    for field_name, cards in groups:
        for index, card in enumerate(cards):
            seen[card] += 1
            if seen[card] <= copies[card]:
                continue
            where = f"{field_name} position {index}"
            if card == JOKER:
                raise InvalidHandError(
                    f"too many jokers: 'JK' at {where} is joker number {seen[card]}, but "
                    f"variant {rules.name!r} has {copies[card]} "
                    f"({rules.decks} deck(s) x {rules.jokers_per_deck})",
                    code="too_many_jokers", field=field_name, index=index,
                )
            raise InvalidHandError(
                f"too many copies of {card_name(card)}: {where} is copy {seen[card]}, "
                f"but variant {rules.name!r} plays with {rules.decks} deck(s)",
                code="too_many_copies", field=field_name, index=index,
            )


def check_hand(cards: Sequence[int], rules: Rules, field_name: str = "hand") -> None:
    """Reject hands the deck cannot produce (size, copies, jokers)."""
    if len(cards) > MAX_HAND_CARDS:
        raise InvalidHandError(
            f"{field_name} has {len(cards)} cards; at most {MAX_HAND_CARDS} are allowed",
            code="hand_too_large", field=field_name,
        )
    check_copies([(field_name, cards)], rules)


def base_points(card: int, deal: Deal) -> int:
    """Points of ``card`` wherever it lies (the rummy500 low-ace bonus aside)."""
    return deal.points[card]


def _card_points(card: int, rules: Rules, wild: frozenset[int]) -> int:
    if rules.wild_cards_score_zero and card in wild:
        return 0
    if card == JOKER:
        return rules.joker_points
    rank = card % 13
    if rank == 0:
        return rules.ace_points
    if rank >= 9:
        return rules.court_points
    return rank + 1 if rules.pip_points is None else rules.pip_points


def melded_points(card: int, represents: int, deal: Deal, low_ace: bool) -> int:
    """Points of ``card`` melded as ``represents``; ``low_ace`` when it is an
    ace standing for itself at the bottom of A-2-3..."""
    rules = deal.rules
    if (
        low_ace
        and card == represents
        and rules.ace_low_run_points is not None
        and not (rules.wild_cards_score_zero and card in deal.wild)
    ):
        return rules.ace_low_run_points
    return base_points(card, deal)
