"""Property tests: the section-8 variants of ``solve(engine="search")`` against
the brute force of ``tests/bruteforce.py`` (which learns every rule from
RULES.md on its own, sharing no point, meld or scoring code with the solver).

Cases: contract rummy rounds 1-7, Kalooki 51 and 40, a custom basic variant
(exactly two runs of 4+ worth 30), and knob combinations (ace ``high``,
``card_points`` overrides, ``wild_meld_value`` ``represented``, same-suit sets
capped by ``max_set_size``, ``min_run_length``, thresholds under ``max_net``,
Indian with the new meld sizes).  Hands of 7-12 kept cards (one more with
``discard=True``) are dealt from the real shoe of each ruleset (``decks`` x 52
+ ``decks`` x ``jokers_per_deck`` jokers), mostly dense: narrow rank windows,
or ready melds of the shapes the case needs (its contract's sets and runs),
some cards swapped for wilds (see ``dealt_hand``).

For every hand:

* ``value`` (net for max_net, else deadwood), ``declarable``, ``can_open``
  and ``go_out`` (None-ness, and its ``net_points`` under max_net) must equal
  the brute force's;
* the solution must be consistent on its own: cards conserved, every meld a
  valid reading by the brute-force reader, the reported points those of the
  arrangement shown (scored by ``brute_score``), melds shown under an opening
  rule actually open; the go-out arrangement melds every kept card, meets the
  requirements / threshold and has the points it states.

The default run is deterministic (``derandomize``) and short (40 hands per
case and discard setting); ``pytest --run-slow`` checks at least 2000 hands
per contract round and Kalooki threshold and 1000 per other case (half with
``discard``) and prints per-case counts, times and how many hands could open,
were declarable or had a separate go-out.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import solve
from solver.cards import RANKS, card_name, make_card, parse_card
from solver.rules import Deal, Rules, make_deal
from tests.bruteforce import (
    CHECKED,
    BruteReport,
    brute_report,
    brute_score,
    meld_reading_error,
    melds_meet_requirements,
    objective_value,
    opening_rules,
)
from tests.test_against_bruteforce import Case, assert_cards_and_melds, deck_of, objective_field

# How often the interesting answers came up, per case (printed by the slow run).
SEEN: Counter[tuple[str, str]] = Counter()


TWO_RUNS_30: dict[str, Any] = {
    "requirements": [{"kind": "run", "count": 2, "exact": True},
                     {"kind": "set", "count": 0, "exact": True}],
    "min_run_length": 4,
    "min_meld_points": 30,
}

CONTRACT_CASES: tuple[Case, ...] = tuple(
    Case(f"contract/r{n}", "contract", {"contract_round": n}) for n in range(1, 8))
KALOOKI_CASES: tuple[Case, ...] = (
    Case("kalooki/51", "kalooki"),
    Case("kalooki/40", "kalooki", {"opening_points": 40}),
)
OTHER_CASES: tuple[Case, ...] = (
    Case("basic/two_runs_of_4_worth_30", "basic", TWO_RUNS_30),
    Case("kalooki/ace=high", "kalooki", {"ace": "high"}),
    Case("rummy500/ace=high", "rummy500", {"ace": "high", "decks": 2}),
    Case("rummy500/card_points", "rummy500", {
        "card_points": {"hand": {"A": 20, "K": 12, "JK": 30}, "meld": {"A": 5, "5": 0, "JK": 8},
                        "ace_low": 2}}),
    Case("rummy500/represented", "rummy500", {"wild_meld_value": "represented", "decks": 2}),
    Case("rummy500/same_suit_sets<=5", "rummy500",
         {"decks": 2, "set_allow_same_suit": True, "max_set_size": 5}),
    Case("contract/r1/max_set_size=4", "contract", {"contract_round": 1, "max_set_size": 4}),
    Case("gin/run>=4,set<=3", "gin", {"min_run_length": 4, "max_set_size": 3}),
    Case("rommy/threshold_40+lay_down_all", "rommy",
         {"min_meld_points": 40, "lay_down_all": True}),
    Case("basic/zero_points+one_set", "basic", {
        "card_points": {"hand": {"2": 0, "3": 0}, "meld": {"K": 0}},
        "requirements": [{"kind": "set", "count": 1}]}),
    Case("indian13/ace=high,run>=4", "indian13", {"ace": "high", "min_run_length": 4},
         (*RANKS, "JK")),
    Case("indian13/threshold_30,represented", "indian13",
         {"min_meld_points": 30, "wild_meld_value": "represented",
          "wild_cards_score_zero": False}, (*RANKS, "JK")),
)
CASES: tuple[Case, ...] = CONTRACT_CASES + KALOOKI_CASES + OTHER_CASES

KEPT_SIZES = (7, 12)  # kept cards; the hand holds one more with discard=True
DEFAULT_EXAMPLES = 12  # per case and discard setting (the slow lane: below)
SLOW_EXAMPLES = 2000  # per contract round and Kalooki threshold, half with discard=True
SLOW_EXAMPLES_OTHER = 1000  # per other case


def _meld_plan(rules: Rules) -> tuple[int, int]:
    """How many sets and runs a built hand aims at: the requirement's, else 1-2 melds."""
    wanted = {item.kind: item.count for item in rules.requirements}
    runs = max(wanted.get("run", 0), wanted.get("sequence", 0), wanted.get("pure_sequence", 0))
    return wanted.get("set", 0), runs


