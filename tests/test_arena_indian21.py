"""The 21-card Indian rummy arena (``--game indian21``): the referee's own
melds, shows, counts and value-card settlement (docs/RULES.md 2.3-2.5, 4.5,
5.3, 10, preset ``indian21``), checked on hand-made deals and against the
library (tests may import ``solver``; the referee may not), full deals of 2
to 4 players with every card accounted for, and the command line."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from benchmarks.arena.core.joker_cards import JOKER, card_name, names, parse_card, parse_cards
from benchmarks.arena.indian.melds import (
    deal_wild,
    marriage_count,
    read_meld,
    show_problem,
    value_cards,
    value_points,
)
from benchmarks.arena.indian.players import Player, RandomPlayer, make_player
from benchmarks.arena.indian.referee import (
    DRAW,
    DROP,
    Action,
    IllegalActionError,
    IndianDeal,
    Kind,
    Phase,
    PlayerView,
)
from benchmarks.arena.indian.runner import run_indian21_arena
from benchmarks.arena.indian.variants import INDIAN13, INDIAN21
from solver.play import words
from tests.imports import solver_imports

CUT = "7H"
"""The cut card of the hand-made deals: every 7 is wild, and 6H and 8H (its
lower and upper jokers), and the printed jokers."""
WILD = deal_wild(parse_card(CUT), neighbours=True)
SHOWER = ["AS 2S 3S", "9C TC JC", "KS KS KS", "9S 9H 9D", "2C 3C JK", "QH QD 8H", "4D 5D 6H"]
"""A valid 21-card show: two pure runs and a tanala (the third pure
sequence), a set, a run with a joker, a set and a run with the upper and
the lower joker standing in."""


def _groups(groups: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(parse_cards(g)) for g in groups)


def _rigged(hands: Sequence[str], cut: str = CUT, upcard: str = "4S",
            stock: str = "") -> list[int]:
    """A 159-card deck dealing ``hands`` (21 cards each) in seat order, then
    the cut card, the upcard and the stock's first cards; the rest after."""
    placed = [c for hand in hands for c in parse_cards(hand)]
    assert all(len(parse_cards(hand)) == INDIAN21.hand_size for hand in hands)
    placed += [parse_card(cut), parse_card(upcard), *parse_cards(stock)]
    rest = list(INDIAN21.deck)
    for card in placed:
        rest.remove(card)  # ValueError: more copies than three decks hold
    return placed + rest


def _deal(hands: Sequence[str], **kwargs: str) -> IndianDeal:
    return IndianDeal(_rigged(hands, **kwargs), len(hands), variant=INDIAN21)


FILLER = "2H 4H 9H 2S 4S 6S 8S 3D 8D TD JD KD AD 4C 5C 6C 8C QC 5S 3H TH"
"""A second hand (no value card)."""


def _show(groups: Sequence[str], unmelded: str = "") -> IndianDeal:
    """Seat 0 holds ``groups``' cards and ``unmelded``, draws QS from the
    stock and declares with ``groups``, throwing it."""
    deal = _deal([" ".join([*groups, unmelded]).strip(), FILLER], stock="QS")
    deal.apply(DRAW)
    deal.apply(Action(Kind.DECLARE, parse_card("QS"), _groups(groups)))
    return deal


def _library_valid(groups: Sequence[str], unmelded: str = "") -> bool:
    from solver import validate

    report = validate([g.split() for g in groups], unmelded.split(), "indian21", wild_rank=CUT)
    return report.valid and report.declarable


UNMELDED = ["AS 2S 3S", "9C TC JC QC", "KS KS KS", "9S 9H 9D 9C", "QH QD 8H", "4D 5D 6H"]
"""Twenty cards of a valid show: the 21st (2C) is left out."""


