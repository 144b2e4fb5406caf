"""solver.layoffs: reading table melds, every extension, the exact best play.

The best play is checked against ``tests.play_brute.brute_play`` (every
sub-multiset of the hand tried on every table meld, melds found by brute
force) on small random hands, with and without jokers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from solver.cards import JOKER, InvalidHandError, card_name, make_card, parse_cards
from solver.deadline import Deadline
from solver.layoffs import (
    MAX_TABLE_MELDS,
    LayoffSearch,
    count_cards,
    extensions,
    read_table,
    read_table_meld,
)
from solver.rules import PRESETS, InvalidRulesError, check_copies, make_deal, make_rules
from tests.bruteforce import CHECKED, _sub_multisets, is_meld_brute
from tests.play_brute import brute_play


def names(cards: Sequence[int]) -> list[str]:
    return [card_name(c) for c in cards]


def deal_of(variant: str, **knobs: object):  # type: ignore[no-untyped-def]
    return make_deal(make_rules(variant, knobs or None))


def laid(table: list[str], hand: str, variant: str = "gin", **knobs: object) -> set[tuple[str, ...]]:
    """Every set of hand cards that can be laid on one table meld."""
    deal = deal_of(variant, **knobs)
    tm = read_table_meld(parse_cards(table), 0, deal)
    return {tuple(sorted(names(lay.cards))) for lay in extensions(tm, count_cards(parse_cards(hand)), deal)}


# --- extensions -------------------------------------------------------------------


def test_set_takes_its_fourth_card_only() -> None:
    assert laid(["7S", "7D", "7C"], "7H 8H") == {("7H",)}
    assert laid(["7S", "7D", "7C", "7H"], "7H 8H", decks=2) == set()


def test_run_extends_at_both_ends_chained() -> None:
    options = laid(["5H", "6H", "7H"], "3H 4H 8H 9H JH")
    assert ("8H",) in options and ("4H",) in options
    assert ("8H", "9H") in options and ("3H", "4H", "8H", "9H") in options
    assert ("9H",) not in options and ("JH",) not in options  # 9 needs the 8 first


def test_ace_rules_on_run_ends() -> None:
    assert laid(["JS", "QS", "KS"], "AS") == set()  # gin: the ace is low only
    assert laid(["JS", "QS", "KS"], "AS", "rummy500") == {("AS",)}
    assert laid(["2S", "3S", "4S"], "AS KS", "rummy500") == {("AS",)}  # never K-A-2
    assert laid(["2S", "3S", "4S"], "AS KS", "rummy500", ace="wrap") == {("AS",), ("AS", "KS")}
    # 2..K holds 12 cards: one ace may join at either end, never both
    twelve = [r + "S" for r in "23456789TJQK"]
    assert laid(twelve, "AS", "rummy500") == {("AS",)}


def test_joker_meaning_in_a_table_run_is_fixed_by_its_position() -> None:
    assert laid(["5H", "6H", "JK"], "4H 8H 3H", "rummy500") == {("4H",), ("3H", "4H"), ("8H",),
                                                              ("4H", "8H"), ("3H", "4H", "8H")}
    assert laid(["JK", "5H", "6H"], "7H 8H 3H", "rummy500") == {("7H",), ("7H", "8H"), ("3H",),
                                                              ("3H", "7H"), ("3H", "7H", "8H")}


def test_a_run_out_of_meld_order_is_read_only_where_its_jokers_have_one_place() -> None:
    deal = deal_of("rummy500")
    assert names(read_table_meld(parse_cards("JK 7H 5H"), 0, deal).meld.represents) == \
        ["5H", "6H", "7H"]
    with pytest.raises(InvalidHandError, match="meld order"):
        read_table_meld(parse_cards("6H JK 5H"), 0, deal)  # 4-5-6 or 5-6-7: never guessed


def test_wild_layoff_states_its_meaning() -> None:
    deal = deal_of("rummy500")
    tm = read_table_meld(parse_cards("5H 6H 7H"), 0, deal)
    meanings = {
        (names(lay.cards)[0], names(lay.represents)[0])
        for lay in extensions(tm, count_cards([JOKER]), deal)
    }
    assert meanings == {("JK", "4H"), ("JK", "8H")}
    set_meld = read_table_meld(parse_cards("9S 9H JK"), 0, deal)
    (lay,) = extensions(set_meld, count_cards(parse_cards("9D")), deal)
    assert names(lay.extended.cards) == ["9S", "9H", "9D", "JK"]  # the joker now stands for 9C
    assert names(lay.extended.represents) == ["9S", "9H", "9D", "9C"]


def test_max_wilds_per_meld_limits_wild_layoffs() -> None:
    options = laid(["5H", "6H", "JK"], "JK", "rummy500", max_wilds_per_meld=1)
    assert options == set()


def test_rummy500_low_ace_laid_off_scores_one() -> None:
    deal = deal_of("rummy500")
    tm = read_table_meld(parse_cards("2H 3H 4H"), 0, deal)
    (lay,) = extensions(tm, count_cards(parse_cards("AH")), deal)
    assert lay.points == 1
    high = read_table_meld(parse_cards("JH QH KH"), 0, deal)
    (lay,) = extensions(high, count_cards(parse_cards("AH")), deal)
    assert lay.points == 15


# --- the best play ------------------------------------------------------------------


def best(hand: str, table: list[list[str]], variant: str = "gin"):  # type: ignore[no-untyped-def]
    deal = deal_of(variant)
    tms = read_table([parse_cards(m) for m in table], deal)
    return LayoffSearch(deal, tms, Deadline.never()).best(parse_cards(hand))[1]


def test_best_play_gin_defender_style() -> None:
    play = best("8H 9H KS 3C 4C 5C", [["5H", "6H", "7H"]])
    assert play.deadwood_points == 10
    assert [names(lay.cards) for lay in play.layoffs] == [["8H", "9H"]]
    assert [names(m.cards) for m in play.melds] == [["3C", "4C", "5C"]]


def test_best_play_prefers_a_new_meld_when_it_saves_more() -> None:
    # 8H could go on 5-6-7H, but 8H 8S 8D is a meld of its own that also takes 8S 8D.
    play = best("8H 8S 8D", [["5H", "6H", "7H"]])
    assert play.deadwood_points == 0 and not play.layoffs


def test_rummy500_laid_off_cards_score() -> None:
    play = best("8H JK 2C", [["5H", "6H", "7H"]], "rummy500")
    assert play.layoff_points == 8 + 15 and play.net_points == 23 - 2


def test_indian_has_no_layoffs() -> None:
    deal = make_deal(PRESETS["indian13"])
    with pytest.raises(InvalidRulesError, match="no laying off"):
        LayoffSearch(deal, [], Deadline.never())


# --- bad input ----------------------------------------------------------------------


def test_bad_table_meld_names_its_field() -> None:
    deal = deal_of("gin")
    with pytest.raises(InvalidHandError) as info:
        read_table([parse_cards("5H 6H 7H"), parse_cards("5S 6H 7D")], deal)
    assert info.value.field == "table[1]" and info.value.code == "invalid_table_meld"


def test_table_size_is_bounded() -> None:
    deal = deal_of("gin", decks=8)
    with pytest.raises(InvalidHandError, match="at most"):
        read_table([parse_cards("5H 6H 7H")] * (MAX_TABLE_MELDS + 1), deal)


def test_copies_are_counted_across_fields() -> None:
    with pytest.raises(InvalidHandError) as info:
        check_copies([("hand", parse_cards("5H 9C")), ("table[0]", parse_cards("4H 5H 6H"))],
                     PRESETS["gin"])
    assert info.value.field == "table[0]" and info.value.index == 1


# --- brute force ------------------------------------------------------------------


def _random_meld(rng: random.Random, pool: list[int], ranks: list[int]) -> list[int] | None:
    if rng.random() < 0.5:
        rank = rng.choice(ranks)
        suits = [s for s in range(4) if make_card(rank, s) in pool]
        if len(suits) < 3:
            return None
        return [make_card(rank, s) for s in sorted(rng.sample(suits, 3))]
    suit = rng.randrange(4)
    length = rng.choice((3, 3, 4))
    start = rng.randint(ranks[0], max(ranks[0], ranks[-1] - length + 1))
    run = [make_card(r, suit) for r in range(start, start + length) if r <= 12]
    if len(run) < 3 or any(c not in pool for c in run):
        return None
    return run


def random_case(rng: random.Random, variant: str) -> tuple[list[list[int]], list[int]]:
    """Table melds from a narrow rank window and a small hand from what is left."""
    low = rng.randint(0, 8)
    ranks = list(range(low, low + 5))
    pool = [make_card(r, s) for r in ranks for s in range(4)]
    jokers = 2 if variant == "rummy500" else 0
    table: list[list[int]] = []
    for _ in range(rng.randint(1, 3)):
        meld = _random_meld(rng, pool, ranks)
        if meld is None:
            continue
        for card in meld:
            pool.remove(card)
        if jokers and rng.random() < 0.3:
            meld[rng.randrange(len(meld))] = JOKER
            jokers -= 1
        table.append(meld)
    pool += [JOKER] * jokers if rng.random() < 0.5 else []
    hand = rng.sample(pool, rng.randint(3, 7))
    return table, hand


@pytest.mark.parametrize("hands", [150, pytest.param(1500, marks=pytest.mark.slow)])
@pytest.mark.parametrize("variant", ["gin", "rummy500"])
def test_best_play_matches_brute_force(variant: str, hands: int) -> None:
    rng = random.Random(f"layoffs-{variant}")
    deal = make_deal(PRESETS[variant])
    checked = 0
    while checked < hands:
        table_cards, hand = random_case(rng, variant)
        if not table_cards:
            continue
        try:
            table = read_table(table_cards, deal)
        except InvalidHandError:
            continue  # a joker that made the meld ambiguous or invalid: skip
        play = LayoffSearch(deal, table, Deadline.never()).best(hand)[1]
        reference = brute_play(hand, [tm.meld for tm in table], deal)
        assert reference is not None
        got = (play.deadwood_points, play.net_points)
        if variant == "gin":
            assert got[0] == reference[0], (names(tuple(hand)), [names(m) for m in table_cards])
        else:
            assert got[1] == reference[1], (names(tuple(hand)), [names(m) for m in table_cards])
        assert sorted([*play.deadwood, *(c for m in play.melds for c in m.cards),
                       *(c for lay in play.layoffs for c in lay.cards)]) == sorted(hand)
        checked += 1
    CHECKED[f"layoffs_{variant}"] += checked


@pytest.mark.parametrize(("table", "hand", "net", "laid"), [
    # a joker alone is worth the card it stands for: the set of kings, in
    # either order of the table (it went onto the first table meld, the threes)
    ([["3S", "3H", "3D"], ["KS", "KH", "KD"]], "JK 5C", 5, [["JK"]]),
    ([["KS", "KH", "KD"], ["3S", "3H", "3D"]], "JK 5C", 5, [["JK"]]),
    # 9C 9D JK (27) and a joker standing for TH (10) beat the four nines (36)
    ([["TD", "TC", "TS"]], "JK JK 9C 9D", 37, [["JK"]]),
    # a run's two jokers alone: K and A high (25), not 9 and K
    ([["TH", "JH", "QH"]], "JK JK 5C", 20, [["JK", "JK"]]),
])
def test_a_lone_wild_layoff_scores_the_card_it_stands_for(
    table: list[list[str]], hand: str, net: int, laid: list[list[str]],
) -> None:
    """Under ``wild_meld_value="represented"`` the search valued every wild
    card laid off alone alike (nothing), so it put it in a meld of its own or
    onto the first table meld in order."""
    deal = deal_of("rummy500", wild_meld_value="represented")
    tables = read_table([parse_cards(m) for m in table], deal)
    play = LayoffSearch(deal, tables, Deadline.never()).best(parse_cards(hand))[1]
    assert play.net_points == net
    assert [names(lay.cards) for lay in play.layoffs] == laid
    assert play.net_points == play.meld_points + play.layoff_points - play.deadwood_points
    assert all(lay.points == sum(10 if card_name(r)[0] in "TJQK" else 15 if r % 13 == 0
                                 else r % 13 + 1 for r in lay.represents)
               for lay in play.layoffs)


def test_out_of_time_answers_the_best_play_found() -> None:
    """Past its deadline the search answers (never raises): the best play it
    saw, or every card kept, marked not optimal; a cached proved answer stays."""
    deal = deal_of("rummy500")
    table = read_table([parse_cards("5H 6H 7H"), parse_cards("9S TS JS")], deal)
    hand = parse_cards("8H 4H QS 8S JK")
    spent = Deadline.after_ms(0)
    play = LayoffSearch(deal, table, spent).best(hand)[1]
    assert not play.optimal
    assert sorted([*play.deadwood, *(c for m in play.melds for c in m.cards),
                   *(c for lay in play.layoffs for c in lay.cards)]) == sorted(hand)
    proved = LayoffSearch(deal, table, Deadline.never()).best(hand)[1]
    assert proved.optimal and proved.net_points >= play.net_points


def _brute_layoffs(tm_cards: list[int], kind: str, hand: list[int], deal) -> set[tuple[int, ...]]:  # type: ignore[no-untyped-def]
    """Every sub-multiset of ``hand`` whose cards, added to the (joker-free)
    table meld, still read as a meld of the same kind (by brute force)."""
    out = set()
    for extra in _sub_multisets(tuple(sorted(hand))):
        if not extra:
            continue
        readings = is_meld_brute([*tm_cards, *extra], deal)
        if any(m.kind == kind and all(m.represents[m.cards.index(c)] == c for c in tm_cards)
               for m in readings):
            out.add(extra)
    return out


def test_listed_extensions_match_brute_force() -> None:
    """``extensions`` (derived from the engine's generator) lists exactly the
    sub-multisets of the hand that a brute force can lay on a table meld."""
    rng = random.Random(11)
    checked = nonempty = 0
    for variant, rules in (("rummy500", None), ("gin", None), ("rummy500", {"ace": "wrap"}),
                           ("gin", {"ace": "high_low"}), ("rummy500", {"max_wilds_per_meld": 1}),
                           ("rummy500", {"ace": "high"}), ("rummy500", {"min_run_length": 4})):
        deal = make_deal(make_rules(variant, rules), None)
        for _ in range(30):
            low = rng.randint(0, 8)
            ranks = [r % 13 for r in range(low, low + 5)]
            pool = [make_card(r, s) for r in ranks for s in range(4)]
            meld = _random_meld(rng, pool, ranks)
            if meld is None:
                continue
            try:
                (tm,) = read_table([meld], deal)
            except InvalidHandError:
                continue
            pool = [c for c in pool if c not in meld]
            jokers = rng.randrange(0, 3) if variant == "rummy500" else 0
            hand = rng.sample(pool, min(len(pool), rng.randrange(2, 6))) + [JOKER] * jokers
            listed = {tuple(sorted(lay.cards)) for lay in extensions(tm, count_cards(hand), deal)}
            assert listed == _brute_layoffs(meld, tm.kind, hand, deal), (
                variant, rules, names(tuple(hand)), names(tuple(meld)))
            checked += 1
            nonempty += bool(listed)
    assert checked >= 150
    assert nonempty > 60, nonempty  # many cases lay something off: the comparison has teeth
