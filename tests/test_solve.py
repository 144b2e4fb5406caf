"""solve(): the worked examples of RULES.md and the seeds, ties, invariances, bad input."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import (
    InvalidHandError,
    InvalidOptionError,
    InvalidRulesError,
    Solution,
    solve,
    validate,
)
from solver.cards import card_name
from solver.deadline import Deadline


def names(cards: tuple[int, ...]) -> list[str]:
    return [card_name(c) for c in cards]


def meld_names(solution: Solution) -> list[list[str]]:
    return [names(m.cards) for m in solution.melds]


# --- Gin (000) -----------------------------------------------------------------

def test_gin_example_33() -> None:
    # A♠ 2♠ 3♠ | 7♥ 7♦ 7♣ | K♦ Q♥ 4♣ 9♠  -> 10 + 10 + 4 + 9
    solution = solve(["AS", "2S", "3S", "7H", "7D", "7C", "KD", "QH", "4C", "9S"], variant="gin")
    assert solution.deadwood_points == 33
    assert sorted(meld_names(solution)) == [["7H", "7D", "7C"], ["AS", "2S", "3S"]]
    assert solution.optimal and solution.status == "optimal"
    assert not solution.declarable  # 33 > knock limit 10


def test_gin_eleven_cards_discard_6s_for_9() -> None:
    # 2♠ 5♠ 6♠ | 2♣ 4♣ 5♣ 6♣ | 3♦ 4♦ 5♦ 6♦ : keep 3-6♦, 4-6♣; deadwood 2♠ 5♠ 2♣ = 9.
    # Discarding 5♠ instead leaves 2♠ 6♠ 2♣ = 10: a knock too, but not the optimum
    # (the 6♠ cannot join 6♣ 6♦ without breaking both runs).
    hand = "2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D"
    solution = solve(hand, variant="gin", discard=True)
    assert solution.deadwood_points == 9
    assert solution.discard is not None and card_name(solution.discard) == "6S"
    assert solution.declarable
    assert solve(hand.replace("5S ", ""), variant="gin").deadwood_points == 10


def test_gin_eleven_cards_goes_gin() -> None:
    solution = solve("7S 3C 4C 5C 6C 5D 6D 7D 5H 6H 7H", variant="gin", discard=True)
    assert solution.deadwood_points == 0
    assert solution.discard is not None and card_name(solution.discard) == "7S"
    assert solution.declarable and not solution.deadwood


def test_discard_is_joint_optimum_of_every_single_discard() -> None:
    hand = ["2S", "5S", "6S", "2C", "4C", "5C", "6C", "3D", "4D", "5D", "6D"]
    each = [solve(hand[:i] + hand[i + 1:], "gin").deadwood_points for i in range(len(hand))]
    assert solve(hand, "gin", discard=True).deadwood_points == min(each)


# --- Aces (000, 001, 003, 004) ------------------------------------------------

def test_q_k_a_valid_only_with_high_ace() -> None:
    assert solve("QH KH AH", "gin").deadwood_points == 21  # ace low only
    assert solve("QH KH AH", "rummy500").declarable  # high_low
    assert solve("QH KH AH", "gin", rules={"ace": "wrap"}).deadwood_points == 0


def test_k_a_2_never_around_the_corner_under_high_low() -> None:
    solution = solve("KH AH 2H", "rummy500")
    assert solution.melds == () and solution.net_points == -(10 + 15 + 2)
    assert solve("KH AH 2H", "rummy500", rules={"ace": "wrap"}).declarable


def test_rummy500_ace_low_scores_one() -> None:
    low = solve("AH 2H 3H", "rummy500")
    assert low.meld_points == 1 + 2 + 3
    high = solve("QH KH AH", "rummy500")
    assert high.meld_points == 10 + 10 + 15
    # A-2-3 plus the ace as part of a set of aces: the set reading is worth more
    both = solve("AH 2H 3H AS AD", "rummy500")
    assert both.net_points == max(6 - 30, 45 - 5)


# --- Sets ------------------------------------------------------------------------

def test_four_kings_and_a_joker_is_not_a_set() -> None:
    solution = solve("KS KH KD KC JK", "rummy500")
    assert all(len(m.cards) <= 4 for m in solution.melds)
    assert not solution.declarable  # five cards can never all be melded
    # best: three kings + joker (15) melded, one king in hand
    assert solution.net_points == 30 + 15 - 10


def test_two_identical_cards_never_in_one_set() -> None:
    solution = solve("9S 9S 9H", "indian13")
    assert solution.melds == ()
    house = solve("9S 9S 9H", "indian13", rules={"set_allow_same_suit": True,
                                                 "min_sequences": 0, "min_pure_sequences": 0})
    assert house.declarable


def test_joker_states_its_meaning() -> None:
    solution = solve("6H 7H JK", "rummy500")
    (meld,) = solution.melds
    assert meld.kind == "run"
    joker_at = names(meld.cards).index("JK")
    assert card_name(meld.represents[joker_at]) in ("5H", "8H")
    assert solution.meld_points == 6 + 7 + 15


# --- 001: the example round ----------------------------------------------------

def test_rummy500_example_round_six_seven_eight_hearts_scores_21() -> None:
    solution = solve("6H 7H 8H 2S", "rummy500")
    assert solution.meld_points == 21
    assert solution.net_points == 21 - 2


# --- Indian (003) ----------------------------------------------------------------

def test_wild_rank_card_used_as_itself_keeps_run_pure() -> None:
    solution = solve("6H 7H 8H", "indian13", wild_rank="7",
                     rules={"min_sequences": 1, "min_pure_sequences": 1})
    (meld,) = solution.melds
    assert meld.pure and names(meld.cards) == ["6H", "7H", "8H"]
    assert solution.declarable


def test_cascade_tier_one_no_pure_sequence_every_card_counts() -> None:
    hand = "2S 4S 6S 8S TS QS 2H 4H 6H 8H TH QH KD"
    solution = solve(hand, "indian13")
    assert solution.deadwood_points == 90
    assert solution.penalty_points == 80  # capped


def test_cascade_tier_two_pure_sequence_only_exempts_itself() -> None:
    # pure 3-4-5♠ and a set of nines, no second sequence: the set still counts
    hand = "3S 4S 5S 9H 9D 9C 2H 4H 6H 7C TD QD KC"
    solution = solve(hand, "indian13")
    assert solution.deadwood_points == 88 - 12
    assert solve(hand, "indian13", rules={"penalty_tiers": 2}).deadwood_points == 80 + 8
    assert solve(hand, "indian13", rules={"penalty_tiers": 2}).penalty_points == 80


def test_cascade_tier_three_only_unmelded_cards_count() -> None:
    hand = "3S 4S 5S 9H TH JH KD KC KH 2D 4C 6C 8D"
    solution = solve(hand, "indian13")
    assert solution.deadwood_points == 2 + 4 + 6 + 8
    assert not solution.declarable


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_cascade_with_lay_down_all_keeps_its_tiers(engine: str) -> None:
    # RULES.md: with the requirements met (two sequences, one pure) only the
    # unmelded cards count -- here the KD (10).  lay_down_all is a lay-down
    # knob (an opening under min_deadwood / max_net); the Indian tiers do
    # not read it, and validate() scores this arrangement 10 either way.
    hand = "AH 2H 3H 5S 6S 7S KD"
    solution = solve(hand, "indian13", wild_rank="9", rules={"lay_down_all": True},
                     engine=engine)
    assert solution.deadwood_points == 10
    assert sorted(meld_names(solution)) == [["5S", "6S", "7S"], ["AH", "2H", "3H"]]
    assert not solution.declarable


def test_indian13_declaration_with_wilds() -> None:
    # pure 3-4-5♥, impure 9-JK-J♣ (JK = T♣), set Q♠ Q♦ 7♠(wild), run 4-5-6-7♦ natural
    hand = "3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C"
    solution = solve(hand, "indian13", wild_rank="7", discard=True)
    assert solution.declarable and solution.deadwood_points == 0
    assert card_name(solution.discard or 0) == "2C"


def test_indian21_needs_three_pure_sequences() -> None:
    # A-2-3♠ 4-5-6♥ 7-8-9♣ T-J-Q♦ pure; sets of kings, fives, nines
    hand = "AS 2S 3S 4H 5H 6H 7C 8C 9C TD JD QD KS KH KD 5S 5D 5C 9S 9H 9D"
    solution = solve(hand, "indian21", wild_rank="2C")  # 2s, A♣ and 3♣ are wild
    assert solution.declarable and solution.deadwood_points == 0
    broken = hand.replace("8C", "8S").replace("TD JD QD", "TD JH QD").replace("4H", "4D")
    assert not solve(broken, "indian21", wild_rank="2C").declarable


def test_tanala_counts_as_pure_sequence() -> None:
    solution = solve("TC TC TC", "indian21", wild_rank="5H", rules={"min_pure_sequences": 1})
    assert [m.kind for m in solution.melds] == ["tanala"]
    assert solution.declarable


# --- Contract rummy and Kalooki (rule book section 8) ---------------------------

def test_contract_and_kalooki_melds_are_sets_and_runs_also_with_three_decks() -> None:
    # Contract: "A set is 3 or more cards of one rank, suits may repeat", and the
    # first lay-down is exactly the contract's melds: TS TS TS is a set, not an
    # extra tanala.  Round 1 (two sets): TS TS TS JK + JS JS JS, the queens stay (30).
    solution = solve("TS JK QS JS JS TS QS TS JS QS", "contract", rules={"decks": 3})
    assert [m.kind for m in solution.melds] == ["set", "set"]
    assert solution.deadwood_points == 30
    # Kalooki: sets of different suits and runs only; 5C 5C 5C is no meld.
    solution = solve("5C 5C 5C 9S 9H 9D KS KH KD", "kalooki", rules={"decks": 3})
    assert [m.kind for m in solution.melds] == ["set", "set"]
    assert solution.deadwood_points == 15
    report = validate([["5C", "5C", "5C"], ["9S", "9H", "9D"], ["KS", "KH", "KD"]], [],
                      "kalooki", rules={"decks": 3})
    assert not report.valid and not report.declarable


# --- Invariances --------------------------------------------------------------

@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.permutations(["3H", "4H", "5H", "9C", "JK", "JC", "QS", "QD", "7S", "4D", "5D", "6D", "7D", "2C"]))
def test_shuffling_never_changes_the_optimum(order: list[str]) -> None:
    solution = solve(order, "indian13", wild_rank="7", discard=True)
    assert solution.deadwood_points == 0
    assert solution == solve(sorted(order), "indian13", wild_rank="7", discard=True)


def test_cards_are_conserved() -> None:
    hand = ["2S", "5S", "6S", "2C", "4C", "5C", "6C", "3D", "4D", "5D", "6D"]
    solution = solve(hand, "gin", discard=True)
    used = [c for m in solution.melds for c in m.cards] + list(solution.deadwood)
    assert solution.discard is not None
    assert Counter([*names(tuple(used)), card_name(solution.discard)]) == Counter(hand)


# --- Bad input ---------------------------------------------------------------

def test_unknown_token_reports_position() -> None:
    with pytest.raises(InvalidHandError, match=r"'ZZ' at position 2"):
        solve(["AS", "2S", "ZZ"], "gin")


def test_too_many_copies() -> None:
    with pytest.raises(InvalidHandError, match="too many copies of 9S"):
        solve("9S 9S 9H", "gin")


def test_too_many_jokers() -> None:
    with pytest.raises(InvalidHandError, match="too many jokers"):
        solve("JK JK JK", "rummy500")


def test_wild_rank_for_variant_without_wilds() -> None:
    with pytest.raises(InvalidHandError) as info:
        solve("AS 2S 3S", "gin", wild_rank="7")
    assert info.value.field == "wild_rank"


def test_hand_over_thirty_cards() -> None:
    with pytest.raises(InvalidHandError, match="at most 30"):
        solve(["AS"] * 31, "gin", rules={"decks": 8})


def test_bad_knob_and_engine() -> None:
    with pytest.raises(InvalidRulesError):
        solve("AS", "gin", rules={"ace": "sideways"})
    # How the call runs is not the hand's fault: its own error, its own code and loc.
    with pytest.raises(InvalidOptionError, match="engine") as engine_error:
        solve("AS", "gin", engine="magic")
    assert (engine_error.value.code, engine_error.value.loc) == ("invalid_engine", ("engine",))
    assert not isinstance(engine_error.value, InvalidHandError)
    with pytest.raises(InvalidOptionError, match="time_limit_ms") as limit_error:
        solve("AS", "gin", time_limit_ms=0)
    assert limit_error.value.loc == ("time_limit_ms",)


def test_empty_hand() -> None:
    assert solve([], "gin").deadwood_points == 0
    with pytest.raises(InvalidHandError):
        solve([], "gin", discard=True)


# --- Bounded time ------------------------------------------------------------

def test_twenty_two_cards_with_ten_wilds_returns_within_its_limit() -> None:
    # cut 7H: every 7, 6H, 8H and the jokers are wild; ten of them here
    wilds = "7S 7S 7H 7D 7C 7C 6H 8H JK JK"
    naturals = "AS 3S 5S 9S 2H TH KH 4D JD QD 3C 9C"
    solution = solve(f"{wilds} {naturals}", "indian21", wild_rank="7H", discard=True,
                     time_limit_ms=2000)
    assert solution.status in ("optimal", "feasible", "timeout")
    assert solution.optimal == (solution.status == "optimal")
    kept = sorted([c for m in solution.melds for c in m.cards] + list(solution.deadwood))
    assert len(kept) == 21 and solution.discard is not None


def test_search_budget_exhaustion_is_reported_not_raised() -> None:
    from solver.engines.base import Instance
    from solver.session import run_engine
    from solver.solve import prepare

    instance: Instance = prepare("7S 7H 7D 7C 6H 8H JK JK AS 3S 5S 9S 2H TH KH 4D JD QD 3C 9C 5C 8C",
                                 "indian21", "7H", True, None)
    result, engine = run_engine(instance, "search", Deadline.after_ms(2000), node_budget=5)
    assert engine == "search" and result.status == "timeout" and not result.optimal
    result, engine = run_engine(instance, "auto", Deadline.after_ms(2000), node_budget=5)
    assert engine == "cpsat"


def test_go_out_sees_same_suit_sets_built_from_copies() -> None:
    # 4H 4D 4D is a set only with same-suit sets: the quick "some card cannot
    # meld" check once counted one 4D, missed it, and declared the hand stuck.
    rules = {"decks": 2, "set_allow_same_suit": True, "max_set_size": 5}
    solution = solve("AS 2S 3S AH AD AC 4H 4D 4D", "rummy500", rules=rules)
    assert solution.net_points == 67 and solution.deadwood
    assert solution.declarable and solution.go_out is not None
    assert solution.go_out.net_points == 63


def test_shared_caches_stay_within_their_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from solver.engines import caches

    rng = random.Random(4)
    deck = [card_name(c) for c in range(52) for _ in range(3)] + ["JK"] * 6
    hands = [(rng.sample(deck, 22), card_name(rng.randrange(52))) for _ in range(12)]
    expected = [solve(h, "indian21", wild_rank=w, discard=True).deadwood_points for h, w in hands]
    for cache in (caches._SHARED_ROWS, caches._CANDIDATES):
        monkeypatch.setattr(cache, "limit", 3_000)
        cache.clear()
    small = [solve(h, "indian21", wild_rank=w, discard=True).deadwood_points for h, w in hands]
    assert small == expected  # the limits cost time, never the answer
    for cache in (caches._SHARED_ROWS, caches._CANDIDATES):
        assert 0 < cache.held <= 3_000
        assert cache.held == sum(weight for _, weight in cache._entries.values())