# -- melds and shows ------------------------------------------------------------------
def test_the_deck_and_the_wild_cards() -> None:
    assert len(INDIAN21.deck) == 159 and INDIAN21.deck.count(JOKER) == 3
    assert all(INDIAN21.deck.count(c) == 3 for c in range(52))
    assert sorted(names(WILD)) == ["6H", "7C", "7D", "7H", "7S", "8H", "JK"]
    assert sorted(names(deal_wild(parse_card("AH"), neighbours=True))) == [
        "2H", "AC", "AD", "AH", "AS", "JK", "KH"]  # docs/RULES.md 2.4's example
    assert deal_wild(JOKER, neighbours=True) == frozenset({JOKER})  # a cut joker: jokers only
    assert value_cards(JOKER) == ()
    assert names(value_cards(parse_card("KD"))) == ["QD", "KD", "AD"]


def test_neighbour_jokers_are_wild_and_may_stand_for_themselves() -> None:
    upper_in_set = parse_cards("QH QD 8H")
    assert read_meld(upper_in_set, WILD) == "set"
    assert read_meld(upper_in_set, deal_wild(parse_card(CUT))) is None  # indian13's wild cards
    assert read_meld(parse_cards("4D 5D 6H"), WILD) == "sequence"
    assert read_meld(parse_cards("5H 6H 7H 8H"), WILD) == "pure"  # each stands for itself
    assert read_meld(parse_cards("6H 7S 8H"), WILD) == "sequence"


def test_tanala_is_a_pure_sequence_and_nothing_else() -> None:
    assert read_meld(parse_cards("KS KS KS"), WILD, tanala=True) == "pure"
    assert read_meld(parse_cards("KS KS KS"), WILD) is None  # indian13 has no tanala
    assert read_meld(parse_cards("KS KS KS KS"), WILD, tanala=True) is None
    assert read_meld(parse_cards("JK JK JK"), WILD, tanala=True) is None
    assert read_meld(parse_cards("KS KS JK"), WILD, tanala=True) is None
    deal = _show(SHOWER)
    assert deal.result is not None and deal.result.outcome == "show" and deal.wrong_shows == 0
    assert _library_valid(SHOWER)


@pytest.mark.parametrize(("why", "groups", "unmelded"), [
    ("only two pure sequences", [*SHOWER[:2], "KS KH KD", *SHOWER[3:]], ""),
    ("a card left unmelded", UNMELDED, "2C"),
    ("a set repeating a suit", [*SHOWER[:3], "9S 9S 9H", *SHOWER[4:]], ""),
    ("a run with a rank twice", [*SHOWER[:1], "9C TC TC", *SHOWER[2:]], ""),
])
def test_the_referee_refuses_an_invalid_show(why: str, groups: list[str], unmelded: str) -> None:
    deal = _show(groups, unmelded)
    assert deal.result is not None and deal.result.outcome == "wrong_show", why
    assert deal.result.points == (-80, 0) and deal.wrong_shows == 1
    assert deal.over and deal.legal() == ()
    assert not _library_valid(groups, unmelded), why


def test_the_unmelded_show_is_valid_with_its_last_card_melded() -> None:
    groups = [UNMELDED[0], "9C TC JC", "KS KS KS", "9S 9H 9D", "QH QD 8H", "4D 5D 6H",
              "2C 3C JK"]
    assert _show(groups).wrong_shows == 0 and _library_valid(groups)


def test_show_problem_says_why() -> None:
    def problem(groups: Sequence[str]) -> str | None:
        cards = [c for g in _groups(groups) for c in g]
        return show_problem(_groups(groups), cards, WILD, tanala=True, min_pure=3,
                            min_sequences=3)

    assert problem(SHOWER) is None
    assert problem([*SHOWER[:2], "KS KH KD", *SHOWER[3:]]) == "fewer than 3 pure sequences"
    assert problem([*SHOWER[:3], "9S 9S 9H", *SHOWER[4:]]) == "a group is not a meld"
    cards = [c for g in _groups(SHOWER) for c in g][1:]
    assert show_problem(_groups(SHOWER), cards, WILD, tanala=True, min_pure=3) is not None


def test_the_taken_card_may_not_be_thrown_and_turns_go_round() -> None:
    deal = _deal([" ".join(SHOWER), FILLER], upcard="5H")
    deal.apply(Action(Kind.TAKE_DISCARD))
    with pytest.raises(IllegalActionError):
        deal.apply(Action(Kind.DISCARD, parse_card("5H")))
    with pytest.raises(IllegalActionError):
        deal.apply(Action(Kind.DECLARE, parse_card("5H"), _groups(SHOWER)))
    deal.apply(Action(Kind.DISCARD, parse_card("AS")))
    assert deal.to_act == 1 and len(deal.hand_of(0)) == 21
    view = deal.view(1)
    assert view.game == "indian21" and len(view.hand) == 21 and view.stock_size == 159 - 42 - 2


