"""solver.hints: discard, draw (exact expectation), layoffs and pile pickup hints.

References inside the tests: the draw expectation is recomputed by listing
every physical unseen card and solving each hand with ``solve``; the pile
hint's net at each depth is checked against ``tests.play_brute.brute_play``
(the best play that melds or lays off the deepest card taken, by brute force).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from solver import solve
from solver.cards import JOKER, InvalidHandError, card_name, make_card, parse_cards
from solver.engines import caches, passes
from solver.hints import discard_hint, draw_hint, layoffs_hint, pile_hint
from solver.layoffs import read_table
from solver.objective import passes_for, untied
from solver.rules import PRESETS, InvalidRulesError, make_deal
from tests.bruteforce import CHECKED
from tests.play_brute import brute_play


def names(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [card_name(c) for c in cards]


# --- discard hint ------------------------------------------------------------------


def test_discard_hint_ranks_every_distinct_discard() -> None:
    hint = discard_hint("2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D", "gin")
    assert hint.better == "lower" and len(hint.options) == 11
    assert [(card_name(o.discard), o.value, o.rank) for o in hint.options[:2]] == [
        ("6S", 9, 1), ("5S", 10, 2)]
    for option in hint.options:
        kept = parse_cards("2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D")
        kept.remove(option.discard)
        assert option.value == solve(names(kept), "gin").deadwood_points
    values = [o.value for o in hint.options]
    assert values == sorted(values)


def test_discard_hint_groups_ties() -> None:
    hint = discard_hint("AS 2S 3S 7H 7D 7C 8C 9C TC KH QD", "gin")
    groups = [sorted(names(g)) for g in hint.groups]
    assert groups[0] == ["KH", "QD"]
    assert [o.rank for o in hint.options[:3]] == [1, 1, 3]
    assert hint.to_dict()["groups"][0] == ["KH", "QD"]  # display order: suits S H D C


def test_discard_hint_max_net_prefers_higher() -> None:
    hint = discard_hint("AH 2H 3H KS KD KC 9S", "rummy500")
    assert hint.better == "higher"
    assert card_name(hint.options[0].discard) == "9S"
    assert hint.options[0].value == 1 + 2 + 3 + 30
    assert all(a.value >= b.value for a, b in zip(hint.options, hint.options[1:], strict=False))


def test_discard_hint_indian_uses_the_count() -> None:
    hint = discard_hint("3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C", "indian13", wild_rank="7")
    best = hint.options[0]
    assert card_name(best.discard) == "2C" and best.value == 0 and best.solution.declarable


# --- draw hint ----------------------------------------------------------------------


def enumerated_expectation(hand: list[str], top: str, seen: list[str], variant: str,
                           wild_rank: str | None = None) -> Fraction:
    """The mean optimum over every physical unseen card, one solve each."""
    rules = PRESETS[variant]
    deck = [c for c in range(52) for _ in range(rules.decks)]
    deck += [JOKER] * (rules.decks * rules.jokers_per_deck)
    for card in parse_cards([*hand, top, *seen]):
        deck.remove(card)
    values = []
    for card in deck:
        solution = solve([*hand, card_name(card)], variant, wild_rank=wild_rank, discard=True)
        values.append(solution.net_points if rules.objective == "max_net"
                      else solution.deadwood_points)
    return Fraction(sum(values), len(values))


DRAW_CASES = [
    ("gin", "AS 2S 3S 7H 7D 7C KD QH 4C 9S", "4S", "", None),
    ("gin", "5H 6H 8H 9S 9D 2C 3C KD QH JS", "7H", "4H 9H TH 9C", None),
    ("rummy500", "AH 2H 5S 6S 9D 9C KC", "3H", "JK", None),
    ("rommy", "4D 5D 9H 9S KC QC 2S", "9C", "", None),
    ("basic", "3S 4S 5S 8D 8C KH 2D", "8H", "8S", None),
]


@pytest.mark.parametrize(("variant", "hand", "top", "seen", "wild_rank"), DRAW_CASES)
def test_draw_expectation_matches_enumeration(
    variant: str, hand: str, top: str, seen: str, wild_rank: str | None
) -> None:
    hint = draw_hint(hand, top, variant, seen=seen or None, wild_rank=wild_rank)
    expected = enumerated_expectation(hand.split(), top, seen.split(), variant, wild_rank)
    assert hint.expected == expected
    rules = PRESETS[variant]
    assert hint.unseen == 52 * rules.decks + rules.decks * rules.jokers_per_deck - len(
        hand.split()) - 1 - len(seen.split())
    # taking the top card: the best of every discard but the card taken
    held = [*hand.split(), top]
    takes = [solve([c for i, c in enumerate(held) if i != drop], variant)
             for drop in range(len(held) - 1)]
    values = [t.net_points if rules.objective == "max_net" else t.deadwood_points for t in takes]
    assert hint.take_value == (max(values) if rules.objective == "max_net" else min(values))
    assert hint.take.discard is not None
    assert card_name(hint.take.discard) != top
    lower_is_better = rules.objective != "max_net"
    if hint.take_value == hint.expected:
        assert hint.recommendation == "either"
    elif (hint.take_value < hint.expected) == lower_is_better:
        assert hint.recommendation == "take_discard"
    else:
        assert hint.recommendation == "draw_blind"
    CHECKED["draw_expectation"] += 1


def test_draw_expectation_with_two_decks_by_enumeration() -> None:
    # indian13: two decks and two jokers, so unseen card types weigh 1 or 2 copies
    hand = "3H 4H 5H 9C JC QS QD 4D 5D 6D 7D 2C KS"
    hint = draw_hint(hand, "8D", "indian13", wild_rank="7", seen="9D 9D AS")
    assert hint.expected == enumerated_expectation(hand.split(), "8D", ["9D", "9D", "AS"],
                                                   "indian13", "7")
    weights = {card_name(o.card): o.copies for o in hint.outcomes}
    assert "9D" not in weights and weights["AS"] == 1
    assert weights["JK"] == 2 and weights["3H"] == 1 and weights["AC"] == 2
    assert hint.unseen == 106 - 13 - 1 - 3
    CHECKED["draw_expectation"] += 1


@pytest.mark.parametrize(("wild_rank", "cut_copies_left"), [("7H", 1), ("JK", 0)])
def test_the_cut_card_is_never_drawn_blind(wild_rank: str, cut_copies_left: int) -> None:
    """The cut card lies face up under the stock (seed 003: the stock is laid
    on it), so no draw brings it.  With the cut card named in full (7H, or a
    printed joker cut) the blind draw once weighed its two copies (7H) or the
    joker the hand does not hold as possible draws, over 92 cards."""
    hand = "3H 4H 5H 9C JK JC QS QD 2S 4D 5D 6D 9D"
    hint = draw_hint(hand, "8D", "indian13", wild_rank=wild_rank)
    weights = {card_name(o.card): o.copies for o in hint.outcomes}
    assert weights.get(wild_rank, 0) == cut_copies_left
    assert hint.unseen == 106 - 13 - 1 - 1
    assert hint.expected == enumerated_expectation(hand.split(), "8D", [wild_rank], "indian13",
                                                   wild_rank)
    with pytest.raises(InvalidHandError) as caught:  # both 7H and the cut 7H: three of two
        draw_hint("7H 7H 5H 9C JK JC QS QD 2S 4D 5D 6D 9D", "8D", "indian13", wild_rank="7H")
    assert caught.value.code == "too_many_copies"


@pytest.mark.parametrize("hands", [8, pytest.param(60, marks=pytest.mark.slow)])
@pytest.mark.parametrize("variant", ["gin", "rummy500", "basic"])
def test_random_draw_expectations_match_enumeration(variant: str, hands: int) -> None:
    rng = random.Random(f"draw-{variant}")
    rules = PRESETS[variant]
    shoe = list(range(52)) + [JOKER] * rules.jokers_per_deck
    for _ in range(hands):
        low = rng.randint(0, 6)
        dense = [c for c in shoe if c == JOKER or low <= c % 13 < low + 6]
        cards = rng.sample(dense if rng.random() < 0.5 else shoe, rules.hand_size + 1 + 3)
        hand, top, seen = cards[:rules.hand_size], cards[rules.hand_size], cards[rules.hand_size + 1:]
        hint = draw_hint(names(hand), card_name(top), variant, seen=names(seen))
        assert hint.expected == enumerated_expectation(names(hand), card_name(top), names(seen),
                                                       variant)
    CHECKED["draw_expectation"] += hands


def test_draw_hint_bad_input() -> None:
    with pytest.raises(InvalidHandError) as info:
        draw_hint("AS 2S 3S", "AS", "gin")
    assert info.value.field == "discard_top"
    with pytest.raises(InvalidHandError) as info:
        draw_hint("AS 2S 3S", "4S", "gin", seen="5S 4S")
    assert info.value.field == "seen" and info.value.index == 1
    everything = [card_name(c) for c in range(52) if card_name(c) not in ("AS", "2S", "3S", "4S")]
    with pytest.raises(InvalidHandError) as info:
        draw_hint("AS 2S 3S", "4S", "gin", seen=everything)
    assert info.value.code == "no_unseen_cards"


# --- layoffs hint -------------------------------------------------------------------


def test_layoffs_hint_fits_and_best_play() -> None:
    hint = layoffs_hint("8H 9H 4H JK 8C QC 2D",
                        [["5H", "6H", "7H"], ["7S", "7D", "7C"], ["JK", "9C", "TC"]], "rummy500")
    fits = {card_name(card): [(f.table_index, f.end, card_name(f.represents), names(f.via))
                              for f in found] for card, found in hint.fits}
    assert fits["4H"] == [(0, "low", "4H", [])]
    assert (0, "high", "9H", ["8H"]) in fits["9H"]
    assert (2, "high", "QC", ["JK"]) in fits["QC"]
    assert fits["8C"] == []  # the table's joker already stands for 8C
    assert (1, "set", "7H", []) in fits["JK"] and (2, "low", "7C", []) in fits["JK"]
    assert hint.best.net_points == hint.value == 36
    assert hint.better == "higher"


def test_a_wild_card_reaches_a_run_end_through_other_wild_cards() -> None:
    """Each wild card held reaches the far end of a run's extension, also when
    only wild cards fill the gap (two jokers take 5-6-7 to 9 or down to 3) and
    when another kind of wild card is its via (with 7s wild, 8D 7C 7S take
    5D-6D-7D to TD: either seven at TD, the other standing for 9D)."""
    hint = layoffs_hint("JK JK 2D", [["5S", "6S", "7S"]], "rummy500")
    fits = {card_name(card): {(f.table_index, f.end, card_name(f.represents), tuple(names(f.via)))
                              for f in found} for card, found in hint.fits}
    assert fits["JK"] == {(0, "high", "8S", ()), (0, "low", "4S", ()),
                          (0, "high", "9S", ("JK",)), (0, "low", "3S", ("JK",))}
    hint = layoffs_hint("8D 7C 7S", [["5D", "6D", "7D"]], "indian13", wild_rank="7H",
                        rules={"objective": "min_deadwood"})
    fits = {card_name(card): {(f.table_index, f.end, card_name(f.represents), tuple(sorted(names(f.via))))
                              for f in found} for card, found in hint.fits}
    for seven, other in (("7C", "7S"), ("7S", "7C")):
        assert (0, "high", "TD", tuple(sorted(("8D", other)))) in fits[seven]
        assert (0, "high", "9D", (other,)) in fits[seven]  # the other seven as 8D


def test_layoffs_hint_gin_min_deadwood() -> None:
    hint = layoffs_hint("8H 9H KS 3C 4C 5C", [["5H", "6H", "7H"]], "gin")
    assert hint.value == 10 and hint.better == "lower"


def test_layoffs_hint_bad_input() -> None:
    with pytest.raises(InvalidHandError) as info:
        layoffs_hint("8H", [["5H", "6H", "7H"], ["2C", "9D", "KS"]], "gin")
    assert info.value.field == "table[1]"
    with pytest.raises(InvalidHandError) as info:
        layoffs_hint("8H", [["5H", "6H", "ZZ"]], "gin")
    assert info.value.field == "table[0]" and info.value.index == 2
    with pytest.raises(InvalidRulesError) as rules_info:
        layoffs_hint("8H", [["5H", "6H", "7H"]], "indian13")
    assert rules_info.value.knob == "variant"


# --- pile pickup hint ----------------------------------------------------------------


def test_pile_hint_legality_and_uses() -> None:
    hint = pile_hint("8H 9H 4H 2D 8C", [["5H", "6H", "7H"]], "KS 3C 8D 8S QD", "rummy500")
    by_depth = {d.depth: d for d in hint.depths}
    assert names(by_depth[1].taken) == ["QD"] and not by_depth[1].must_use and by_depth[1].legal
    assert by_depth[2].legal and by_depth[2].uses[0].kind == "meld"
    assert names(by_depth[2].uses[0].meld.cards) == ["8S", "8H", "8C"]
    assert by_depth[3].legal and by_depth[3].net == 33
    assert not by_depth[4].legal and by_depth[4].net is None  # 3C fits nowhere
    assert hint.best_depth == 3


def test_rommy_charges_the_penalty_when_no_meld_is_possible() -> None:
    hint = pile_hint("8H 9H 4H 2D 8C", [["5H", "6H", "7H"]], "KS 3C 8D 8S QD", "rommy")
    deep = hint.depths[3]
    assert deep.legal and deep.penalty == 50 and deep.net is not None and deep.best is not None
    assert deep.net == deep.best.net_points - 50


def test_rommy_pays_the_penalty_when_every_use_nets_less() -> None:
    """2C can only go into 2C JK JK, which breaks both joker sets (net 10);
    leaving it unused keeps them and pays 50 (90 - 5 - 5 - 50 = 30). The
    hint reported 10: it charged the penalty only when no use existed."""
    hint = pile_hint("KS KH QD QS JK JK", [], "2C 9D", "rommy")
    deep = hint.depths[1]
    assert deep.uses and deep.uses[0].net == 10
    assert deep.legal and deep.penalty == 50 and deep.net == 30
    assert deep.best is not None and deep.best.net_points == 80


def test_pile_hint_uses_a_layoff_of_the_deepest_card() -> None:
    hint = pile_hint("2D 3D", [["5H", "6H", "7H"]], "4H KC", "rummy500")
    deep = hint.depths[1]
    assert deep.legal and deep.uses[0].kind == "layoff" and deep.uses[0].table_index == 0


def test_pile_hint_offers_no_new_meld_when_only_layoffs_are_allowed() -> None:
    """Under ``new_melds_after_opening=false`` the deepest card taken can only
    be laid off: 5S JK 7S is no use then (it was offered, net 9)."""
    rules = {"new_melds_after_opening": False}
    hint = pile_hint("8H JK 7S", [], ["5S", "TH"], "rummy500", rules=rules)
    deep = hint.depths[1]
    assert deep.must_use and not deep.legal and deep.net is None and deep.uses == ()
    hint = pile_hint("8H JK 7S", [["2S", "3S", "4S"]], ["5S", "TH"], "rummy500", rules=rules)
    deep = hint.depths[1]
    assert deep.legal and {use.kind for use in deep.uses} == {"layoff"}
    assert deep.best is not None and deep.best.melds == ()
    assert names(deep.best.layoffs[0].cards)[0] == "5S"


def test_layoffs_and_pile_go_by_the_knobs_not_the_preset() -> None:
    """An Indian preset whose objective a house rule sets lays off and takes the
    pile; a house rule that sets an Indian objective, or pile_pickup none, is
    refused on that knob (it was refused on "variant", which said the variant
    was the fault: "variant 'rummy500' does not take from the discard pile ...
    rummy500 and rommy do")."""
    house = {"objective": "min_deadwood"}
    hint = layoffs_hint("8H 9H", [["5H", "6H", "7S"]], "indian13", wild_rank="7H", rules=house)
    assert hint.best.layoffs and hint.value == 0
    pile = pile_hint("8H 9H", [], "7H 4C", "indian13", wild_rank="7H",
                     rules={"objective": "max_net", "pile_pickup": "must_meld"})
    assert pile.depths[1].legal
    for call, knob in (
            (lambda: layoffs_hint("8H", [], "basic", rules={"objective": "cascade"}), "objective"),
            (lambda: pile_hint("8H", [], "4H", "rummy500", rules={"objective": "marriage"}),
             "objective"),
            (lambda: pile_hint("8H", [], "4H", "rummy500", rules={"pile_pickup": "none"}),
             "pile_pickup")):
        with pytest.raises(InvalidRulesError) as info:
            call()
        assert info.value.loc == ("rules", knob) and info.value.code == "invalid_rules"
    with pytest.raises(InvalidRulesError) as info:
        layoffs_hint("8H", [], "indian13")
    assert info.value.loc == ("variant",) and info.value.code == "unknown_variant"
    with pytest.raises(InvalidRulesError) as info:
        pile_hint("8H", [], "4H", "gin")
    assert info.value.loc == ("variant",) and info.value.code == "invalid_rules"


def test_pile_hint_only_for_500_games() -> None:
    with pytest.raises(InvalidRulesError):
        pile_hint("2D", [], "4H", "gin")
    with pytest.raises(InvalidHandError) as info:
        pile_hint("2D", [], "4H 2D", "rummy500")
    assert info.value.field == "discard_pile" and info.value.index == 1


def _random_pile_case(rng: random.Random) -> tuple[list[list[int]], list[int], list[int]]:
    low = rng.randint(0, 8)
    pool = [make_card(r, s) for r in range(low, low + 5) for s in range(4)] + [JOKER, JOKER]
    rng.shuffle(pool)
    table: list[list[int]] = []
    if rng.random() < 0.6:
        suit = rng.randrange(4)
        run = [make_card(r, suit) for r in range(low + 1, low + 4)]
        table.append(run)
        pool = [c for c in pool if c not in run]
    hand = pool[:rng.randint(2, 4)]
    pile = pool[len(hand): len(hand) + rng.randint(2, 4)]
    return table, hand, pile


@pytest.mark.parametrize("cases", [150, pytest.param(1000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("variant", ["rummy500", "rommy"])
def test_pile_hint_matches_brute_force(variant: str, cases: int) -> None:
    rng = random.Random(f"pile-{variant}")
    deal = make_deal(PRESETS[variant])
    checked = 0
    for _ in range(cases):
        table, hand, pile = _random_pile_case(rng)
        hint = pile_hint(names(hand), [names(m) for m in table], names(pile), variant)
        melds = [tm.meld for tm in read_table(table, deal)]
        for depth in hint.depths:
            held = [*hand, *depth.taken]
            free = brute_play(held, melds, deal)
            assert free is not None
            if not depth.must_use:
                assert depth.net == free[1]
                continue
            forced = brute_play(held, melds, deal, required=depth.deepest)
            if forced is not None and variant == "rommy" and free[1] - 50 > forced[1]:
                assert depth.legal and depth.penalty == 50 and depth.net == free[1] - 50
            elif forced is not None:
                assert depth.legal and depth.penalty == 0 and depth.net == forced[1], (
                    names(hand), names(pile), depth.depth)
            elif variant == "rommy":
                assert depth.legal and depth.net == free[1] - 50
            else:
                assert not depth.legal and depth.net is None
            checked += 1
    CHECKED[f"pile_{variant}_depths"] += checked


@pytest.mark.parametrize("seed", range(10))
def test_taking_the_top_never_throws_it_back_with_wilds_and_two_decks(seed: int) -> None:
    """The search path of the take (PassSearch.draw_cost with keep): its value is
    the best over every discard of a hand card, each solved on its own."""
    rng = random.Random(seed)
    deck = [card_name(c) for c in range(52) for _ in range(2)] + ["JK", "JK"]
    cards = rng.sample(deck, 40)
    hand = cards[:13]
    # a top the plain solve would throw straight back (the case the rule changes)
    top = next((t for t in cards[13:] if t not in hand and card_name(
        solve([*hand, t], "indian13", wild_rank="9", discard=True).discard or 0) == t), None)
    if top is None:
        pytest.skip("every card of this deal would be kept")
    hint = draw_hint(hand, top, "indian13", wild_rank="9")
    held = [*hand, top]
    values = [solve([c for i, c in enumerate(held) if i != drop], "indian13",
                    wild_rank="9").deadwood_points for drop in range(len(hand))]
    assert hint.take_value == min(values)
    assert hint.take.discard is not None and hint.take.discard in parse_cards(hand)


@pytest.mark.parametrize(("variant", "hand", "top", "wild_rank", "value", "thrown"), [
    # nothing melds: the joker taken costs its points in hand, and the search
    # that pools it with the hand's wild cards once threw it straight back
    ("rommy", "TC 3H 7H 5D", "JK", None, -40, "TC"),
    ("rummy500", "TC 3H 7H 5D", "JK", None, -30, "TC"),
    ("kalooki", "TC 3H 7H 5D", "JK", None, 40, "TC"),
])
def test_a_wild_top_taken_is_never_thrown_back(
    variant: str, hand: str, top: str, wild_rank: str | None, value: int, thrown: str,
) -> None:
    hint = draw_hint(hand, top, variant, wild_rank=wild_rank)
    assert hint.take.discard is not None and card_name(hint.take.discard) != top
    assert (hint.take_value, card_name(hint.take.discard)) == (value, thrown)
    kept = [c for c in hand.split() if c != thrown] + [top]
    solved = solve(kept, variant, wild_rank=wild_rank)
    assert hint.take_value == (solved.net_points if variant != "kalooki"
                               else solved.deadwood_points)


def test_untied_draw_searches_do_not_leak_rows_into_exact_solves() -> None:
    """The draws' untied passes drop melds with spare wild slots; an exact
    solve of the same deal afterwards must still find the joker's place (a
    shared row space once lost it: cost one tie unit more, the joker left
    unmelded)."""
    deal = make_deal(PRESETS["indian13"], "4S")
    hand = parse_cards("5H 6H 7H 9S TS JS 2C 2D 2S 8C KD QH JK")
    fresh = passes.SearchSession(deal, 1).solve(hand, False)
    caches._SHARED_ROWS.clear()
    passes.SearchSession(deal, 1, passes=tuple(untied(p) for p in passes_for(deal))).solve(
        hand, False)
    again = passes.SearchSession(deal, 1).solve(hand, False)
    assert (again.cost, again.deadwood) == (fresh.cost, fresh.deadwood)
    assert parse_cards("JK")[0] not in again.deadwood


def test_hands_and_tables_past_their_bound_are_refused_before_their_cards_are_read() -> None:
    # RULES.md: at most 30 cards in a hand and 50 table melds.  The count is
    # the error, whatever the cards: "ZZ" would be an unknown card.
    oversized = ["ZZ"] + ["AS"] * 30
    for call in (lambda: solve(oversized, variant="basic"),
                 lambda: discard_hint(oversized, variant="basic")):
        with pytest.raises(InvalidHandError) as info:
            call()
        assert (info.value.code, info.value.loc) == ("hand_too_large", ("hand",))
    with pytest.raises(InvalidHandError) as info:
        layoffs_hint(["AS"], table=[["ZZ"]] * 51, variant="basic")
    assert (info.value.code, info.value.loc) == ("table_too_large", ("table",))
