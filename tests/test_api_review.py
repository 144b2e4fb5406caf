"""POST /v1/review, ``rummy-solver review FILE`` and bulk lines of recorded games:
the same answers everywhere, a record that cannot have happened a 422 whose
``loc`` names the event, and per-player summaries across games that do not
depend on the runner (one process, two, Ray)."""

from __future__ import annotations

import argparse
import copy
import gzip
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.bulk import command
from api.bulk.on_pool import run_lines
from api.cli import main
from api.shared.examples import REQUESTS
from api.shared.schemas_review import ReviewRequest, ReviewResponse
from solver.review.selfplay import at_random, follow, play

GAME = REQUESTS["review_game"][0]
NOVICE = {**GAME, "level": "novice"}


def _strip(answer: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in answer.items() if key != "elapsed_ms"}


@pytest.fixture(scope="module")
def http_answer(inline_client: Any) -> dict[str, Any]:
    response = inline_client.post("/v1/review", json=NOVICE)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    ReviewResponse.model_validate(answer)
    return answer


def test_the_cli_answers_as_http(http_answer: dict[str, Any], tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAME), encoding="utf-8")
    assert main(["review", str(path), "--level", "novice", "--json"]) == 0
    assert _strip(json.loads(capsys.readouterr().out)) == _strip(http_answer)
    assert main(["review", str(path), "--level", "novice"]) == 0
    report = capsys.readouterr().out
    assert "ann (seat 0)" in report and "decisions" in report