# -- value cards and marriages ------------------------------------------------------------
def test_value_points() -> None:
    valued = value_cards(parse_card(CUT))
    assert names(valued) == ["6H", "7H", "8H"]
    assert value_points(parse_cards("6H 7H 8H 8H 2C"), valued) == 110  # a marriage and one
    assert value_points(parse_cards("6H 6H 7H 7H 8H 8H"), valued) == 200
    assert value_points(parse_cards("7S 7D 6C 8C JK"), valued) == 0  # wild, but not value cards


def test_value_cards_and_a_marriage_are_settled_between_all_players() -> None:
    """Seat 0 shows on its second turn holding 6H and 8H (20), seat 1 holds
    a marriage and another 8H (110) and pays its count, seat 2 dropped at
    once holding a 7H (10): each receives 3 x own - 140."""
    from solver import score_round
    from solver.round_scoring import PlayerHand

    marriage = "6H 7H 8H 8H 2D 3D 5S 6S TS JS 4C 6C 8C AH 3H 5H TH JH KH AC KC"
    dropper = "7H 2H 4H 9H 2S 4S 6S 8S 3D 8D TD JD KD AD 4C 5C 6C 8C QC 5S 3H"
    deal = _deal([" ".join(SHOWER), marriage, dropper], stock="5C 4H QS")
    deal.apply(DRAW)
    deal.apply(Action(Kind.DISCARD, parse_card("5C")))
    deal.apply(DRAW)
    deal.apply(Action(Kind.DISCARD, parse_card("4H")))
    deal.apply(DROP)
    deal.apply(DRAW)
    deal.apply(Action(Kind.DECLARE, parse_card("QS"), _groups(SHOWER)))
    result = deal.result
    assert result is not None and result.outcome == "show" and result.winner == 0
    assert result.values == (-80, 190, -110) and sum(result.values) == 0
    count = marriage_count(parse_cards(marriage), WILD)
    assert result.counts == (None, count, None)
    assert result.points == (count + 10 - 80, -count + 190, -10 - 110)
    assert sum(result.points) == 0
    library = score_round([PlayerHand(melded=list(SHOWER), went_out=True),
                           PlayerHand(hand=marriage),
                           PlayerHand(hand=dropper, dropped="first")], "indian21", wild_rank=CUT)
    assert library.points == result.points


def test_a_cut_joker_deals_no_value_cards() -> None:
    deal = _deal([" ".join(SHOWER), FILLER], cut="JK")
    assert deal.wild == frozenset({JOKER}) and deal.valued == ()
    deal.apply(DROP)
    assert deal.result is not None and deal.result.outcome == "all_dropped"
    assert deal.result.points == (-10, 10) and deal.result.values == ()


# -- the count against the library ------------------------------------------------------------
NARROW_DECKS = (
    [s * 13 + r for s in range(2) for r in range(9)] * 3 + [JOKER] * 2,
    [s * 13 + r for s in range(3) for r in range(6)] * 3 + [JOKER] * 3,
    [s * 13 + r for s in range(4) for r in (9, 10, 11, 12, 0, 1)] * 3 + [JOKER] * 3,
)
"""Decks of few cards, three copies each: most hands hold runs, sets and
tanalas, and three pure sequences often."""


def _count_cases(count: int = 300) -> list[tuple[list[int], int]]:
    cases = []
    for index in range(count):
        rng = random.Random(f"count/{index}")
        deck = list(INDIAN21.deck) if index % 4 == 0 else list(NARROW_DECKS[index % 3])
        rng.shuffle(deck)
        hand = deck[:21]
        cut = rng.choice(hand) if index % 3 == 0 else rng.choice(INDIAN21.deck)
        cases.append((hand, cut))
    return cases


