"""The arena's games as recorded games (``benchmarks.arena.*.records``) and the
review's ordering benchmark (``benchmarks.speed.review_ordering``).

The arena's referees share no code with the review, so every record the
arena writes reading back through ``solver.review.read_record`` -- its
cards followed, its history replayed by the advisor's replay, its
``result`` checked against the review's own scoring -- is the independent
check of both.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import pytest

from benchmarks.arena.core import rotations
from benchmarks.arena.core.records import file_sink, write_records
from benchmarks.arena.gin import protocol as gin
from benchmarks.arena.gin.game import play_hand
from benchmarks.arena.gin.records import hand_record, rules_of
from benchmarks.arena.gin.rules import ARENA_RULES, OPENSPIEL_RULES
from benchmarks.arena.gin.runner import Arena, deck_for, pair_records, run_arena
from benchmarks.arena.indian import referee as indian
from benchmarks.arena.indian.records import game_record
from benchmarks.arena.indian.runner import play_game, run_indian_arena
from benchmarks.arena.indian.variants import INDIAN13, INDIAN21, IndianVariant
from benchmarks.arena.laydown.records import relative, round_record
from benchmarks.arena.laydown.runner import play_round
from benchmarks.arena.laydown.runner import run_arena as run_lay_down_arena
from benchmarks.arena.laydown.variants import BASIC, ROMMY, RUMMY500, Variant
from benchmarks.speed import review_ordering
from solver.review import from_openspiel, read_record, to_openspiel
from solver.review.table import walk
from solver.rules import make_rules
from tests.imports import solver_imports

ROOT = Path(__file__).resolve().parents[1]


def _read_all(lines: list[str]) -> list[dict[str, Any]]:
    """Every line read back and checked by the review; the records."""
    records = [json.loads(line) for line in lines]
    for record in records:
        read_record(record)
    return records


def test_the_records_import_nothing_of_solver_but_its_words() -> None:
    for name in ("core/records.py", "gin/records.py", "indian/records.py",
                 "laydown/records.py", "gin/runner.py", "indian/runner.py",
                 "laydown/runner.py"):
        path = ROOT / "benchmarks" / "arena" / name
        assert not solver_imports(path), path


# -- gin ------------------------------------------------------------------------------------
def test_gin_hands_between_bots_read_as_the_arena_scored_them() -> None:
    for a, b in (("greedy", "random"), ("careful", "greedy")):
        arena = Arena(a, b, seed=3, cross_check=False)
        for index in range(3):
            pair = arena.play_pair(index)
            records = pair_records(pair, arena.names)
            assert [r["players"] for r in records] == [[a, b], [b, a]]
            for record, hand in zip(records, pair.games, strict=True):
                walked = walk(read_record(record))
                assert record["result"] == [hand.points_for(0), hand.points_for(1)]
                assert walked.result == tuple(record["result"])
                assert "rules" not in record  # the arena's rules are the library's defaults



def test_a_second_copy_taken_and_thrown_back_reads() -> None:
    """Two decks, seed 5000's seventh deal, random against greedy: the random
    player takes the second KH while it holds the first and throws one back.
    The arena's referee allows it; the review's replay counted both as still
    held and refused the record (too many copies) until it forgot the older
    copy."""
    lines: list[str] = []
    run_indian_arena(["random", "greedy"], 7, seed=5000, records=lines.append, progress=False)
    for line in lines:
        read_record(json.loads(line))
    thrown_back = [e for e in json.loads(lines[13])["events"][44:48]]
    assert [(e["action"], e.get("card", e.get("drawn"))) for e in thrown_back] == [
        ("draw_stock", "KH"), ("discard", "KH"), ("take_discard", "KH"), ("discard", "KH")]

def test_the_arena_gin_rules_are_the_library_defaults() -> None:
    library = make_rules("gin", None)
    for item in fields(ARENA_RULES):
        assert getattr(library, item.name) == getattr(ARENA_RULES, item.name), item.name
    assert rules_of(ARENA_RULES) == {}
    assert rules_of(OPENSPIEL_RULES) == {"undercut_on_tie": False}


def test_gin_records_round_trip_through_openspiel() -> None:
    arena = Arena("random", "greedy", seed=5, rules=OPENSPIEL_RULES, cross_check=False)
    for index in range(4):  # random plays walls and throw-backs, greedy knocks
        pair = arena.play_pair(index)
        for data in pair_records(pair, arena.names, OPENSPIEL_RULES):
            record = read_record(data)
            back = from_openspiel(to_openspiel(record), players=record.players)
            assert back.steps == record.steps
            assert back.dealt.hands == record.dealt.hands
            assert back.rules == record.rules == {"undercut_on_tie": False}


class _TakesThePile:
    """Takes the pile top every turn and throws another card: the hand runs
    into OpenSpiel's 50-pickup guard."""

    name = "takes_the_pile"

    def start_hand(self, seat: int, seed: int) -> None:
        """Nothing to remember."""

    def act(self, view: gin.PlayerView) -> gin.Action:
        """Take, else draw; throw the first card not just taken."""
        legal = view.legal_actions
        for wanted in (gin.TAKE_DISCARD, gin.DRAW_STOCK):
            if wanted in legal:
                return wanted
        return next(a for a in legal if a.kind == gin.ActionKind.DISCARD
                    and a.card != view.drawn_card)