def _set_cap(rules: Rules) -> int:
    """Most cards a built set gets (6 where sets are unlimited)."""
    if not rules.set_allow_same_suit:
        return 4 if rules.max_set_size is None else min(4, rules.max_set_size)
    return min(6, rules.max_set_size or 6)


@st.composite
def built_hand(draw: st.DrawFn, deal: Deal, deck: list[int], kept: int, size: int) -> list[int]:
    """Melds of the shapes the rules want (the contract's sets and runs, give
    or take one), close in rank so they compete for cards, some cards swapped
    for wilds.  Half the time the melds are stretched to hold all ``kept``
    cards (a hand that can go out, or lay everything down); else the hand is
    topped up from a narrow window or the shoe (``size`` cards in all)."""
    rules = deal.rules
    left = Counter(deck)
    hand: list[int] = []

    def take(card: int) -> None:
        if left[card] > 0 and len(hand) < size:
            left[card] -= 1
            hand.append(card)

    sets, runs = _meld_plan(rules)
    if rules.requirements:
        if draw(st.booleans()):  # not always the contract itself
            sets = max(0, sets + draw(st.integers(-1, 1)))
            runs = max(0, runs + draw(st.integers(-1, 1)))
    else:
        sets, runs = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    if sets + runs == 0:
        runs = 1
    kinds = draw(st.permutations(["set"] * sets + ["run"] * runs))
    shortest = {"set": 3, "run": max(3, rules.min_run_length)}
    longest = {"set": _set_cap(rules), "run": 13}
    lengths = [shortest[k] for k in kinds]
    if draw(st.booleans()):  # stretch the melds over every kept card
        for _ in range(max(0, kept - sum(lengths))):
            i = draw(st.integers(0, len(kinds) - 1))
            if lengths[i] < longest[kinds[i]]:
                lengths[i] += 1
    else:
        lengths = [draw(st.integers(n, n + 2)) for n in lengths]
    base = draw(st.integers(0, 12))
    for kind, length in zip(kinds, lengths, strict=True):
        near = (base + draw(st.integers(0, 4))) % 13
        if kind == "set":
            if rules.set_allow_same_suit:
                suits = draw(st.lists(st.integers(0, 3), min_size=length, max_size=length))
            else:
                suits = draw(st.permutations(range(4)))[:length]
            for suit in suits:
                take(make_card(near, suit))
        else:
            suit = draw(st.integers(0, 3))
            for i in range(length):  # may run past the king: invalid near the ace
                take(make_card((near + i) % 13, suit))
    wilds = sorted(c for c in deal.wild if left[c] > 0)
    for _ in range(draw(st.integers(0, 2)) if wilds and hand else 0):
        index = draw(st.integers(0, len(hand) - 1))
        wild = draw(st.sampled_from(wilds))
        if left[wild] > 0:
            left[hand[index]] += 1
            left[wild] -= 1
            hand[index] = wild
    window = {make_card((base + i) % 13, s) for i in range(5) for s in range(4)}
    dense = draw(st.booleans())
    while len(hand) < size:
        pool = sorted(c for c in left.elements() if not dense or c in window or c in deal.wild)
        take(draw(st.sampled_from(pool or sorted(left.elements()))))
    return hand