# 120 hands by default (the decks and cut cards repeat every 12; all 120
# proved, 28 declarable: 26 and 20 on hands 90 and 180 on), 300 in the slow lane
@pytest.mark.parametrize("count", [120, pytest.param(300, marks=pytest.mark.slow)])
def test_the_referee_count_agrees_with_the_solver(count: int) -> None:
    """The referee's 21-card count (no solver code) against ``solve()``, on
    ``count`` hands (a quarter dealt from the full deck, the rest meld-rich),
    the cut card often in the hand; only the solver's proved optima count."""
    from solver import solve

    compared = tiers = 0
    for hand, cut in _count_cases(count):
        solution = solve(names(hand), "indian21", wild_rank=card_name(cut))
        if solution.status != "optimal":
            continue
        mine = marriage_count(hand, deal_wild(cut, neighbours=True))
        assert mine == solution.deadwood_points, (names(sorted(hand)), card_name(cut))
        compared += 1
        tiers += solution.declarable
    assert compared >= count - count // 30 and tiers >= count // 30  # 290 and 10 of 300


def test_the_count_below_a_show_exempts_the_two_best_pure_sequences_and_the_wild_cards() -> None:
    """Two pure sequences at most (4S-8S cannot split into two): every card
    counts but them and the wild cards (2S, AC and the joker; the cut 2C
    makes the 2s, AC and 3C wild)."""
    from solver import solve

    wild = deal_wild(parse_card("2C"), neighbours=True)
    hand = parse_cards("4S 5S 6S 7S 8S KD KD KD 9H TH QC JC 5D 8D 9D 4H 6H 3H 2S AC JK")
    assert marriage_count(hand, wild) == 134 - 30 - 30
    assert solve(names(hand), "indian21", wild_rank="2C").deadwood_points == 74
    # JH for JC: three pure sequences, so a show's count: only QC is loose, the
    # wild cards standing in 5D (6D 7D) 8D 9D and 3H 4H (5H) 6H
    three = parse_cards("4S 5S 6S 7S 8S KD KD KD 9H TH JH QC 5D 8D 9D 4H 6H 3H 2S AC JK")
    assert marriage_count(three, wild) == 10
    assert solve(names(three), "indian21", wild_rank="2C").deadwood_points == 10


# -- full deals ---------------------------------------------------------------------------------
def _play(deck: Sequence[int], lineup: Sequence[str], seed: int,
          players: Sequence[Player] = ()) -> IndianDeal:
    deal = IndianDeal(deck, len(lineup), variant=INDIAN21)
    players = list(players) or [make_player(name) for name in lineup]
    for seat, player in enumerate(players):
        player.start_deal(seat, seed + seat)
    actions = 0
    while not deal.over:
        deal.apply(players[deal.to_act].act(deal.view(deal.to_act)))
        actions += 1
        assert actions < 2_000
    return deal


FULL_DEALS = [(("greedy", "distance"), 4), (("distance", "greedy", "random"), 3),
              (("greedy", "distance", "random", "distance_nodrop"), 3), (("random", "random"), 2)]
"""The lineups whose whole deals are checked, and how many: the first two
of each by default, the rest in the slow lane."""


@pytest.mark.parametrize(("lineup", "deals"), [
    *[pytest.param(lineup, range(2), id=f"{len(lineup)}-{lineup[0]}") for lineup, _ in FULL_DEALS],
    *[pytest.param(lineup, range(2, deals), id=f"{len(lineup)}-{lineup[0]}-more",
                   marks=pytest.mark.slow) for lineup, deals in FULL_DEALS if deals > 2]])
