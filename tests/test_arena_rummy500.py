"""The Rummy 500 arena: the referee's melds and rules (notes/rummy500_spec.md,
docs/RULES.md preset ``rummy500``), scripted rounds through every rule,
illegal actions refused (never corrected), seeded smoke runs of the players
with the referee's tallies checked, the process sharing, the command line,
the advisor adapter, and the two-deck tables of 5 to 8 players (every card
twice, four jokers: copies counted everywhere, never melded together)."""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from benchmarks.arena.core.joker_cards import JOKER
from benchmarks.arena.laydown.melds import (
    InvalidMeldError,
    hand_points,
    meld_problem,
    read_extension,
    read_meld,
)
from benchmarks.arena.laydown.players import make_player
from benchmarks.arena.laydown.referee import (
    DECK,
    DRAW_STOCK,
    PASS,
    Action,
    IllegalActionError,
    Kind,
    Layoff,
    Phase,
    Rummy500Round,
    play,
    take_discard,
)
from benchmarks.arena.laydown.runner import deck_for, run_rummy500_arena, seed_for
from benchmarks.arena.laydown.variants import RUMMY500
from solver.play import words
from tests.imports import solver_imports
from tests.laydown_decks import c, cards, played_out, stacked

FOLDER = Path(__file__).resolve().parent.parent / "benchmarks" / "arena" / "laydown"


def deal(hands: Sequence[str], upcard: str, stock: str = "") -> list[int]:
    """The deck stacked to deal ``hands`` and ``upcard`` (``stacked``)."""
    return stacked(DECK, hands, upcard, stock)


def apply_all(game: Rummy500Round, *actions: Action) -> None:
    for action in actions:
        game.apply(action)


# -- melds -------------------------------------------------------------------------------
VALID = [
    # group (meld order), kind, what it stands for, the points of each card
    ("5H 6H 7H", "run", "5H 6H 7H", (5, 6, 7)),
    ("5H 6H JK", "run", "5H 6H 7H", (5, 6, 15)),  # the spec's example: 5-6-7
    ("JK 5H 6H", "run", "4H 5H 6H", (15, 5, 6)),
    ("5H JK 7H", "run", "5H 6H 7H", (5, 15, 7)),
    ("AH 2H 3H", "run", "AH 2H 3H", (1, 2, 3)),  # the low ace melded counts 1
    ("QH KH AH", "run", "QH KH AH", (10, 10, 15)),  # the high ace 15
    ("AH JK JK", "run", "AH 2H 3H", (1, 15, 15)),  # a joker is 15 wherever it stands
    ("JK JK AH", "run", "QH KH AH", (15, 15, 15)),
    ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "run", "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
     (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15)),
    ("9S 9H 9D", "set", "9S 9H 9D", (9, 9, 9)),
    ("AS AH AD AC", "set", "AS AH AD AC", (15, 15, 15, 15)),  # a set's ace is 15
    ("KS JK KD", "set", "KS KH KD", (10, 15, 10)),  # the joker: a missing suit
    ("JK AH JK", "set", "AS AH AD", (15, 15, 15)),  # no run K-A-2 nor A-2-? with A in the middle
    ("KS JK JK", "set", "KS KH KD", (10, 15, 15)),  # K-A-? is no run: a set of kings
]


@pytest.mark.parametrize(("group", "kind", "stands_for", "points"), VALID,
                         ids=[v[0] for v in VALID])
def test_a_valid_meld_reads_as_the_spec_says(group: str, kind: str, stands_for: str,
                                             points: tuple[int, ...]) -> None:
    meld = read_meld(cards(group))
    assert meld_problem(cards(group)) is None
    assert meld.kind == kind
    assert meld.represents == cards(stands_for)
    assert meld.points == points


INVALID = [
    ("KH AH 2H", "never both: no K-A-2"),  # no wrapping round the corner
    ("QH KH AH 2H", "no K-A-2"),
    ("KS KH KD KC JK", "four of a kind and a joker is no set"),
    ("JK JK JK", "no natural card"),
    ("9S 9H", "at least 3 cards"),
    ("7H 6H 5H", "not in sequence from low to high"),  # meld order: a run low to high
    ("5H 6S 7H", "more than one suit"),
    ("5H 6H 8H", "not in sequence"),
    ("5H JK 6H", "not in sequence"),  # the joker stands for 6H: 6H cannot follow it
    ("9S 9H 8D", "more than one rank"),
    ("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH JK", "at most 13 cards"),
]


@pytest.mark.parametrize(("group", "why"), INVALID, ids=[v[0] for v in INVALID])
def test_an_invalid_meld_is_refused_saying_why(group: str, why: str) -> None:
    problem = meld_problem(cards(group))
    assert problem is not None and why in problem, problem
    with pytest.raises(InvalidMeldError, match="is no meld"):
        read_meld(cards(group))