@st.composite
def dealt_hand(draw: st.DrawFn, case: Case, discard: bool) -> tuple[str | None, Deal, list[int]]:
    """A cut card, its deal and a hand of 7-12 kept cards (+1 with discard).

    Modes: built melds (half), cards from one or two narrow windows (a third),
    any cards of the shoe (the rest)."""
    rules = case.rules
    wild_rank = draw(st.sampled_from(case.wild_ranks))
    deal = make_deal(rules, wild_rank)
    deck = deck_of(rules)
    # half the time the ruleset's own hand size (12 for contract rounds 5-7)
    kept = draw(st.one_of(st.integers(*KEPT_SIZES),
                          st.just(min(max(rules.hand_size, KEPT_SIZES[0]), KEPT_SIZES[1]))))
    size = kept + discard
    mode = draw(st.sampled_from(("melds", "melds", "melds", "windows", "windows", "shoe")))
    if mode == "melds":
        return wild_rank, deal, draw(built_hand(deal, deck, kept, size))
    pool = deck
    if mode == "windows":
        chosen: set[int] = set()
        for _ in range(draw(st.integers(1, 2))):
            low = draw(st.integers(0, 12))
            width = draw(st.integers(2, 5))
            suit_count = draw(st.integers(1, 4))
            suits = draw(st.permutations(range(4)))[:suit_count]
            chosen.update(make_card((low + i) % 13, s) for i in range(width) for s in suits)
        with_wilds = draw(st.booleans())
        pool = [c for c in deck if c in chosen or (with_wilds and c in deal.wild)]
        if len(pool) < size:
            pool = deck
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size,
                          unique=True))
    return wild_rank, deal, [pool[i] for i in picks]


# ---------------------------------------------------------------------------
# The check


def _describe(report: BruteReport) -> str:
    w = report.witness
    text = (f"melds={[m.to_dict() for m in w.melds]} "
            f"deadwood={[card_name(c) for c in w.deadwood]} "
            f"discard={None if w.discard is None else card_name(w.discard)}")
    g = report.go_out_witness
    if g is not None:
        text += (f"; go-out melds={[m.to_dict() for m in g.melds]} "
                 f"discard={None if g.discard is None else card_name(g.discard)} "
                 f"net={g.points.net_points}")
    return text


def check_hand(case: Case, wild_rank: str | None, deal: Deal, hand: list[int],
               discard: bool, engine: str = "search") -> None:
    rules = deal.rules
    names = [card_name(c) for c in hand]
    where = (f"hand={' '.join(names)!r} variant={case.variant!r} rules={case.knobs!r} "
             f"wild_rank={wild_rank!r} discard={discard} engine={engine}")
    # CP-SAT gets the time to load OR-Tools (a cold solve with less falls back to the search).
    solution = solve(names, variant=case.variant, wild_rank=wild_rank, discard=discard,
                     rules=case.knobs or None, engine=engine, time_limit_ms=20000)
    assert solution.engine == engine, where
    report = brute_report(hand, deal, discard)
    CHECKED[case.name] += 1
    SEEN[case.name, "can_open"] += bool(report.can_open)
    SEEN[case.name, "declarable"] += report.declarable
    SEEN[case.name, "go_out"] += report.go_out_value is not None

    assert solution.status == "optimal", where
    got = (objective_field(solution, rules), solution.declarable, solution.can_open,
           solution.go_out is not None)
    expected = (report.value, report.declarable, report.can_open,
                report.go_out_value is not None)
    assert got == expected, (
        f"{where}: solve gives (value, declarable, can_open, go_out?)={got} "
        f"{solution.to_dict()}; brute force {expected} with {_describe(report)}")

    # the arrangement shown: cards conserved, valid melds, the points it states
    assert_cards_and_melds(solution, hand, discard, deal, where)
    points = brute_score(solution.melds, solution.deadwood, deal)
    assert (points.deadwood_points, points.meld_points, points.net_points,
            points.penalty_points, points.opened) == (
        solution.deadwood_points, solution.meld_points, solution.net_points,
        solution.penalty_points, solution.can_open), (where, points, solution.to_dict())
    assert objective_value(points, rules) == report.value, where
    if opening_rules(rules) and solution.melds:
        assert points.opened, f"{where}: melds shown that do not open: {solution.to_dict()}"

    # the go-out arrangement
    go = solution.go_out
    if go is None:
        return
    kept = list(hand)
    if discard:
        assert go.discard is not None, where
        kept.remove(go.discard)
    else:
        assert go.discard is None, where
    assert Counter(c for m in go.melds for c in m.cards) == Counter(kept), where
    for meld in go.melds:
        error = meld_reading_error(meld, deal)
        assert error is None, f"{where}: go-out meld {meld.to_dict()}: {error}"
    assert melds_meet_requirements(go.melds, rules), where
    go_points = brute_score(go.melds, (), deal)
    assert go_points.goes_out, (where, go.to_dict())
    assert (go_points.meld_points, go_points.net_points) == (go.meld_points, go.net_points), (
        where, go.to_dict())
    if rules.objective == "max_net":
        assert go.net_points == report.go_out_value, (
            f"{where}: solve's go-out nets {go.net_points}, brute force "
            f"{report.go_out_value} ({_describe(report)})")