def test_a_gin_hand_the_upcard_guard_ends_is_recorded_unscored() -> None:
    player = _TakesThePile()
    hand = play_hand(deck_for(0, "hand", 0), (player, player), (0, 0))
    assert hand.result is not None and hand.result.outcome == "upcard_limit"
    data = hand_record(hand, ("x", "y"))
    record = read_record(data)
    assert record.result == (0.0, 0.0) and data["events"][-1]["action"] == "discard"
    assert from_openspiel(to_openspiel(record)).steps == record.steps


def test_gin_matches_record_the_score_before_each_hand() -> None:
    lines: list[str] = []
    results = run_arena("greedy", "careful", hands=0, matches=2, seed=1, cross_check=False,
                        progress=None, records=lines.append)
    records = _read_all(lines)
    assert results["records"] == len(records) == sum(r["hands"] for r in
                                                     results["matches"]["results"])
    first = records[0]
    assert first["score"] == [0, 0] and first["target"] == 100
    # each hand's score is the last one's plus what it won
    for before, after in itertools.pairwise(records):
        if after["score"] == [0, 0]:
            continue  # the next match
        won = [max(0, p) for p in before["result"]]
        if before["players"] == after["players"]:
            assert after["score"] == [s + w for s, w in zip(before["score"], won, strict=True)]
        else:
            assert after["score"] == [s + w for s, w in
                                      zip(reversed(before["score"]), reversed(won), strict=True)]


def test_gin_records_are_the_same_on_two_workers(tmp_path: Path) -> None:
    one: list[str] = []
    run_arena("greedy", "random", hands=4, seed=2, cross_check=False, progress=None,
              records=one.append)
    path = tmp_path / "gin.jsonl"
    run_arena("greedy", "random", hands=4, seed=2, cross_check=False, progress=None,
              workers=2, records=path)
    assert path.read_text(encoding="utf-8").splitlines() == one


def test_a_gin_record_of_the_advisor_reads() -> None:
    arena = Arena("advisor_novice", "greedy", seed=0, cross_check=False)
    record = read_record(pair_records(arena.play_pair(0), arena.names)[0])
    assert record.players == ("advisor_novice", "greedy")


# -- Indian rummy ----------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "lineup", "deals", "seed"), [
    (INDIAN13, ("greedy", "random"), 3, 4), (INDIAN13, ("careful", "distance", "greedy"), 1, 4),
    (INDIAN21, ("careful", "random"), 2, 1)])
def test_indian_games_read_as_the_arena_scored_them(variant: IndianVariant,
                                                    lineup: tuple[str, ...],
                                                    deals: int, seed: int) -> None:
    lines: list[str] = []
    results = run_indian_arena(lineup, deals, seed=seed, progress=False, variant=variant,
                               records=lines.append)
    records = _read_all(lines)
    assert len(records) == deals * len(lineup) == results["records"]
    assert {r["game"] for r in records} == {variant.game}
    # each player's points per deal, as the arena summed them, from the records' results
    for name in lineup:
        mine = [r["result"][seat] for r in records for seat, who in enumerate(r["players"])
                if who == name]
        arena = results["per_deal"][name]
        assert sum(mine) / len(lineup) == pytest.approx(sum(arena))


