"""The CP-SAT engine (``solver.engines.cpsat``): named hands, status mapping,
determinism, hints, and a small independent check against the brute force.

The agreement with the search engine on thousands of random hands lives in
``tests/test_engines_agree.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from solver import solve
from solver.assemble import build_meld, build_solution
from solver.cards import JOKER, card_name, make_card, parse_cards
from solver.engines.base import INFEASIBLE, EngineResult, Instance, PlacedMeld
from solver.engines.cpsat import model_size, solve_cpsat
from solver.melds import Candidate
from solver.rules import make_deal, make_rules
from solver.session import solve_search
from solver.solve import prepare
from tests.bruteforce import brute_optimum


def laid_out(result: EngineResult) -> Counter[int]:
    """Every card of an engine result: melds (naturals and wilds), deadwood, discard."""
    cards: Counter[int] = Counter(result.deadwood)
    for placed in result.melds:
        cards.update(placed.candidate.naturals)
        cards.update(placed.wild_cards)
    if result.discard is not None:
        cards[result.discard] += 1
    return cards


# ---------------------------------------------------------------------------
# Named hands


def test_gin_example_33() -> None:
    #  A♠ 2♠ 3♠ | 7♥ 7♦ 7♣ | K♦ Q♥ 4♣ 9♠ -> 10 + 10 + 4 + 9
    solution = solve("AS 2S 3S 7H 7D 7C KD QH 4C 9S", "gin", engine="cpsat")
    assert solution.deadwood_points == 33
    assert solution.engine == "cpsat"
    assert solution.status == "optimal" and solution.optimal
    assert sorted(m.kind for m in solution.melds) == ["run", "set"]


def test_gin_eleven_cards_tie_discard_9() -> None:
    #  2♠ 5♠ 6♠ | 2♣ 4♣ 5♣ 6♣ | 3♦ 4♦ 5♦ 6♦: keep 3-6♦ and 4-6♣ (or 5-6 of
    #  two suits...); 2♠ 2♣ 5♠/6♠ stay out, the other spade is thrown.
    solution = solve("2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D", "gin", discard=True, engine="cpsat")
    assert solution.deadwood_points == 9
    assert solution.discard is not None and card_name(solution.discard) in ("5S", "6S")
    assert solution.optimal


def test_gin_eleven_cards_tie_discard_0() -> None:
    #  5-7♥, 5-7♦, 3-6♣ meld; 7♠ is thrown -> gin.
    solution = solve("7S 3C 4C 5C 6C 5D 6D 7D 5H 6H 7H", "gin", discard=True, engine="cpsat")
    assert solution.deadwood_points == 0
    assert solution.discard is not None and card_name(solution.discard) == "7S"
    assert solution.declarable


def test_indian13_with_wilds_declares() -> None:
    # 7s wild: 2-4♥ pure, 5♠ 6♠ + a wild, 9-J♣, Q♠ Q♥ Q♦, a joker to spare;
    # the extra K♠ is thrown and every card is melded.
    solution = solve("2H 3H 4H 5S 6S 7D 9C TC JC QD QS QH JK KS", "indian13",
                     wild_rank="7", discard=True, engine="cpsat")
    assert solution.deadwood_points == 0
    assert solution.declarable
    assert solution.discard == parse_cards("KS")[0]
    assert sum(1 for m in solution.melds if m.pure) >= 1
    assert sum(1 for m in solution.melds if m.is_sequence) >= 2


def test_indian13_not_declarable_counts_deadwood() -> None:
    # As above with K♥ for Q♥ (7s wild):  2-4♥ | 9-J♣ | Q♠ Q♦ 7♦ | K♠ K♥ JK
    # leaves 5♠ 6♠: throw 6♠, 5♠ counts 5 (melding 5♠ 6♠ with a wild
    # instead would leave a queen or a king pair: 20).
    solution = solve("2H 3H 4H 5S 6S 7D 9C TC JC QD QS KH JK KS", "indian13",
                     wild_rank="7", discard=True, engine="cpsat")
    assert solution.deadwood_points == 5
    assert solution.deadwood == tuple(parse_cards("5S"))
    assert solution.discard == parse_cards("6S")[0]
    assert not solution.declarable


def test_rummy500_joker_completes_set_and_ace_scores_low() -> None:
    #  A♠ 2♠ 3♠ melded low (1 + 2 + 3) | 7♥ 7♦ JK (7 + 7 + 15) | 4♣ in hand
    solution = solve("AS 2S 3S JK 7H 7D 4C", "rummy500", engine="cpsat")
    assert solution.net_points == 6 + 29 - 4 == 31
    assert sorted(m.points for m in solution.melds) == [6, 29]


def test_rummy500_ace_high_beats_ace_low() -> None:
    #  Q♠ K♠ A♠ (35, the ace high scores 15) + 2♠ 3♠ JK (2 + 3 + 15)
    solution = solve("QS KS AS 2S 3S JK", "rummy500", engine="cpsat")
    assert solution.net_points == 55
    assert solution.declarable
    # without the joker the ace still goes high: 35 - (2 + 3)
    assert solve("QS KS AS 2S 3S", "rummy500", engine="cpsat").net_points == 30


def test_dead_jokers_are_deadwood() -> None:
    # rummy500 with printed jokers not wild: the joker is a 15-point dead card
    solution = solve("5H 6H 7H JK", "rummy500", rules={"printed_jokers_wild": False},
                     engine="cpsat")
    assert solution.deadwood == (JOKER,)
    assert solution.net_points == 18 - 15


# ---------------------------------------------------------------------------
# Status mapping, determinism, hints

HARD_HAND = ("7C 2C KD 7H 7H 2S 4S JH 5C AC 6H 7S 4H 2H TH 8D 5H KC QC JD 9C 3S")


def test_tiny_time_limit_never_raises() -> None:
    instance = prepare(HARD_HAND, "indian21", "7C", True, None)
    for limit in (1e-9, 1e-4, 1e-3):
        result = solve_cpsat(instance, time_limit_s=limit)
        assert result.status in ("optimal", "feasible", "timeout")
        assert result.optimal == (result.status == "optimal")
        assert laid_out(result) == Counter(instance.cards)
        assert result.discard is not None
        if result.status == "timeout":
            assert result.melds == ()


def test_time_limit_through_solve() -> None:
    solution = solve(HARD_HAND, "indian21", wild_rank="7C", discard=True, engine="cpsat",
                     time_limit_ms=1)
    assert solution.status in ("optimal", "feasible", "timeout")
    assert solution.optimal == (solution.status == "optimal")


def test_deterministic() -> None:
    instance = prepare(HARD_HAND, "indian21", "7C", True, None)
    first = solve_cpsat(instance, time_limit_s=30)
    second = solve_cpsat(instance, time_limit_s=30)
    assert first == second
    assert first.status == "optimal"


def test_hint_from_search_keeps_the_optimum() -> None:
    instance = prepare(HARD_HAND, "indian21", "7C", True, None)
    searched = solve_search(instance, node_budget=10**8)
    hinted = solve_cpsat(instance, time_limit_s=30, hint=searched)
    assert hinted.optimal
    assert hinted.cost == searched.cost
    assert hinted.pass_name == searched.pass_name


def test_infeasible_is_reported_not_raised() -> None:
    # An engine-level instance that cannot discard (prepare() rejects it).
    instance = Instance(make_deal(make_rules("gin")), (), True)
    result = solve_cpsat(instance)
    assert result.status == "infeasible"
    assert result.cost == INFEASIBLE
    assert solve_search(instance).status == "infeasible"


def test_wild_cards_fill_slots_and_leftovers_stay_in_hand() -> None:
    # 7s wild: 7♦ and JK fill slots, nothing left over; the result names them.
    instance = prepare("2H 3H 4H 5S 6S 7D 9C TC JC QD QS KH JK KS", "indian13", "7", True, None)
    result = solve_cpsat(instance)
    assert laid_out(result) == Counter(instance.cards)
    for placed in result.melds:
        assert len(placed.wild_cards) == placed.candidate.wilds
        assert all(c in instance.deal.wild for c in placed.wild_cards)


def test_a_wild_card_filling_its_own_slot_keeps_the_run_pure() -> None:
    # 2s wild: CP-SAT merges "AS 2S 3S 4S" with "AS * 3S 4S" (the same naturals
    # but one) and may fill the * with the 2S itself.  Every card then stands
    # for itself, so the run is pure (RULES.md 2.5), as the search reports it.
    hand = "5S 5H 5D AS 2S 3S 4S 7S"
    for engine in ("cpsat", "search"):
        solution = solve(hand, "basic", wild_rank="2", discard=True, rules={"cut_joker": True},
                         engine=engine, time_limit_ms=2000)
        runs = [m for m in solution.melds if m.kind == "run"]
        assert [card_name(c) for c in runs[0].cards] == ["AS", "2S", "3S", "4S"], engine
        assert runs[0].cards == runs[0].represents and runs[0].pure, engine
    deal = make_deal(make_rules("basic", {"cut_joker": True}), "2")
    two, three = parse_cards("2S 3S")
    slot = Candidate("run", (two - 1, three), 1, (two - 1, two, three), (True, False, True), True)
    assert build_meld(PlacedMeld(slot, (two,)), deal).pure
    assert not build_meld(PlacedMeld(slot, (make_card(1, 2),)), deal).pure  # 2D for the 2S


def test_model_size_reports_positive_counts() -> None:
    instance = prepare(HARD_HAND, "indian21", "7C", True, None)
    size = model_size(instance)
    assert size["variables"] > size["candidates"] > 0
    assert size["constraints"] > 0


# ---------------------------------------------------------------------------
# Small hands against the brute force (independent of the search engine)

SMALL_CASES = (
    ("basic", None), ("gin", None), ("rummy500", None), ("rommy", None),
    ("indian13", "rank"), ("indian21", "card"),
)


@pytest.mark.parametrize(("variant", "cut"), SMALL_CASES, ids=[c[0] for c in SMALL_CASES])
def test_small_hands_match_brute_force(variant: str, cut: str | None) -> None:
    rng = random.Random(f"cpsat-brute-{variant}")
    rules = make_rules(variant)
    shoe = [c for c in range(52) for _ in range(rules.decks)]
    shoe += [JOKER] * (rules.decks * rules.jokers_per_deck)
    for _ in range(25):
        wild_rank = None
        if cut == "rank":
            wild_rank = rng.choice("A23456789TJQK")
        elif cut == "card":
            wild_rank = card_name(rng.randrange(52))
        deal = make_deal(rules, wild_rank)
        # a narrow window of ranks so that melds occur, plus some wild cards
        low = rng.randrange(13)
        window = {(low + i) % 13 for i in range(4)}
        pool = [c for c in shoe if (c != JOKER and c % 13 in window) or c in deal.wild]
        hand = rng.sample(pool, rng.randint(4, 7))
        discard = rng.random() < 0.5
        names = [card_name(c) for c in hand]
        solution = build_solution(
            solve_cpsat(prepare(names, variant, wild_rank, discard, None)), deal, "cpsat")
        expected = brute_optimum(hand, deal, discard)[0]
        got = solution.net_points if rules.objective == "max_net" else solution.deadwood_points
        assert got == expected, f"{variant} {names} wild_rank={wild_rank} discard={discard}"