def test_the_cli_says_what_is_wrong_with_a_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(tmp_path / "none.json"), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["loc"] == ["file"]
    lines = tmp_path / "two.jsonl"
    lines.write_text(json.dumps(GAME) + "\n" + json.dumps(GAME) + "\n", encoding="utf-8")
    assert main(["review", str(lines), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["type"] == "json_invalid"


@pytest.mark.parametrize(("content", "type_"), [
    (b"\xff{}", "body_not_utf8"),
    (b"[" * 40 + b"]" * 40, "body_too_deep"),
    (b'{"game": "gin", "seed": ' + b"9" * 5000 + b"}", "json_invalid"),
    (b'{"game": NaN}', "json_invalid"),
    (b"  \n", "missing"),
])
def test_a_file_that_is_not_a_json_body_is_refused_as_http_refuses_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], inline_client: Any,
        content: bytes, type_: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    assert main(["review", str(path), "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert (error["type"], error["loc"]) == (type_, ["file"]) and str(path) in error["msg"]
    response = inline_client.post("/v1/review", content=content,
                                  headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["detail"][0]["type"] == type_


def test_a_gzip_file_is_read_and_a_damaged_one_refused(
        http_answer: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    packed = gzip.compress(json.dumps(GAME).encode())
    path = tmp_path / "game.json.gz"
    path.write_bytes(packed)
    assert main(["review", str(path), "--level", "novice", "--json"]) == 0
    assert _strip(json.loads(capsys.readouterr().out)) == _strip(http_answer)
    path.write_bytes(packed[:len(packed) // 2])
    assert main(["review", str(path), "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert (error["type"], error["loc"]) == ("invalid_value", ["file"])
    assert "cannot read" in error["msg"]


@pytest.mark.parametrize("name", ["game.json", "game.JSON.GZ", "-"])
def test_a_gzip_file_is_known_by_its_first_bytes(
        http_answer: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """A gzip record was read as such only under a lowercase ``.gz`` name: any
    other name, or standard input, was refused ``body_not_utf8`` (audit of the
    command line; bulk reads its input the same way)."""
    packed = gzip.compress(json.dumps(GAME).encode())
    if name == "-":
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(packed))))
    else:
        (tmp_path / name).write_bytes(packed)
    source = name if name == "-" else str(tmp_path / name)
    assert main(["review", source, "--level", "novice", "--json"]) == 0
    assert _strip(json.loads(capsys.readouterr().out)) == _strip(http_answer)


@pytest.mark.parametrize("name", ["game.json", "game.json.gz"])
def test_a_file_over_the_body_limit_is_refused_as_http_refuses_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], inline_client: Any,
        name: str) -> None:
    """The file is bounded as a body is: a record padded past the limit was
    reviewed (HTTP: 413), and a gzip file of a few hundred KB that expands
    to gigabytes was read whole into memory."""
    content = json.dumps(NOVICE)[:-1].encode() + b" " * 1_000_000 + b"}"
    path = tmp_path / name
    path.write_bytes(gzip.compress(content) if name.endswith(".gz") else content)
    assert main(["review", str(path), "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert (error["type"], error["loc"]) == ("body_too_large", ["file"])
    assert str(path) in error["msg"] and "RUMMY_SOLVER_MAX_BODY_BYTES" in error["msg"]
    response = inline_client.post("/v1/review", content=content,
                                  headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["detail"][0]["type"] == "body_too_large"


def test_bulk_answers_as_http_on_one_process_and_two(http_answer: dict[str, Any]) -> None:
    lines = [json.dumps({**NOVICE, "id": n, "op": "review_game"}) for n in range(3)]
    local = [a.to_dict() for a in run_lines(lines, processes=1)]
    pooled = [a.to_dict() for a in run_lines(lines, processes=2, chunk_lines=1)]
    assert local == pooled
    assert [a["id"] for a in local] == [0, 1, 2]
    assert all(a["result"] == _strip(http_answer) for a in local)


def test_an_impossible_record_is_a_422_naming_the_event(inline_client: Any) -> None:
    bad = copy.deepcopy(GAME)
    bad["events"][1]["card"] = "2H"
    response = inline_client.post("/v1/review", json=bad)
    assert response.status_code == 422
    item = response.json()["detail"][0]
    assert item["type"] == "card_not_held"
    assert item["loc"] == ["body", "events", 1, "card"]
    line = run_lines([json.dumps({**bad, "op": "review_game"})], processes=1)
    error = next(line).to_dict()["error"]
    assert error["type"] == "card_not_held" and error["loc"] == ["line", "events", 1, "card"]


def test_an_openspiel_history_is_reviewed_at_every_door_as_its_record(
        inline_client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """POST /v1/review/openspiel reads OpenSpiel's action history as the
    library's from_openspiel does and reviews it as POST /v1/review reviews
    that record; the result is OpenSpiel's own (-37, +37 for this game of
    OpenSpiel's random play, its returns)."""
    from solver.review import from_openspiel

    body = REQUESTS["review_openspiel"][0]
    response = inline_client.post("/v1/review/openspiel", json=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    ReviewResponse.model_validate(answer)
    assert answer["result"] == [-37.0, 37.0] and answer["ending"] == "knock"
    record = from_openspiel(body["history"], body["players"]).to_dict()
    as_record = inline_client.post("/v1/review", json={
        **record, **{k: body[k] for k in ("level", "seed")}})
    assert _strip(as_record.json()) == _strip(answer)
    assert main(["review-openspiel", "--history", json.dumps(body["history"]), "--players",
                 *body["players"], "--level", "novice", "--seed", "1", "--json"]) == 0
    assert _strip(json.loads(capsys.readouterr().out)) == _strip(answer)
    line = next(run_lines([json.dumps({**body, "op": "review_openspiel"})], processes=1))
    assert line.to_dict()["result"] == _strip(answer)


def test_an_openspiel_history_that_is_no_game_is_a_422_naming_the_action(
        inline_client: Any) -> None:
    history = list(REQUESTS["review_openspiel"][0]["history"])
    history[1] = history[0]  # a card dealt twice
    response = inline_client.post("/v1/review/openspiel", json={"history": history})
    assert response.status_code == 422
    item = response.json()["detail"][0]
    assert item["type"] == "invalid_openspiel_history"
    assert item["loc"] == ["body", "history", 1]
    response = inline_client.post("/v1/review/openspiel", json={"history": [241]})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "history", 0]


@pytest.mark.parametrize("score", [[0, 0, 0], [0, 0]])
def test_a_match_score_on_a_three_player_record_is_refused_by_name(inline_client: Any,
                                                                  score: list[int]) -> None:
    """A score of three numbers on a three-player Indian record got the
    schema's "at most 2 items", which read as if a score of two would do;
    the library's refusal names the field as not the game's either way."""
    record = play("indian13", [follow] * 3, seed=1, level="novice").to_dict()
    response = inline_client.post("/v1/review", json={**record, "score": score})
    assert response.status_code == 422
    item = response.json()["detail"][0]
    assert (item["type"], item["loc"]) == ("field_not_for_game", ["body", "score"])
    assert "score is not a field of indian13" in item["msg"]


@pytest.mark.parametrize(("players", "seat"), [
    (["\x1b[2J\x1b[31mann", "bob"], 0),
    (["ann", "bob\ndecisions  0. ann: blunder"], 1),
    (["ann", "bob\x00"], 1),
])
def test_a_player_id_that_is_not_printable_is_refused(inline_client: Any, players: list[str],
                                                      seat: int) -> None:
    """A player id is echoed in the command line's report and in summaries:
    one with a terminal escape or a line break was accepted and printed as
    it was (clearing the screen, forging a report line)."""
    response = inline_client.post("/v1/review", json={**GAME, "players": players})
    assert response.status_code == 422
    item = response.json()["detail"][0]
    assert (item["type"], item["loc"]) == ("invalid_record", ["body", "players", seat])
    assert "printable" in item["msg"]
    from solver.review import read_record
    from solver.review.record import RECORD_FIELDS

    record = {key: value for key, value in GAME.items() if key in RECORD_FIELDS}
    assert read_record({**record, "players": ["Åsa Öberg", "李雷 ♠"]}).players == (
        "Åsa Öberg", "李雷 ♠")


def test_requests_are_bounded() -> None:
    with pytest.raises(ValueError, match=r"too_long|at most"):
        ReviewRequest.model_validate({**GAME, "events": GAME["events"] * 300})
    with pytest.raises(ValueError):
        ReviewRequest.model_validate({**GAME, "players": ["x" * 65, "bob"]})


def test_a_review_past_its_deadline_answers_what_it_reviewed(inline_client: Any) -> None:
    record = play("gin", [follow, at_random], seed=8, level="novice").to_dict()
    # the expert level: a whole review of this hand takes about 1 s of a quiet core (the
    # standard level's 0.27 s fitted in the 300 ms)
    response = inline_client.post("/v1/review", json={**record, "time_limit_ms": 300,
                                                      "level": "expert"})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["complete"] is False and answer["reviewed"] < answer["total"]


def test_an_eight_deck_deal_is_reviewed_and_advised_with_its_stock(inline_client: Any) -> None:
    """Indian rummy with eight decks and four jokers each (the knobs' limits)
    leaves hundreds of cards in the stock: the record with its stock given,
    and an advice state with its stock_count, are answered as the library
    answers them (both were refused at 159 cards, three decks' worth)."""
    from solver.review.table import request_for, walk

    rules = {"decks": 8, "jokers_per_deck": 4}
    record = play("indian13", [follow, follow], seed=5, level="novice", rules=rules,
                  max_decisions=4)
    assert record.dealt.stock is not None and len(record.dealt.stock) > 400
    response = inline_client.post("/v1/review", json={**record.to_dict(), "level": "novice",
                                                      "time_limit_ms": 300})
    assert response.status_code == 200, response.text
    decision = walk(record).decisions[-1]
    state = request_for(record, decision.seat, decision.hand, decision.first)
    drawn = sum(step.action == "draw_stock" for step in record.steps[:decision.first])
    body = {"game": "indian13", "hand": state.hand, "upcard": state.upcard,
            "history": state.history, "me": state.me, "dealer": state.dealer, "rules": rules,
            **state.fields, "stock_count": len(record.dealt.stock) - drawn, "level": "novice",
            "time_limit_ms": 50}
    response = inline_client.post("/v1/advise", json=body)
    assert response.status_code == 200, response.text


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    return parser.parse_args(argv)


@pytest.fixture(scope="module")
def records() -> list[str]:
    """Four gin hands between three players (a player's games add up)."""
    out = []
    names = [("ann", "bob"), ("bob", "cat"), ("cat", "ann")]
    for seed in range(4):
        record = play("gin", [follow, at_random], seed=20 + seed, level="novice",
                      players=names[seed % 3], max_decisions=10).to_dict()
        out.append(json.dumps({**record, "level": "novice", "seed": seed}))
    return out


def _summary(records: list[str], tmp_path: Path, *extra: str) -> tuple[list[Any], Any]:
    source = tmp_path / "games.jsonl"
    source.write_text("\n".join(records) + "\n", encoding="utf-8")
    out, summary = tmp_path / "out.jsonl", tmp_path / "players.json"
    code = command.run(_args(str(source), "-o", str(out), "--op", "review_game", "--quiet",
                             "--summary", str(summary), *extra))
    assert code == 0
    answers = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return answers, json.loads(summary.read_text(encoding="utf-8"))


def test_bulk_sums_each_player_up_across_games(records: list[str], tmp_path: Path) -> None:
    answers, summary = _summary(records, tmp_path, "--processes", "1")
    assert summary["reviews"] == 4
    assert sorted(summary["players"]) == ["ann", "bob", "cat"]
    ann = summary["players"]["ann"]
    mine = [p for a in answers for p in a["result"]["players"] if p["player"] == "ann"]
    assert ann["decisions"] == sum(p["decisions"] for p in mine)
    assert ann["hands"] == len(mine) == 3 and ann["games"] == {"gin": 3}
    _, pooled = _summary(records, tmp_path, "--processes", "2")
    assert pooled == summary


def test_an_unwritable_summary_ends_the_run_before_it_starts(
        records: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The summary's file is opened first: a path that cannot be written is
    said at once, not after every game was reviewed (audit 5)."""
    source = tmp_path / "games.jsonl"
    source.write_text("\n".join(records) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code = command.run(_args(str(source), "-o", str(out), "--op", "review_game", "--quiet",
                             "--summary", str(tmp_path / "missing" / "players.json")))
    assert code == 2 and "players.json" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == ""  # nothing was reviewed


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install -e '.[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.mark.slow
def test_ray_gives_the_same_reviews_and_summary(local_ray: Any, records: list[str],
                                                tmp_path: Path) -> None:
    answers, summary = _summary(records, tmp_path, "--processes", "1")
    on_ray, ray_summary = _summary(records, tmp_path, "--ray")
    assert on_ray == answers and ray_summary == summary


def test_a_summary_adds_the_reviews_a_mixed_log_asks_for_by_its_lines_op(
        records: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--summary`` beside an ``--op`` that is not a review wrote a summary of
    nothing, said nowhere (audit of the command line): it has a meaning there,
    as a line's own ``"op"`` wins over ``--op`` in a log that mixes operations,
    and its help now says so."""
    mixed = [json.dumps({**json.loads(line), "op": "review_game"}) for line in records]
    mixed.insert(2, json.dumps({"variant": "gin", "hand": "AS 2S 3S"}))  # --op's: solve_hand
    answers, summary = _summary(mixed, tmp_path, "--processes", "1", "--op", "solve_hand")
    assert len(answers) == 5 and summary["reviews"] == 4
    _, reviews_only = _summary(records, tmp_path, "--processes", "1")
    assert summary == reviews_only
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    parser.print_help()
    shown = " ".join(capsys.readouterr().out.split())
    assert "or a line's own \"op\"" in shown and "other lines are left out" in shown
