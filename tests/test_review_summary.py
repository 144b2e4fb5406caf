"""solver.review.summary: a player's figures added up across reviews, by its id."""

from __future__ import annotations

from solver.review import review
from solver.review.review import Totals
from solver.review.summary import Summaries
from tests.test_review_record import GIN


def test_totals_read_back_and_add_up() -> None:
    answer = review(GIN, seed=3, level="novice", time_limit_ms=60_000).to_dict()
    ann = answer["players"][0]
    totals = Totals.from_dict(ann)
    assert totals.to_dict() == {k: v for k, v in ann.items()
                                if k not in ("seat", "player", "worst", "errors")}
    twice = Totals()
    twice.add(totals)
    twice.add(totals)
    figures = twice.to_dict()
    assert figures["hands"] == 2 and figures["decisions"] == 2 * ann["decisions"]
    assert figures["accuracy"] == ann["accuracy"]
    assert figures["luck"]["total"] == round(2 * ann["luck"]["total"], 6)


def test_summaries_key_players_by_id_and_skip_other_answers() -> None:
    answer = review(GIN, seed=3, level="novice", time_limit_ms=60_000).to_dict()
    summaries = Summaries()
    assert summaries.add(answer) and summaries.add(answer)
    assert not summaries.add({"deadwood_points": 3})
    out = summaries.to_dict()
    assert out["reviews"] == 2 and list(out["players"]) == ["ann", "bob"]
    assert out["players"]["bob"]["games"] == {"gin": 2}
    assert out["players"]["bob"]["hands"] == 2


def test_a_game_counts_once_for_an_id_at_two_seats() -> None:
    """A self-play record (one id at both seats) is one game of that id, not two; its
    seats' figures (hands, decisions) both count (audit of the review)."""
    answer = review(GIN, seed=3, level="novice", time_limit_ms=60_000).to_dict()
    for player in answer["players"]:
        player["player"] = "bot"
    summaries = Summaries()
    assert summaries.add(answer)
    bot = summaries.to_dict()["players"]["bot"]
    assert bot["games"] == {"gin": 1}
    assert bot["hands"] == 2 and bot["decisions"] == sum(
        p["decisions"] for p in answer["players"])


def test_a_players_points_are_kept_game_by_game_too() -> None:
    """Points of different games are unlike units: beside the pooled figures a
    player's ``by_game`` holds each game's own (audit 5: one player's result
    over five kinds of games was one sum)."""
    summaries = Summaries()
    gin = Totals(hands=1, decisions=4, points_lost=2.0, units_lost=0.1, accuracy=380.0,
                 result=25.0, results=1)
    rummy = Totals(hands=1, decisions=10, points_lost=60.0, units_lost=1.0, accuracy=700.0,
                   result=-120.0, results=1)
    summaries.add({"game": "gin", "players": [{"player": "ann", **gin.to_dict()}]})
    summaries.add({"game": "rummy500", "players": [{"player": "ann", **rummy.to_dict()}]})
    ann = summaries.to_dict()["players"]["ann"]
    assert ann["games"] == {"gin": 1, "rummy500": 1} and ann["result"] == -95.0
    assert sorted(ann["by_game"]) == ["gin", "rummy500"]
    assert (ann["by_game"]["gin"]["result"], ann["by_game"]["gin"]["points_lost"]) == (25.0, 2.0)
    assert ann["by_game"]["rummy500"]["points_lost_per_decision"] == 6.0
    assert ann["rating"] == round(1000.0 * 1.1 / 14, 2)  # units pool across games