class _Scripted:
    """Never drops; draws from the stock; throws the first card it may, or
    declares with ``groups`` (a function of its hand)."""

    name = "scripted"

    def __init__(self, show: Callable[[list[int]], tuple[tuple[int, ...], ...]] | None) -> None:
        self.show = show

    def start_deal(self, seat: int, seed: int) -> None:
        """Nothing to remember."""

    def act(self, view: indian.PlayerView) -> indian.Action:
        """Draw, then throw (or declare)."""
        if view.phase == indian.Phase.DRAW:
            return indian.DRAW
        card = view.legal[0].card
        if self.show is None:
            return view.legal[0]
        kept = list(view.hand)
        assert card is not None
        kept.remove(card)
        return indian.Action(indian.Kind.DECLARE, card, self.show(kept))


@pytest.mark.parametrize(("show", "outcome"), [
    (None, "void"),
    (lambda kept: (tuple(kept),), "wrong_show"),
    (lambda kept: (tuple(kept[:3]),), "wrong_show")])
def test_void_deals_and_wrong_shows_read(
        show: Callable[[list[int]], tuple[tuple[int, ...], ...]] | None, outcome: str) -> None:
    deck = rotations.deck_for(INDIAN13.seeds, INDIAN13.deck, 0, 0)
    players = [_Scripted(show), _Scripted(None)]
    game = play_game(deck, ["a", "b"], [0, 0], INDIAN13.rules, players)
    assert game.result is not None and game.result.outcome == outcome
    data = game_record(game, INDIAN13)
    walked = walk(read_record(data))
    assert walked.result == tuple(data["result"]) == tuple(map(float, game.result.points))


# -- Rummy 500, Rommy, basic rummy --------------------------------------------------------
@pytest.mark.parametrize("variant", [RUMMY500, ROMMY, BASIC], ids=lambda v: v.name)
def test_lay_down_rounds_read_as_the_arena_scored_them(variant: Variant) -> None:
    for lineup, deals in ((("greedy", "random"), 2), (("careful", "greedy", "random"), 1)):
        play = functools.partial(play_round, variant=variant)
        played = rotations.play_deals(variant.name, variant.cards_for(len(lineup)), lineup,
                                      play, deals, seed=6, progress=False)
        for deal in played:
            for game in deal:
                data = round_record(game, variant)
                read_record(data)
                assert game.result is not None
                points = list(game.result.points)
                assert data["result"] == (points if variant.scoring == "collect"
                                          else relative(points))