def test_a_layoff_keeps_every_joker_where_it_stands() -> None:
    run = read_meld(cards("5H 6H JK"))  # 5-6-7: the joker is 7H
    assert read_extension(run, cards("5H 6H JK 8H")).added == (c("8H"),)
    assert read_extension(run, cards("4H 5H 6H JK")).points == 4
    assert read_extension(run, cards("JK 5H 6H JK")).meld.represents == cards("4H 5H 6H 7H")
    for wrong, why in (("5H 6H JK 7H", "is no run"),  # 7H after the joker that is 7H
                       ("5H 6H 7H JK", "in its place"),  # the joker moved
                       ("6H JK 8H", "does not add a card"),
                       ("5H 6H JK 8H 9H TH JH QH KH AH 2H", "is no run")):
        with pytest.raises(InvalidMeldError, match=why):
            read_extension(run, cards(wrong))


def test_a_set_takes_cards_anywhere_up_to_four() -> None:
    three = read_meld(cards("7S 7D 7C"))
    assert read_extension(three, cards("7H 7S 7D 7C")).added == (c("7H"),)
    four = read_extension(three, cards("7S 7D JK 7C")).meld
    assert four.represents == cards("7S 7D 7H 7C")
    with pytest.raises(InvalidMeldError, match="at most 4 cards"):
        read_extension(read_meld(cards("KS KH KD KC")), cards("KS KH KD KC JK"))
    with pytest.raises(InvalidMeldError, match="does not hold every card"):
        read_extension(three, cards("7S 7H 7D JK"))


def test_a_low_ace_laid_off_counts_one_and_a_high_ace_fifteen() -> None:
    assert read_extension(read_meld(cards("2H 3H 4H")), cards("AH 2H 3H 4H")).points == 1
    assert read_extension(read_meld(cards("JH QH KH")), cards("JH QH KH AH")).points == 15
    with pytest.raises(InvalidMeldError, match="K-A-2"):  # no wrap, even by layoff
        read_extension(read_meld(cards("QH KH AH")), cards("QH KH AH 2H"))


def test_the_referee_reads_melds_like_the_library_in_meld_order() -> None:
    """Every 3- and 4-card group of a narrow deck that the referee takes for
    a meld, the library's table reader takes for the same meld (kind, the
    cards it stands for, points)."""
    from itertools import permutations

    from solver.errors import InvalidHandError
    from solver.layoffs import read_table_meld
    from solver.rules import make_deal, make_rules

    library = make_deal(make_rules("rummy500"))
    narrow = [*cards("AS 2S 3S 4S QS KS AH 2H 3H KH 5S 5D 5C"), JOKER, JOKER]
    compared = 0
    for size in (3, 4):
        for group in set(permutations(narrow, size)):
            if meld_problem(group) is not None:
                continue
            ours = read_meld(group)
            try:
                theirs = read_table_meld(group, 0, library).meld
            except InvalidHandError as error:
                raise AssertionError(f"the library refuses {group}: {error}") from None
            assert (ours.kind, sorted(ours.represents), ours.total) == (
                theirs.kind, sorted(theirs.represents), theirs.points), group
            compared += 1
    assert compared > 200


def test_the_library_reads_a_set_given_in_meld_order_as_the_referee_does() -> None:
    """KH JK JK in meld order is a set (K-A-2 is no run); read backwards it
    would be J-Q-K, and the library once took it so and laid TH off onto it."""
    from solver.hints import layoffs_hint

    hint = layoffs_hint("TH 5C 9D", [["KH", "JK", "JK"]], "rummy500")
    assert not hint.best.layoffs  # the referee: KH JK JK is a set; TH does not fit it
    hint = layoffs_hint("5H 9C", [["JK", "JK", "2H"]], "rummy500")
    assert not hint.best.layoffs


# -- rounds ------------------------------------------------------------------------------
SCORING = deal(["JK JK 9S 9H 8D 8C 2S", "2H 3H 4H 5H 6H 7H 8H", "KC QC 3D 4S 5S TS TD"],
               "AC", "KD QS")
"""Seat 0 (plays first) lays JK 9S 9H JK (48), keeps 8D 8C 2S (18); seat 1 goes out."""


def test_the_seed_page_scoring_example_laid_48_in_hand_18_scores_30() -> None:
    game = Rummy500Round(SCORING, 3)
    assert game.to_act == 0 and game.dealer == 2 and game.stock_size == 54 - 22
    apply_all(game, DRAW_STOCK, play([cards("JK 9S 9H JK")], [], c("KD")))
    apply_all(game, DRAW_STOCK, play([cards("2H 3H 4H 5H 6H 7H 8H")], [], c("QS")))
    assert game.over and game.result is not None
    result = game.result
    assert result.outcome == "went_out" and result.went_out == 1
    zero, one, two = result.seats
    assert (zero.laid_points, zero.hand_points, zero.points) == (48, 18, 30)
    assert (one.laid_points, one.hand_points, one.points, one.went_out) == (35, 0, 35, True)
    assert two.turns == 0 and two.points == -hand_points(cards("KC QC 3D 4S 5S TS TD")) == -52
    with pytest.raises(IllegalActionError, match="over"):  # the others get no more turn
        game.apply(DRAW_STOCK)