def test_full_deals_are_legal_and_every_card_is_accounted_for(lineup: tuple[str, ...],
                                                              deals: range) -> None:
    """Whole deals through the referee: no illegal action, no wrong show,
    the 159 cards all in a hand, the pile, the stock or under it, zero-sum
    points and value settlements, and each loser's count the library's.
    (Two random players rarely show: their deals run the stock out.)"""
    from solver import solve

    for index in deals:
        deck = list(INDIAN21.deck)
        random.Random(f"full/{len(lineup)}/{index}").shuffle(deck)
        deal = _play(deck, lineup, index)
        result = deal.result
        assert result is not None and deal.wrong_shows == 0
        held = [c for seat in range(len(lineup)) for c in deal.hand_of(seat)]
        assert sorted([*held, *deal.pile, *deal.stock, deal.cut_card]) == list(INDIAN21.deck)
        assert sum(result.points) == 0 and sum(result.values or (0,)) == 0
        for seat, count in enumerate(result.counts):
            if count is None:
                continue
            solution = solve(names(deal.hand_of(seat)), "indian21",
                             wild_rank=card_name(deal.cut_card))
            if solution.status == "optimal":
                assert count == solution.deadwood_points, names(deal.hand_of(seat))


class _NeverShows(RandomPlayer):
    """A random player that never drops and never shows: its deals run the stock out."""

    def __init__(self) -> None:
        super().__init__(drop=0.0)

    def act(self, view: PlayerView) -> Action:
        if view.phase == Phase.DRAW:
            return super().act(view)
        return self.rng.choice([a for a in view.legal if a.kind != Kind.DECLARE])


def test_a_deal_without_a_show_runs_the_stock_out_and_is_void() -> None:
    deck = list(INDIAN21.deck)
    random.Random("void/0").shuffle(deck)
    deal = _play(deck, ("random", "random"), 0, [_NeverShows(), _NeverShows()])
    assert deal.result is not None and deal.result.outcome == "void", deal.result
    assert deal.result.points == (0, 0) and deal.stock == ()
    turns = sum(e.kind in (Kind.TAKE_DISCARD, Kind.DRAW_STOCK) for e in deal.history)
    assert turns >= 159 - 2 * 21 - 2
    held = [c for seat in range(2) for c in deal.hand_of(seat)]
    assert sorted([*held, *deal.pile, deal.cut_card]) == list(INDIAN21.deck)


@pytest.mark.slow
def test_the_arena_runs_the_advisor() -> None:
    results = run_indian21_arena(["advisor_novice", "greedy"], 2, seed=3, progress=False)
    assert results["game"] == "indian21" and results["games"] == 4
    # it plays first in two of the games (it may drop there: one decision each)
    assert results["players"]["advisor_novice"]["decisions"] >= 2
    assert results["violations"] == [] and results["wrong_declarations"] == 0
    total = sum(p["points_per_deal"]["mean"] for p in results["players"].values())
    assert abs(total) < 1e-9
    assert "value_points_per_game" in results["players"]["greedy"]
    assert results["rules"]["cap"] is None and results["rules"]["marriage_points"] == 100


# -- the referee's independence and the command line ------------------------------------------
def test_the_referee_side_imports_nothing_of_solver_but_its_words() -> None:
    folder = Path(__file__).resolve().parent.parent / "benchmarks" / "arena" / "indian"
    for path in sorted(folder.glob("*.py")):
        if path.name == "players.py":  # the players may use the library: they are measured
            continue
        assert not solver_imports(path), path.name


def test_the_referee_speaks_the_library_s_words() -> None:
    assert set(Kind) == set(words.INDIAN.actions)
    assert (*Phase, words.OVER) == words.INDIAN.phases


def test_indian13_keeps_its_deck_and_knobs() -> None:
    assert len(INDIAN13.deck) == 106 and INDIAN13.rules.cap == 80 and not INDIAN13.tanala
    assert INDIAN21.rules.cap is None and INDIAN21.min_pure == 3


def test_the_command_line_seats_an_indian21_table() -> None:
    from benchmarks.__main__ import build_parser
    from benchmarks.arena.core.cli import ROTATED_GAMES

    parser = build_parser()
    lineup = ROTATED_GAMES["indian21"].lineup
    assert lineup(parser.parse_args(["--arena", "--game", "indian21", "--players", "3"])) == [
        "advisor", "greedy", "distance"]
    assert lineup(parser.parse_args(["--arena", "--game", "indian21", "--lineup",
                                     "distance,greedy,random,greedy"])) == [
        "distance", "greedy", "random", "greedy"]
    with pytest.raises(ValueError, match="seat 2 to 4"):
        lineup(parser.parse_args(["--arena", "--game", "indian21", "--lineup", "greedy"]))