def run_case(case: Case, discard: bool, max_examples: int) -> int:
    """Check ``max_examples`` hands of ``case``; returns how many were checked."""
    before = CHECKED[case.name]

    @settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.filter_too_much],
    )
    @given(drawn=dealt_hand(case, discard))
    def check(drawn: tuple[str | None, Deal, list[int]]) -> None:
        wild_rank, deal, hand = drawn
        check_hand(case, wild_rank, deal, hand, discard)

    check()
    return CHECKED[case.name] - before


@pytest.mark.parametrize("discard", [False, True], ids=["keep", "discard"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_variant_matches_brute_force(case: Case, discard: bool) -> None:
    assert run_case(case, discard, DEFAULT_EXAMPLES) >= DEFAULT_EXAMPLES


# Hands worth checking every run: worked examples of section 8 and the
# smallest disagreements the random search found (see the module docstring).
KNOWN_HANDS: tuple[tuple[Case, str, bool], ...] = (
    (CONTRACT_CASES[0], "2S 2H 2D 5S 5H 5D 8C 9C TC JC", False),  # 2 sets down, run in hand
    (CONTRACT_CASES[0], "KS KH KD KS KH KC JK 2C", True),  # six kings as two sets
    (CONTRACT_CASES[2], "2H 3H 4H 5H 6H 7H 8H 9H", False),  # touching runs
    (CONTRACT_CASES[6], "2H 3H 4H 5H 6S 7S 8S 9S TC JC QC KC AD", True),  # discard AD
    (CONTRACT_CASES[6], "2H 3H 4H 5H 6S 7S 8S 9S TC JC QC KC AD", False),  # cannot open
    (KALOOKI_CASES[0], "KH KS JK 5C 5H 5D 2C", False),  # 45 < 51: nothing down
    (KALOOKI_CASES[1], "KH KS JK 5C 5H 5D 2C", False),  # 45 >= 40 (joker as a king)
    (OTHER_CASES[0], "AS 2S 3S 4S 5H 6H 7H 8H KD KC KH", False),  # no set may go down
    (Case("rummy500", "rummy500"), "AH 2H 3H AS AD AC", False),  # go-out 51 < best 55
    # wild_meld_value "represented" under max_net: the joker pair is worth
    # most as 6S 7S (5S 6S 7S = 18); RULES.md: the player takes the reading
    # worth more
    (Case("rummy500/represented/1deck", "rummy500", {"wild_meld_value": "represented"}),
     "JK JK 5S", False),
    (OTHER_CASES[4], "AS 2S 3S JK 5S AS 6S", False),
    (OTHER_CASES[4], "JK 2S 3S 4S JK AS 2S", False),  # go-out: A-2-JK + 2-3-4-JK = 20
    # same-suit sets under max_net: best 67 (four aces + 4H 4D 4D, 2S 3S in
    # hand); going out: A-2-3S + AH AD AC + 4H 4D 4D = 63, so declarable
    (OTHER_CASES[5], "AS 2S 3S AH AD AC 4H 4D 4D", False),
    (OTHER_CASES[5], "AS AS 2S 2S 3S 3S 4S 4S AH AH 2H 4H AD", True),
)


@pytest.mark.parametrize(("case", "hand", "discard"), KNOWN_HANDS,
                         ids=[f"{c.name}:{h}:{'discard' if d else 'keep'}"
                              for c, h, d in KNOWN_HANDS])
def test_known_hands(case: Case, hand: str, discard: bool) -> None:
    cards = [parse_card(t) for t in hand.split()]
    check_hand(case, None, make_deal(case.rules), cards, discard)


def run_cases_long(cases: tuple[Case, ...], label: str, examples: int) -> None:
    """Check ``examples`` hands of every case; a failing case does not stop
    the others (every failure is reported at the end)."""
    started = time.perf_counter()
    counts: dict[str, int] = {}
    failures: dict[str, str] = {}
    for case in cases:
        case_started = time.perf_counter()
        counts[case.name] = 0
        try:
            for discard in (False, True):
                counts[case.name] += run_case(case, discard, examples // 2)
        except AssertionError as error:
            failures[case.name] = str(error)
        print(f"\n  {case.name}: {CHECKED[case.name]} hands in "
              f"{time.perf_counter() - case_started:.0f} s; can_open "
              f"{SEEN[case.name, 'can_open']}, declarable {SEEN[case.name, 'declarable']}, "
              f"go_out {SEEN[case.name, 'go_out']}" + (" FAILED" if case.name in failures else ""),
              end="", flush=True)
    elapsed = time.perf_counter() - started
    print(f"\nvariants vs brute force ({label}): {sum(CHECKED[c.name] for c in cases)} hands "
          f"in {elapsed:.0f} s", flush=True)
    assert not failures, "\n\n".join(f"{name}: {text}" for name, text in failures.items())
    assert all(n >= examples for n in counts.values()), counts


@pytest.mark.slow
def test_contract_rounds_long() -> None:
    run_cases_long(CONTRACT_CASES, "contract rounds 1-7", SLOW_EXAMPLES)


@pytest.mark.slow
def test_kalooki_long() -> None:
    run_cases_long(KALOOKI_CASES, "kalooki 51 and 40", SLOW_EXAMPLES)


@pytest.mark.slow
def test_other_variants_long() -> None:
    run_cases_long(OTHER_CASES, "custom variants and knobs", SLOW_EXAMPLES_OTHER)


_SPADES = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
_CUT_ACE_LOW = Case("rummy500/cut_ace,ace_low", "rummy500", {"cut_joker": True, "ace": "low"})
_CUT_ACE_RUNS_OF_8 = Case("rummy500/cut_ace,runs_of_8", "rummy500",
                          {"cut_joker": True, "ace": "low", "min_run_length": 8})

# Hands checked with both engines, each with its cut card: the smallest
# disagreements with the brute force that the fuzzing found.
ENGINE_HANDS: tuple[tuple[Case, str | None, str, bool], ...] = (
    # Wild cards priced unlike: a joker costs 15 in hand and scores 0 melded,
    # the cut 4S and the neighbours 3S 5S score their points.  Best (52):
    # discard a joker (it would score nothing), meld the 3S in its place.
    (Case("rummy500/unlike_wilds", "rummy500", {
        "card_points": {"hand": {"5": 3}, "meld": {"JK": 0}}, "cut_joker": True,
        "neighbour_jokers": True, "ace": "wrap"}),
     "4S", "QD JC 3S JK JK 4S TD 5S JD", True),
    # Knocking under max_net: the best net (9) keeps KC back, but four tens
    # and JC JK KC knock with deadwood 0 (net 7): the hand is declarable.
    (Case("rommy/knock_at_0", "rommy", {
        "declaration": "knock", "knock_limit": 0, "court_points": 1,
        "wild_meld_value": "represented", "ace": "low"}),
     None, "TS JC JK TD TC TH KC", False),
    # Without a knock limit only gin (deadwood 0) knocks: the best net (40)
    # keeps 2D 3D back, AD 2D 3D JK JK melds every card, so the hand is declarable.
    (Case("rummy500/knock_as_go_out", "rummy500",
          {"declaration": "knock", "knock_limit": None}),
     None, "2D 3D AD JK JK", False),
    # Marriage with wild cards that score: the lower tier (wild cards free)
    # applies only when the melds do not declare.  Without requirements every
    # arrangement declares, so the wild AC (15) is the discard: 2.
    (Case("rummy500/marriage", "rummy500", {"objective": "marriage", "cut_joker": True}),
     "AD", "AC 2C", True),
    # ... and the joker (25) goes, not the AH (15): 50.
    (Case("rommy/marriage", "rommy", {"objective": "marriage", "ace": "low", "tanala": False}),
     None, "JS JK TH 7D AH 6C 5S", True),
    # One pure sequence declares: the wild KS counts, so it is the discard
    # (2C 3D: 5) ...
    (Case("indian21/one_pure,wilds_score", "indian21", {
        "requirements": [{"kind": "pure_sequence", "count": 1}],
        "wild_cards_score_zero": False}),
     "KD", "5H 6H 7H KS 2C 3D", True),
    # ... unless a threshold of 20 is missed (5H 6H 7H: 18): the lower tier,
    # the KS free, the 3D thrown (2C: 2).
    (Case("indian21/one_pure,wilds_score,20", "indian21", {
        "requirements": [{"kind": "pure_sequence", "count": 1}],
        "wild_cards_score_zero": False, "min_meld_points": 20}),
     "KD", "5H 6H 7H KS 2C 3D", True),
    # A wild card in the slot of its own card is natural (RULES.md 2.5): the
    # cut AS at the bottom of A-K is a low ace worth 1, not a wild card's 15.
    # The search priced that slot at 15 and showed the natural 85; best (99):
    # the AS a second JS (JS QS KS), the rest in runs.
    (_CUT_ACE_LOW, "A", _SPADES, False),
    (_CUT_ACE_LOW, "AH", _SPADES.replace("S", "H"), False),
    (Case("rummy500/cut_ace,2_decks", "rummy500", {"cut_joker": True, "ace": "low", "decks": 2}),
     "A", _SPADES.replace("S", "H") + " 4D", True),
    # Runs of 8 or more cannot split the suit: the AS stands for the 2S
    # (97 melded, the 2S in hand: 95); both engines said 99 and showed 85.
    (_CUT_ACE_RUNS_OF_8, "A", _SPADES, False),
    # ... while another wild card fills that slot at its own 15 (99).
    (_CUT_ACE_RUNS_OF_8, "A", _SPADES.replace("AS ", "") + " AH", False),
    # A threshold counts the same points: the joker a 2S and the AS at the
    # bottom are not 98 but 84 (112: the AS and the joker two kings).
    (Case("rummy500/cut_ace,threshold_30", "rummy500",
          {"cut_joker": True, "ace": "low", "min_meld_points": 30}),
     "A", _SPADES.replace("2S", "JK"), False),
    # Neighbours that held already: the ace high and low, a cut 7S in its
    # own slot (a 7 scores 7 either way), the AS as the lower joker of a cut 2S.
    (Case("rummy500/cut_ace,high_low", "rummy500", {"cut_joker": True}), "A", _SPADES, False),
    (_CUT_ACE_LOW, "7", _SPADES, False),
    (Case("rummy500/neighbours,runs_of_8", "rummy500",
          {"cut_joker": True, "ace": "low", "neighbour_jokers": True, "min_run_length": 8}),
     "2S", _SPADES, False),
)


@pytest.mark.parametrize("engine", ["search", "cpsat"])
@pytest.mark.parametrize(("case", "wild_rank", "hand", "discard"), ENGINE_HANDS,
                         ids=[f"{c.name}:{w}:{h}:{'discard' if d else 'keep'}"
                              for c, w, h, d in ENGINE_HANDS])
def test_engine_hands(case: Case, wild_rank: str | None, hand: str, discard: bool,
                      engine: str) -> None:
    cards = [parse_card(t) for t in hand.split()]
    check_hand(case, wild_rank, make_deal(case.rules, wild_rank), cards, discard, engine)