def test_going_out_ends_the_round_at_once_with_or_without_a_throw() -> None:
    others = ["AS KH QD JC TS 8H 4D", "3C 4C 6D 7D 8D JD QS"]
    game = Rummy500Round(deal(["5S 6S 7S 9D 9C 9H JK", *others], "KC", "9S"), 3)
    game.apply(DRAW_STOCK)
    with pytest.raises(IllegalActionError, match="throws 2C, not in hand"):
        game.apply(play([cards("5S 6S 7S JK"), cards("9D 9C 9H 9S")], [], c("2C")))
    game.apply(play([cards("5S 6S 7S JK"), cards("9D 9C 9H 9S")]))  # no card left to throw
    assert game.result is not None and game.result.went_out == 0
    assert game.result.points[0] == 18 + 15 + 36 and game.result.seats[1].turns == 0
    game = Rummy500Round(deal(["5S 6S 7S 9D 9C 9H 2C", *others], "KC", "9S"), 3)
    game.apply(DRAW_STOCK)
    with pytest.raises(IllegalActionError, match="throws nothing but still holds 2C"):
        game.apply(play([cards("5S 6S 7S"), cards("9D 9C 9H 9S")]))
    game.apply(play([cards("5S 6S 7S"), cards("9D 9C 9H 9S")], [], c("2C")))  # out by the throw
    assert game.result is not None and game.result.went_out == 0
    assert game.result.points[0] == 18 + 36 and game.pile[-1] == c("2C")


def test_a_card_taken_below_the_top_must_be_used_this_turn() -> None:
    # seat 0 throws QC, seat 1 throws 2S: the pile is 8H QC 2S (the seed page's example)
    deck = deal(["6H 7H 9C 4D 5S KS 3C", "2S TD JS AC 4C 5C 9D", "JH 3S 6D 7D 8S QD KD"],
                "8H", "QC 3H")
    game = Rummy500Round(deck, 3)
    apply_all(game, DRAW_STOCK, play((), (), c("QC")), DRAW_STOCK, play((), (), c("2S")))
    game.apply(DRAW_STOCK)
    game.apply(play((), (), c("KD")))
    assert [c_ for c_ in game.view(0).pile] == list(cards("8H QC 2S KD"))
    game.apply(take_discard(c("8H")))  # with QC, 2S and KD above it
    view = game.view(0)
    assert view.must_use == c("8H") and view.taken_top is None and view.phase == Phase.PLAY
    assert game.view(1).must_use is None  # only the player to act is told
    with pytest.raises(IllegalActionError, match="must meld or lay it off"):
        game.apply(play((), (), c("QC")))
    game.apply(play([cards("6H 7H 8H")], (), c("QC")))  # QC, the former top, may go
    assert game.result is None and game.seats[0].laid_points == 21
    assert game.seats[0].pile_takes == 1 and game.seats[0].cards_taken == 4


def test_the_top_card_taken_alone_is_not_thrown_back() -> None:
    deck = deal(["6H 7H 9C 4D 5S KS 3C", "2S TD JS AC 4C 5C 9D", "JH 3S 6D 7D 8S QD KD"],
                "8H")
    game = Rummy500Round(deck, 3)
    game.apply(take_discard(c("8H")))
    assert game.view(0).taken_top == c("8H") and game.view(0).must_use is None
    with pytest.raises(IllegalActionError, match="throws back 8H"):
        game.apply(play((), (), c("8H")))
    game.apply(play((), (), c("KS")))  # kept, not used: allowed for the top alone
    assert c("8H") in game.view(0).hand


def test_an_empty_stock_and_a_pass_end_the_round() -> None:
    game = Rummy500Round(deck_for(0, 0), 3)
    with pytest.raises(IllegalActionError, match="pass only when it is empty"):
        game.apply(PASS)
    while game.stock_size:
        game.apply(DRAW_STOCK)
        drawn = game.deck[game.next_stock - 1]
        game.apply(play((), (), drawn))  # a card from the stock may be thrown at once
    assert game.legal_draws()[0] == PASS
    with pytest.raises(IllegalActionError, match="empty stock"):
        game.apply(DRAW_STOCK)
    game.apply(PASS)
    assert game.result is not None and game.result.outcome == "passed"
    assert game.result.turns == 54 - 22 + 1
    assert game.result.points == tuple(-hand_points(game.hand_of(s)) for s in range(3))


def test_an_arena_round_stops_after_max_turns_scored_as_it_stands() -> None:
    game = Rummy500Round(deck_for(0, 1), 2, max_turns=3)
    for _ in range(3):
        game.apply(DRAW_STOCK)
        game.apply(play((), (), game.deck[game.next_stock - 1]))
    assert game.result is not None and game.result.outcome == "turn_limit"