def test_lay_down_runner_writes_every_round(tmp_path: Path) -> None:
    path = tmp_path / "basic.jsonl"
    path.write_text("", encoding="utf-8")
    results = run_lay_down_arena(BASIC, ["careful", "greedy"], 2, seed=1, progress=False,
                                 records=path)
    run_lay_down_arena(BASIC, ["careful", "greedy"], 1, seed=1, progress=False, records=path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert results["records"] == 4 and len(lines) == 6  # a path is appended to
    assert _read_all(lines)[4] == json.loads(lines[0])  # the same seed deals the same first


def test_a_lay_down_record_of_the_advisor_reads() -> None:
    deck = rotations.deck_for(RUMMY500.name, RUMMY500.cards_for(2), 0, 0)
    game = play_round(deck, ["advisor_novice", "greedy"], [0, 0], variant=RUMMY500)
    assert read_record(round_record(game, RUMMY500)).players == ("advisor_novice", "greedy")


def test_the_command_line_writes_records(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.__main__ import main

    path = tmp_path / "cli.jsonl"
    path.write_text("stale\n", encoding="utf-8")
    assert main(["--arena", "--game", "indian13", "--a", "greedy", "--b", "random",
                 "--deals", "1", "--records", str(path)]) == 0
    capsys.readouterr()
    assert [r["players"] for r in _read_all(path.read_text().splitlines())] == [
        ["greedy", "random"], ["random", "greedy"]]


def test_sinks() -> None:
    lines: list[str] = []
    assert write_records(lines.append, [{"a": 1}, {"b": [2]}]) == 2
    assert lines == ['{"a":1}', '{"b":[2]}']
    assert write_records(None, [{"a": 1}]) == 0


def test_a_file_sink_starts_empty(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text("old\n", encoding="utf-8")
    sink = file_sink(path)
    assert path.read_text(encoding="utf-8") == ""
    sink("{}")
    sink("[]")
    assert path.read_text(encoding="utf-8") == "{}\n[]\n"


# -- the review's ordering benchmark ----------------------------------------------------------
def _gin_records(tmp_path: Path, pairs: tuple[tuple[str, str], ...], hands: int) -> Path:
    path = tmp_path / "gin.jsonl"
    path.write_text("", encoding="utf-8")
    for a, b in pairs:
        run_arena(a, b, hands=hands, seed=7, cross_check=False, progress=None, records=path)
    return path


def test_the_ordering_benchmark_on_a_tiny_file(tmp_path: Path) -> None:
    path = _gin_records(tmp_path, (("random", "greedy"),), 2)
    result = review_ordering.run(path, level="novice")
    found = result["games"]["gin"]
    assert found["records"] == 2 and found["incomplete"] == 0
    assert found["order_by_points"] == ["greedy", "random"] == found["order_by_loss"]
    assert found["same_order"] and found["pairs_alike"] == found["pairs"] == 1
    greedy, random = found["players"]["greedy"], found["players"]["random"]
    assert greedy["records"] == random["records"] == 2
    assert greedy["arena_points"] == -random["arena_points"]
    assert greedy["rating"] < random["rating"]
    # engine agreement: the decisive decisions each played the best at, as the reviews count them
    assert 0 <= greedy["agreement_rate"] <= 1 and greedy["decisive"] > 0
    assert greedy["agreement_spread"] is None  # two records: no two whole blocks of 25
    text = review_ordering.render(result)
    assert "| greedy" in text and "matches the arena's" in text and "engine agreement" in text



def test_a_record_the_review_refuses_is_counted_not_fatal(tmp_path: Path) -> None:
    path = _gin_records(tmp_path, (("random", "greedy"),), 2)
    lines = path.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[0])
    held = broken["deal"]["hands"][1]
    broken["events"][1]["card"] = held[0]  # seat 0 throws a card seat 1 holds
    path.write_text("\n".join([lines[0], json.dumps(broken), lines[1]]) + "\n", encoding="utf-8")
    result = review_ordering.run(path, level="novice", processes=2)
    found = result["games"]["gin"]
    assert found["records"] == 3 and found["incomplete"] == 0
    assert len(found["refused"]) == 1 and found["refused"][0].startswith("line 2: ")
    assert found["players"]["greedy"]["records"] == 2
    assert "refused: 1: line 2" in review_ordering.render(result)

def test_the_ordering_benchmark_is_the_same_on_two_processes(tmp_path: Path) -> None:
    path = _gin_records(tmp_path, (("random", "greedy"), ("careful", "greedy")), 2)
    one = review_ordering.run(path, level="novice")
    two = review_ordering.run(path, level="novice", processes=2)
    assert review_ordering.plain(one["games"]) == review_ordering.plain(two["games"])
    found = one["games"]["gin"]
    assert set(found["players"]) == {"random", "greedy", "careful"}
    assert found["players"]["greedy"]["records"] == 4
    assert -1.0 <= found["pearson"] <= 1.0 and -1.0 <= found["pearson_per_hand"] <= 1.0
    greedy = found["players"]["greedy"]
    assert greedy["points_lost_per_hand"] == pytest.approx(
        greedy["points_lost_per_decision"] * greedy["decisions"] / greedy["records"])
    # greedy, everybody's opponent, left out of the order: the same figures
    star = review_ordering.run(path, level="novice", exclude=["greedy"])["games"]["gin"]
    assert star["unranked"] == ["greedy"] and star["pairs"] == 1
    assert star["order_by_points"] == ["careful", "random"]
    assert star["players"]["greedy"] == found["players"]["greedy"]


def test_the_ordering_command_writes_json(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = _gin_records(tmp_path, (("random", "greedy"),), 2)
    out = tmp_path / "ordering.json"
    assert review_ordering.main([str(path), "--level", "novice", "--json", str(out)]) == 0
    assert "Pearson" in capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["games"]["gin"]["players"]["random"]["loss_interval"] is not None


def test_correlations_and_intervals() -> None:
    assert review_ordering.spearman([1, 2, 3, 4], [10, 20, 40, 30]) == pytest.approx(0.8)
    assert review_ordering.pearson([1, 2], [3, 4]) != review_ordering.pearson([1, 2], [3, 4])
    # a ratio's interval: records that lose alike per decision have none
    assert review_ordering.ratio_half_width([(2.0, 4), (1.0, 2), (3.0, 6)], 0.5) == 0.0
    assert asdict(review_ordering.Job(0, {}, "novice", 0, 1))["level"] == "novice"
