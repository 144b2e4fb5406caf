"""Rules: presets, knob validation, cut cards and card points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import pytest

from solver.cards import JOKER, InvalidHandError, parse_card
from solver.rules import (
    PRESETS,
    InvalidRulesError,
    Rules,
    base_points,
    check_hand,
    make_deal,
    make_rules,
)


def test_presets_match_the_rule_book_table() -> None:
    table = {  # RULES.md §4: decks, jokers per deck, hand, ace
        "basic": (1, 0, 10, "low"),
        "gin": (1, 0, 10, "low"),
        "rummy500": (1, 2, 13, "high_low"),
        "rommy": (1, 2, 7, "high_low"),
        "indian13": (2, 1, 13, "high_low"),
        "indian21": (3, 1, 21, "high_low"),
    }
    for name, (decks, jokers, hand, ace) in table.items():
        rules = PRESETS[name]
        assert (rules.decks, rules.jokers_per_deck, rules.hand_size, rules.ace) == (decks, jokers, hand, ace)
    assert PRESETS["gin"].knock_limit == 10
    assert PRESETS["indian13"].points_cap == 80
    assert PRESETS["indian21"].tanala_enabled and not PRESETS["indian13"].tanala_enabled


def test_unknown_knob_is_named() -> None:
    with pytest.raises(InvalidRulesError) as info:
        make_rules("gin", {"knock_limt": 5})
    assert info.value.knob == "knock_limt"
    assert "knock_limit" in str(info.value)  # the allowed knobs are listed


@pytest.mark.parametrize(
    ("knob", "value", "allowed"),
    [
        ("ace", "sideways", "low, high_low, high, wrap"),
        ("decks", 0, "from 1 to 8"),
        ("penalty_tiers", 4, "from 2 to 3"),
        ("printed_jokers_wild", "yes", "true or false"),
        ("min_naturals_per_meld", 0, "from 1"),
        ("decks", True, "integer"),
    ],
)
def test_impossible_values_are_rejected(knob: str, value: object, allowed: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        make_rules("gin", {knob: value})
    assert info.value.knob == knob
    assert allowed in str(info.value)


def test_unknown_variant() -> None:
    with pytest.raises(InvalidRulesError, match="gin"):
        make_rules("canasta")


def test_rules_are_frozen() -> None:
    with pytest.raises(AttributeError):
        PRESETS["gin"].knock_limit = 5  # type: ignore[misc]
    assert isinstance(make_rules("gin", {"knock_limit": 5}), Rules)
    assert PRESETS["gin"].knock_limit == 10


def test_cut_card_makes_rank_wild() -> None:
    deal = make_deal(PRESETS["indian13"], "7")
    assert deal.wild == {JOKER} | {parse_card(f"7{s}") for s in "SHDC"}


def test_indian21_neighbour_jokers() -> None:
    deal = make_deal(PRESETS["indian21"], "7H")
    assert {parse_card("6H"), parse_card("8H")} <= deal.wild
    assert parse_card("8S") not in deal.wild
    ace = make_deal(PRESETS["indian21"], "AS")  # for a cut ace the neighbours are K and 2
    assert {parse_card("KS"), parse_card("2S")} <= ace.wild


def test_indian21_needs_full_cut_card() -> None:
    with pytest.raises(InvalidHandError) as info:
        make_deal(PRESETS["indian21"], "7")
    assert info.value.field == "wild_rank"
    assert info.value.code == "wild_rank_needs_suit"


def test_joker_cut_leaves_only_printed_jokers() -> None:
    assert make_deal(PRESETS["indian13"], "JK").wild == {JOKER}
    aces = make_deal(make_rules("indian13", {"joker_cut_makes_aces_wild": True}), "JK")
    assert parse_card("AD") in aces.wild


def test_wild_rank_on_variant_without_wilds() -> None:
    with pytest.raises(InvalidHandError) as info:
        make_deal(PRESETS["gin"], "7")
    assert info.value.code == "wild_rank_not_allowed"


@pytest.mark.parametrize("token", ["X", "77", "11", "7X"])
def test_bad_wild_rank(token: str) -> None:
    with pytest.raises(InvalidHandError) as info:
        make_deal(PRESETS["indian13"], token)
    assert info.value.field == "wild_rank"


def test_points_tables() -> None:
    def points(variant: str, token: str, cut: str | None = None) -> int:
        return base_points(parse_card(token), make_deal(PRESETS[variant], cut))

    assert [points("gin", t) for t in ("AS", "7H", "TD", "KC")] == [1, 7, 10, 10]
    assert [points("rummy500", t) for t in ("AS", "7H", "KC", "JK")] == [15, 7, 10, 15]
    assert [points("rommy", t) for t in ("AS", "7H", "KC", "JK")] == [15, 5, 10, 25]
    assert [points("indian13", t, "7") for t in ("AS", "7H", "KC", "JK", "6H")] == [10, 0, 10, 0, 6]


@pytest.mark.parametrize("table", [{"T": 6, "10": 5}, {"10": 5, "T": 6}, {"JK": 6, "joker": 5}])
def test_one_rank_given_two_points_is_refused(table: dict[str, int]) -> None:
    # "T" and "10" name one rank: two values for it contradict each other (the
    # one used depended on the order of the keys and on the interning cache).
    with pytest.raises(InvalidRulesError) as info:
        make_rules("rummy500", {"card_points": {"hand": table}})
    assert info.value.loc == ("rules", "card_points") and "two values" in info.value.message
    same = make_rules("rummy500", {"card_points": {"meld": {"T": 6, "10": 6}}})
    assert same.card_points is not None and same.card_points.meld == ((9, 6),)


def test_copy_limits() -> None:
    cards = [parse_card(t) for t in ("9S", "9S")]
    with pytest.raises(InvalidHandError) as info:
        check_hand(cards, PRESETS["gin"])
    assert info.value.code == "too_many_copies" and info.value.index == 1
    check_hand(cards, PRESETS["indian13"])
    with pytest.raises(InvalidHandError, match="too many jokers"):
        check_hand([JOKER] * 3, PRESETS["indian13"])
    with pytest.raises(InvalidHandError, match="at most 30"):
        check_hand([parse_card("AS")] * 31, make_rules("gin", {"decks": 8}))


# Requirements no lay-down can meet: a pure sequence is a sequence (RULES.md
# 5.3), a set holds 3 cards or more and a run min_run_length or more, and a
# lay-down holds at most the kept cards (hand_size).
@pytest.mark.parametrize(
    ("variant", "knobs", "words"),
    [
        ("basic", {"requirements": [{"kind": "pure_sequence", "count": 1},
                                    {"kind": "sequence", "count": 0, "exact": True}]},
         "no lay-down can meet"),
        ("basic", {"requirements": [{"kind": "run", "count": 2, "exact": True},
                                    {"kind": "sequence", "count": 1, "exact": True}]},
         "no lay-down can meet"),
        ("basic", {"requirements": [{"kind": "set", "count": 4}]}, "12 cards"),  # 4 x 3 > 10
        ("contract", {"contract_round": 7, "min_run_length": 5}, "15 cards"),  # 3 x 5 > 12
        ("indian21", {"hand_size": 8}, "9 cards"),  # 3 pure sequences of 3 > 8
        # a lay-down holds one meld or more: these forbid every meld
        ("basic", {"requirements": [{"kind": "set", "count": 0, "exact": True},
                                    {"kind": "sequence", "count": 0, "exact": True}]},
         "no lay-down can meet"),
        # every meld holds min_naturals_per_meld natural cards: no set of 5 (4 suits)
        ("basic", {"requirements": [{"kind": "set", "count": 1}], "min_naturals_per_meld": 5},
         "no lay-down can meet"),
        ("basic", {"requirements": [{"kind": "set", "count": 1}], "max_set_size": 3,
                   "min_naturals_per_meld": 4}, "no lay-down can meet"),
        ("basic", {"requirements": [{"kind": "sequence", "count": 1}],
                   "min_naturals_per_meld": 14}, "no lay-down can meet"),
        ("basic", {"requirements": [{"kind": "run", "count": 2}], "min_naturals_per_meld": 5,
                   "hand_size": 9}, "10 cards"),  # 2 runs of 5 naturals > 9
        # a tanala is three identical cards: none with two decks, so 3 runs of 4 > 9
        ("indian21", {"decks": 2, "tanala": True, "hand_size": 9, "min_run_length": 4},
         "12 cards"),
    ],
)
def test_requirements_no_hand_can_meet_are_refused(
        variant: str, knobs: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        make_rules(variant, knobs)
    assert info.value.knob == "requirements"
    assert words in str(info.value)


def test_requirements_a_hand_can_meet_are_accepted() -> None:
    for round_number in range(1, 8):
        make_rules("contract", {"contract_round": round_number})
    make_rules("basic", {"requirements": [{"kind": "set", "count": 3}], "hand_size": 9})
    make_rules("indian21", {"hand_size": 9})
    # three tanalas are three pure sequences of 3 cards, whatever min_run_length
    make_rules("indian21", {"hand_size": 9, "min_run_length": 4})
    # an exact 0 forbids one kind only; same-suit sets of two decks hold 5 naturals
    make_rules("basic", {"requirements": [{"kind": "set", "count": 0, "exact": True}]})
    make_rules("basic", {"requirements": [{"kind": "set", "count": 1}], "decks": 2,
                         "set_allow_same_suit": True, "max_set_size": None,
                         "min_naturals_per_meld": 5})


class _Untouchable(Sequence[object]):
    """A list of ``length`` items that fails the test when one is read: a
    bound on the count must be checked before any item is."""

    def __init__(self, length: int) -> None:
        self.length = length

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> object: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[object]: ...
    def __getitem__(self, index: int | slice) -> object:
        raise AssertionError("an item was read before the count was checked")


def test_too_many_requirements_are_refused_before_any_is_read() -> None:
    # RULES.md: requirements is a list of at most 4 items
    with pytest.raises(InvalidRulesError) as info:
        make_rules("basic", {"requirements": _Untouchable(10**9)})
    assert info.value.loc == ("rules", "requirements")
    assert "at most 4 requirement items; got 1000000000" in info.value.message
    many = [{"kind": "set", "count": 1}] * 1_000_000
    with pytest.raises(InvalidRulesError, match="at most 4 requirement items; got 1000000"):
        make_rules("basic", {"requirements": many})


def test_oversized_overrides_are_refused_not_keyed() -> None:
    # a long override value is refused by the knob's own check, as before;
    # it is not sorted and hashed into a cache key first
    with pytest.raises(InvalidRulesError) as info:
        make_rules("basic", {"card_points": {"hand": {f"X{i}": 1 for i in range(1000)}}})
    assert info.value.loc == ("rules", "card_points")
    rules = make_rules("basic", {"card_points": {"hand": {" " * i + "A": 3 for i in range(200)}}})
    assert rules.card_points is not None and rules.card_points.hand == ((0, 3),)