def test_layoffs_onto_anyones_meld_score_for_who_lays_them_off() -> None:
    deck = deal(["5D 6D 7D KS KH 2C 3C", "8D 9D 4S AH 5C 7C JS", "QD QS QH 2S 3S TH TC"],
                "9H", "JD 4D JK")
    game = Rummy500Round(deck, 3)
    apply_all(game, DRAW_STOCK, play([cards("5D 6D 7D")], (), c("JD")))
    game.apply(DRAW_STOCK)  # seat 1 draws 4D
    with pytest.raises(IllegalActionError, match="in its place"):
        game.apply(play((), [Layoff(0, cards("5D 6D 4D 7D 8D 9D"))], c("JS")))
    with pytest.raises(IllegalActionError, match="table has 1 meld"):
        game.apply(play((), [Layoff(1, cards("4D 5D 6D 7D 8D 9D"))], c("JS")))
    game.apply(play((), [Layoff(0, cards("4D 5D 6D 7D 8D 9D"))], c("JS")))
    table = game.view(2).table
    assert table[0].cards == cards("4D 5D 6D 7D 8D 9D") and table[0].owners == (1, 0, 0, 0, 1, 1)
    assert [s.laid_points for s in game.seats] == [18, 21, 0]
    # seat 2 lays down and extends its own new meld in one play, the joker as TD
    game.apply(DRAW_STOCK)  # JK
    game.apply(play([cards("QD QS QH")], [Layoff(0, cards("4D 5D 6D 7D 8D 9D JK"))], c("2S")))
    assert [e.to_json() for e in game.events[-3:]] == [
        {"player": 2, "action": "meld", "melds": [["QD", "QS", "QH"]]},
        {"player": 2, "action": "lay_off", "target": 0,
         "melds": [["4D", "5D", "6D", "7D", "8D", "9D", "JK"]]},
        {"player": 2, "action": "discard", "card": "2S"}]
    assert game.seats[2].laid_points == 30 + 15


def test_the_history_is_the_spec_json_and_a_view_shows_only_its_own_hand() -> None:
    game = Rummy500Round(SCORING, 3)
    apply_all(game, DRAW_STOCK, play([cards("JK 9S 9H JK")], [], c("KD")))
    game.apply(take_discard(c("KD")))
    view = game.view(2)
    assert view.hand == tuple(sorted(cards("KC QC 3D 4S 5S TS TD")))
    assert view.pile == cards("AC") and view.stock_size == 31 and view.upcard == c("AC")
    assert view.legal_draws == () and view.taken_top is None  # not its turn
    assert view.table[0].cards == cards("JK 9S 9H JK") and view.table[0].owners == (0,) * 4
    assert view.history == [
        {"player": 0, "action": "draw_stock"},
        {"player": 0, "action": "meld", "melds": [["JK", "9S", "9H", "JK"]]},
        {"player": 0, "action": "discard", "card": "KD"},
        {"player": 1, "action": "take_discard", "card": "KD"}]


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    game = Rummy500Round(SCORING, 3)
    with pytest.raises(IllegalActionError, match="must draw"):
        game.apply(play((), (), c("2S")))
    with pytest.raises(IllegalActionError, match="not in the pile"):
        game.apply(take_discard(c("KD")))
    game.apply(DRAW_STOCK)
    before = (game.hand_of(0), list(game.pile), game.table_melds(), list(game.events))
    for action, why in (
            (DRAW_STOCK, "must play"),
            (play([cards("9S 9H 9D")], (), c("KD")), "9D not in hand"),
            (play([cards("JK 9S 9H JK JK")], (), c("KD")), "is no meld"),
            (play([cards("8D 8C JK")], (), c("8D")), "throws 8D, not in hand"),
            (play([cards("8D 8C JK")], (), 99), "throws 99"),
            (play((), [Layoff(0, cards("9S 9H 9D"))], c("KD")), "table has 0 meld")):
        with pytest.raises(IllegalActionError, match=why):
            game.apply(action)
    assert (game.hand_of(0), list(game.pile), game.table_melds(), list(game.events)) == before


def test_a_joker_named_in_a_take_is_the_topmost_of_the_pile() -> None:
    deck = deal(["JK 2C 3C 4C 6S 8S TS", "JK 2D 3D 4D 6H 8H TH", "5S 7S 9S 5H 7H 9H QC"], "KC")
    game = Rummy500Round(deck, 3)
    apply_all(game, DRAW_STOCK, play((), (), JOKER), DRAW_STOCK, play((), (), c("TH")),
              DRAW_STOCK, play((), (), c("QC")), DRAW_STOCK, play((), (), c("TS")))
    game.apply(DRAW_STOCK)
    game.apply(play((), (), JOKER))  # the pile: KC JK TH QC TS JK
    game.apply(take_discard(JOKER))
    assert game.view(2).taken_top == JOKER and len(game.pile) == 5
    with pytest.raises(IllegalActionError, match="throws back JK"):
        game.apply(play((), (), JOKER))


# -- the players and the runner ----------------------------------------------------------
def _final_checks(game: Rummy500Round) -> None:
    """The referee's tallies against the table and hands it ends with."""
    result = game.result
    assert result is not None
    table_cards = [card for meld in game.table_melds() for card in meld.cards]
    everything = [*table_cards, *game.pile, *game.deck[game.next_stock:],
                  *(card for s in range(game.players) for card in game.hand_of(s))]
    assert sorted(everything) == sorted(game.variant.cards_for(game.players))
    laid = [0] * game.players
    for meld in game.table_melds():
        reading = read_meld(meld.cards, "run" if meld.kind == "run" else "set")
        for owner, points in zip(meld.owners, reading.points, strict=True):
            laid[owner] += points
    for seat, record in enumerate(result.seats):
        assert record.laid_points == laid[seat]
        assert record.hand_points == hand_points(game.hand_of(seat))
        assert record.points == record.laid_points - record.hand_points
        assert record.went_out == (result.went_out == seat) == (not game.hand_of(seat)
                                                               and result.outcome == "went_out")


@pytest.mark.parametrize("lineup", [("greedy", "careful", "random"), ("random", "greedy"),
                                    ("careful", "random", "random", "greedy")])
def test_the_players_play_legal_rounds_scored_as_the_table_shows(lineup: tuple[str, ...]) -> None:
    for deal_index in range(3):
        game = Rummy500Round(deck_for(7, deal_index), len(lineup))
        _final_checks(played_out(game, lineup, functools.partial(seed_for, 7, deal_index, 0)))


def test_the_arena_smoke_run_sums_up_the_referee() -> None:
    results = run_rummy500_arena(["greedy", "careful", "random"], 3, seed=5, progress=False)
    assert results["violations"] == [] and results["illegal_actions"] == 0
    assert results["rounds"] == 9 and sum(results["outcomes"].values()) == 9
    assert set(results["differences"]) == {"greedy - careful", "greedy - random",
                                           "careful - random"}
    for name, player in results["players"].items():
        assert player["rounds"] == 9 and player["illegal_actions"] == 0
        assert math.isclose(player["points_per_deal"]["mean"],
                            sum(results["per_deal"][name]) / 3)
        assert player["decision_p99_ms"] >= player["decision_median_ms"] > 0
    wins = sum(p["round_win_rate"] for p in results["players"].values())
    assert math.isclose(wins, 1.0)  # one win a round, shared on a tie
    pair = results["differences"]["greedy - careful"]["mean"]
    assert math.isclose(pair, results["players"]["greedy"]["points_per_deal"]["mean"]
                        - results["players"]["careful"]["points_per_deal"]["mean"])


def _without_times(results: dict[str, Any]) -> dict[str, Any]:
    timed = ("wall_s", "workers")
    players = {name: {k: v for k, v in p.items() if not k.startswith("decision_")}
               for name, p in results["players"].items()}
    return {**{k: v for k, v in results.items() if k not in timed}, "players": players}


def test_two_workers_give_the_same_results_as_one() -> None:
    lineup = ["greedy", "random"]
    one = run_rummy500_arena(lineup, 4, seed=2, workers=1, progress=False)
    two = run_rummy500_arena(lineup, 4, seed=2, workers=2, progress=False)
    assert _without_times(one) == _without_times(two)


def test_the_referee_imports_nothing_of_solver_but_its_words() -> None:
    """The referee, its melds, the runner and the report are the independent
    check (the players may use the library: they are what is measured); so
    are the arena modules they share with the Indian arena.  The game's
    words (``solver.play.words``) are the one thing they share with it."""
    paths = [FOLDER / name for name in ("melds.py", "referee.py", "runner.py", "report.py",
                                        "random_player.py")]
    paths += [FOLDER.parent / "core" / name for name in ("joker_cards.py", "entrants.py", "rotations.py")]
    for path in paths:
        assert not solver_imports(path), path.name


def test_the_referee_speaks_the_library_s_words() -> None:
    assert (*Phase, words.OVER) == words.LAY_DOWN.phases
    assert set(Kind) - {Kind.PLAY} <= set(words.LAY_DOWN.actions)  # play: melds, layoffs, throw


def test_the_command_line_seats_the_table() -> None:
    from benchmarks.__main__ import build_parser
    from benchmarks.arena.core.cli import indian_lineup, rummy500_lineup

    parser = build_parser()
    assert rummy500_lineup(parser.parse_args(["--arena", "--game", "rummy500"])) == [
        "advisor", "greedy", "greedy"]
    assert rummy500_lineup(parser.parse_args(["--arena", "--game", "rummy500", "--players",
                                              "2", "--b", "careful"])) == ["advisor", "careful"]
    assert rummy500_lineup(parser.parse_args(["--arena", "--game", "rummy500", "--lineup",
                                              "greedy,careful,random"])) == [
        "greedy", "careful", "random"]
    with pytest.raises(ValueError, match="unknown Rummy 500 player"):
        rummy500_lineup(parser.parse_args(["--arena", "--game", "rummy500", "--a", "distance"]))
    with pytest.raises(ValueError, match="--players must be 2 to 8"):
        rummy500_lineup(parser.parse_args(["--arena", "--game", "rummy500", "--players", "9"]))
    assert indian_lineup(parser.parse_args(["--arena", "--game", "indian13"])) == [
        "advisor", "greedy"]  # unchanged


def test_the_command_line_runs_and_renders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) \
        -> None:
    import json

    from benchmarks.__main__ import main

    out = tmp_path / "r500.json"
    code = main(["--arena", "--game", "rummy500", "--lineup", "random,greedy", "--deals", "1",
                 "--seed", "3", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "### Rummy 500 arena: random, greedy (2 players, seed 3)" in text
    assert "| random " in text and "greedy - random" not in text and "random - greedy" in text
    data = json.loads(out.read_text())
    assert data["game"] == "rummy500" and data["illegal_actions"] == 0


# -- the advisor adapter -----------------------------------------------------------------
def test_the_adapter_turns_the_advisors_moves_into_actions() -> None:
    from benchmarks.arena.laydown.advisor_player import action_of
    from solver.play.advice import Layoff as AdvisorLayoff
    from solver.play.advice import Move

    assert action_of(Move("draw_stock")) == DRAW_STOCK and action_of(Move("pass")) == PASS
    assert action_of(Move("take_discard", card=c("8H"))) == take_discard(c("8H"))
    layoff = AdvisorLayoff(0, cards("8H"), extended=cards("5H 6H 7H 8H"))
    assert action_of(Move("discard", card=c("QC"), melds=(cards("9S 9H 9D"),),
                          layoffs=(layoff,))) == play(
        [cards("9S 9H 9D")], [Layoff(0, cards("5H 6H 7H 8H"))], c("QC"))
    assert action_of(Move("go_out", melds=(cards("9S 9H 9D"),))).card is None
    with pytest.raises(ValueError, match="no extended meld"):
        action_of(Move("discard", card=c("QC"), layoffs=(AdvisorLayoff(0, cards("8H")),)))


def test_the_advisor_plays_legal_rounds() -> None:
    results = run_rummy500_arena(["advisor_novice", "greedy", "careful"], 1, seed=4,
                                 progress=False)
    assert results["violations"] == [] and results["illegal_actions"] == 0
    assert results["players"]["advisor_novice"]["decisions"] > 0


HOUSES: list[tuple[int, dict[str, Any]]] = [
    (2, {}), (3, {}), (4, {}), (6, {}),  # 6: two decks
    (3, {"ace": "low", "joker_points": 25}),
    (7, {"jokers_per_deck": 1, "pip_points": 5, "court_points": 8}),
]
"""Tables (players, house rules) whose every listed advisor move the referee checks."""
SLOW_TABLES = (3, 4)
"""Preset tables of one deck like the table of 2: checked in the slow lane only."""


@pytest.mark.parametrize(("players", "house"), [
    pytest.param(n, h, id=f"{n}-{'-'.join(h) or 'preset'}",
                 marks=[pytest.mark.slow] if n in SLOW_TABLES and not h else [])
    for n, h in HOUSES])
def test_every_move_the_advisor_lists_is_legal_for_the_referee(players: int,
                                                               house: dict[str, Any]) -> None:
    """Not only the recommendation: each listed move, applied to a copy of the
    round, is accepted by the referee (which shares no code with the advisor),
    at one and two decks and under house rules the referee plays by its own
    reading of the knobs (``with_house``)."""
    import copy
    import random

    from benchmarks.arena.laydown.advisor_player import action_of, advice_request
    from benchmarks.arena.laydown.variants import with_house
    from solver.play import advise

    variant = with_house(RUMMY500, house) if house else RUMMY500
    deck = list(variant.cards_for(players))
    random.Random(f"listed/{players}/{sorted(house)}").shuffle(deck)
    game = Rummy500Round(deck, players, variant=variant)
    others = make_player("greedy")
    checked = 0
    for _ in range(400):
        if game.over:
            break
        view = game.view(game.to_act)
        if game.to_act != 0:
            game.apply(others.act(view))
            continue
        advice = advise("rummy500", **advice_request(view, "novice", checked))
        for value in advice.moves:
            trial = copy.deepcopy(game)
            trial.apply(action_of(value.move))  # IllegalActionError fails the test
        game.apply(action_of(advice.recommended.move))
        checked += 1
    assert checked >= 4


# -- two decks: 5 to 8 players -----------------------------------------------------------
def deal_two_decks(hands: Sequence[str], upcard: str, stock: str = "") -> list[int]:
    """The two-deck deck (108 cards) stacked to deal ``hands`` (5 to 8 of them) and ``upcard``."""
    return stacked(RUMMY500.cards_for(len(hands)), hands, upcard, stock)


COPIES = ["7H 7H 7S 7D 8H 9H KC", "2S 3D 4C 5S 6D 8C TC", "2C 3S 4D 5C 6S 8D TD",
          "2D 3C 4S 5D 6C 8S TS", "AS AD QC JS QD 9S 9D"]
"""Five hands; seat 0 (plays first) holds 7H twice and draws the second 7S."""


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_five_to_eight_players_get_seven_cards_from_two_decks(players: int) -> None:
    """Every card twice and four jokers (108 cards), 7 cards each; 2 to 4 players keep one deck."""
    cards_ = RUMMY500.cards_for(players)
    copies = Counter(cards_)
    assert len(cards_) == 108 and RUMMY500.decks(players) == 2
    assert copies[JOKER] == 4 and all(copies[card] == 2 for card in range(52))
    assert set(copies) == {*range(52), JOKER}
    deck = deck_for(3, 0, players=players)
    assert sorted(deck) == sorted(cards_)
    game = Rummy500Round(deck, players)
    for seat in range(players):
        assert game.hand_of(seat) == tuple(sorted(deck[7 * seat:7 * seat + 7]))
    assert game.upcard == deck[7 * players] and game.stock_size == 108 - 7 * players - 1
    for one_deck in (2, 3, 4):
        assert RUMMY500.cards_for(one_deck) == DECK and RUMMY500.decks(one_deck) == 1
    assert deck_for(3, 0) == deck_for(3, 0, players=4)  # one deck: the deals of old


def test_a_two_deck_table_refuses_a_deck_with_more_copies_than_exist() -> None:
    """The deck must hold each card exactly twice: a third 7H (for a 7S) is refused,
    and so is one deck at five players, or two at four."""
    deck = deal_two_decks(COPIES, "KS")
    third = [*deck]
    third[third.index(c("7S"))] = c("7H")
    with pytest.raises(ValueError, match=r"must hold 52 cards and 4 joker\(s\), each card twice"):
        Rummy500Round(third, 5)
    with pytest.raises(ValueError, match="two decks, 108 cards"):
        Rummy500Round(DECK, 5)
    with pytest.raises(ValueError, match="each card once"):
        Rummy500Round(deck, 4)
    with pytest.raises(ValueError, match="Rummy 500 seats 2 to 8 players here, not 9"):
        Rummy500Round(RUMMY500.cards_for(8), 9)


def test_two_copies_of_a_card_never_meld_together() -> None:
    """A set with two copies of one card (7H 7H 7S), a run holding a rank twice, a
    layoff of a copy onto a meld that holds the card, a throw of a card not held,
    and a play spending more copies than the hand holds are refused, changing
    nothing; two copies in two melds are fine."""
    game = Rummy500Round(deal_two_decks(COPIES, "KS", "7S"), 5)
    game.apply(DRAW_STOCK)  # the second 7S
    assert Counter(game.hand_of(0)) == Counter(cards("7H 7H 7S 7S 7D 8H 9H KC"))
    before = (game.hand_of(0), list(game.pile), game.table_melds(), list(game.events))
    both = [cards("7H 8H 9H"), cards("7H 7S 7D")]
    for action, why in (
            (play([cards("7H 7H 7S")], (), c("KC")), "holds 7H twice"),
            (play([cards("7H 7H 8H 9H")], (), c("KC")), "holds 7H twice"),
            (play([cards("7S 7H 7S")], (), c("KC")), "holds 7S twice"),
            (play(both, [Layoff(1, cards("7H 7S 7D 7S"))], c("KC")), "is no set: it holds 7S twice"),
            (play(both, [Layoff(0, cards("7H 7H 8H 9H"))], c("KC")), "is no run: it holds 7H twice"),
            (play((), (), c("9C")), "throws 9C, not in hand"),
            (play(both, (), c("7H")), "throws 7H, not in hand after its melds"),  # a third 7H
            (play([cards("7H 7S 7D"), cards("7H 7S 7D")], (), c("KC")), "7D not in hand")):
        with pytest.raises(IllegalActionError, match=why):
            game.apply(action)
        assert (game.hand_of(0), list(game.pile), game.table_melds(), list(game.events)) == before
    game.apply(play(both, (), c("KC")))
    assert [meld.cards for meld in game.table_melds()] == both
    assert game.hand_of(0) == (c("7S"),) and tuple(game.pile) == cards("KS KC")
    assert game.seats[0].laid_points == 7 + 8 + 9 + 21


def test_a_take_names_the_topmost_copy_and_another_copy_held_may_be_thrown() -> None:
    """The pile 9D QS 9D: a take of 9D is the top alone (a card named is its
    topmost copy); a card in no one's sight in the pile (9C) is no take; a
    player holding one TD who takes the other from the top may throw the copy
    it held (docs/RULES.md section 14), the one taken staying; with one TD
    only, the top taken may not go back."""
    hands = ["2H 3H 4H 5C 6C TH KH", "9D JH JC JD 5H 6H 8H", "2C 3S 4D 5C 6S 8D TD",
             "TD 3C 4S 5D 6C 8S TS", "AS AD QC JS QD 9S 9C"]
    game = Rummy500Round(deal_two_decks(hands, "9D", "QS"), 5)
    apply_all(game, DRAW_STOCK, play((), (), c("QS")), DRAW_STOCK, play((), (), c("9D")))
    assert tuple(game.pile) == cards("9D QS 9D")
    assert game.legal_draws() == (DRAW_STOCK, take_discard(c("9D")), take_discard(c("QS")))
    with pytest.raises(IllegalActionError, match="not in the pile"):
        game.apply(take_discard(c("9C")))
    game.apply(take_discard(c("9D")))
    assert tuple(game.pile) == cards("9D QS") and game.taken_top == c("9D")
    assert game.must_use is None and game.seats[2].cards_taken == 1
    game.apply(play((), (), c("TD")))
    game.apply(take_discard(c("TD")))  # seat 3 now holds both TD
    assert Counter(game.hand_of(3))[c("TD")] == 2
    game.apply(play((), (), c("TD")))
    assert Counter(game.hand_of(3))[c("TD")] == 1 and game.pile[-1] == c("TD")
    game.apply(take_discard(c("TD")))  # seat 4 holds no TD
    with pytest.raises(IllegalActionError, match="throws back TD"):
        game.apply(play((), (), c("TD")))


@pytest.mark.parametrize(("lineup", "seed"), [
    (("greedy", "careful", "random", "greedy", "careful"), 21),
    (("careful", "random", "greedy", "random", "careful", "greedy"), 22),
    (("random", "greedy", "careful", "random", "greedy", "careful", "random"), 23),
    (("greedy", "careful", "random", "random", "careful", "greedy", "random", "careful"), 24)],
    ids=["5", "6", "7", "8"])
@pytest.mark.parametrize("deals", [range(2), pytest.param(range(2, 4), marks=pytest.mark.slow)],
                         ids=["2", "2-more"])
def test_two_deck_rounds_are_legal_and_every_card_is_accounted_for(lineup: tuple[str, ...],
                                                                   seed: int,
                                                                   deals: range) -> None:
    """Greedy, careful and random at 5 to 8 players: every action legal (the
    referee raises otherwise), all 108 cards in hands, melds, the pile and the
    stock at the end, the scores the table's (``_final_checks``).  Two deals
    a table by default (there were three), two more in the slow lane."""
    for deal_index in deals:
        game = Rummy500Round(deck_for(seed, deal_index, players=len(lineup)), len(lineup))
        _final_checks(played_out(game, lineup,
                                 functools.partial(seed_for, seed, deal_index, 0)))
        assert len(game.deck) == 108


def test_a_six_player_arena_says_two_decks_and_plays_legally() -> None:
    """The runner deals 108 cards to a table of six; the report's title says so
    (a one-deck table's title is as it always was)."""
    from benchmarks.arena.laydown.report import render

    lineup = ["greedy", "careful", "random", "careful", "greedy", "random"]
    results = run_rummy500_arena(lineup, 1, seed=6, progress=False)
    assert results["violations"] == [] and results["illegal_actions"] == 0
    assert results["rounds"] == 6 and results["decks"] == 2
    assert render(results).startswith("### Rummy 500 arena (two decks, 108 cards): greedy, ")
    small = run_rummy500_arena(["random", "random"], 1, seed=6, progress=False)
    assert small["decks"] == 1 and render(small).startswith("### Rummy 500 arena: random, ")


def test_the_hint_players_ask_the_library_for_two_decks() -> None:
    """At five players the hints get ``{"decks": 2}``: the library's deck is then 108 cards."""
    from benchmarks.arena.laydown.hint_players import library_rules
    from solver.rules import deck_copies, make_rules

    game = Rummy500Round(deal_two_decks(COPIES, "KS"), 5)
    overrides = library_rules(game.view(0))
    assert overrides == {"decks": 2}
    assert sum(deck_copies(make_rules("rummy500", overrides))) == 108
    assert library_rules(Rummy500Round(DECK, 4).view(0)) is None


def test_the_command_line_seats_eight_rummy500_players() -> None:
    """``--players`` 5 to 8 fills the table with greedy players."""
    from benchmarks.__main__ import build_parser
    from benchmarks.arena.core.cli import rummy500_lineup

    parser = build_parser()
    for players in (5, 8):
        lineup = rummy500_lineup(parser.parse_args(["--arena", "--game", "rummy500",
                                                    "--players", str(players)]))
        assert lineup == ["advisor", "greedy", *["greedy"] * (players - 2)]


# -- house rules ---------------------------------------------------------------------------
def test_the_referee_plays_a_houses_knobs_by_its_own_reading() -> None:
    from benchmarks.arena.laydown.variants import with_house

    low = with_house(RUMMY500, {"ace": "low", "joker_points": 25, "ace_points": 11})
    assert low.points.of(JOKER) == 25 and low.points.of(c("AS")) == 11
    assert low.points.low_ace == 1  # Rummy 500 scores a low ace apart: it stays 1
    assert sum(read_meld(cards("QS KS AS"), ace_high=RUMMY500.ace_high).points) == 35
    with pytest.raises(InvalidMeldError):
        read_meld(cards("QS KS AS"), points=low.points, ace_high=low.ace_high)
    assert sum(read_meld(cards("AS 2S 3S"), points=low.points, ace_high=low.ace_high).points) == 6
    for bad in ({"decks": 2}, {"ace": "wrap"}, {"pile_penalty": 30}, {"joker_points": "x"}):
        with pytest.raises(ValueError):
            with_house(RUMMY500, bad)


def test_the_advisor_plays_a_house_round_of_rommy_legally() -> None:
    from benchmarks.arena.laydown.runner import run_arena
    from benchmarks.arena.laydown.variants import ROMMY, with_house

    house = {"pile_penalty": 30, "joker_points": 40}
    results = run_arena(with_house(ROMMY, house), ["advisor_novice", "careful"], 1,
                        seed=9, progress=False)
    assert results["violations"] == [] and results["illegal_actions"] == 0
    assert results["house_rules"] == house
    assert results.get("pile_penalty") == house.get("pile_penalty")


def test_the_command_line_refuses_a_house_knob_it_cannot_play(
        capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.__main__ import build_parser
    from benchmarks.arena.core.cli import ROTATED_GAMES, run_rotated_command

    parser = build_parser()
    for game, house in (("rummy500", '{"decks": 2}'), ("rummy500", "[1]"),
                        ("indian13", '{"joker_points": 5}')):
        args = parser.parse_args(["--arena", "--game", game, "--house", house, "--deals", "1"])
        assert run_rotated_command(args, ROTATED_GAMES[game]) == 2
        assert "--house" in capsys.readouterr().err
