"""The command line (``api.cli.commands``, ``api.shared.reports``, ``python -m api``).

Most tests run ``main([...])`` in-process and read stdout / stderr with
``capsys``; a few start ``python -m solver`` and the console script's entry
point as subprocesses.  Expected values are worked out by hand in comments
(card points: A=1, 2-10 pips, J Q K = 10; rummy500: a low ace 1, a joker 15).
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import json
import logging
import os
import socket
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from api.cli import commands as cli
from api.cli import main
from api.pool.resources import available_cpus
from api.shared.logs import LOG_LEVELS
from api.shared.reports import format_card, format_played
from api.shared.settings import current
from solver.version import version_info

ROOT = Path(__file__).resolve().parent.parent

GIN = "AS 2S 3S 7H 7D 7C KD QH 4C 9S"
INDIAN = "AH 2H 3H 4S 5S 9D 7S KC KD KS 5D 6D 7D"
KNOCK11 = "2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D"
KNOCKER = "5H 4H 4D 3H 6H 3C 4C 6C 2C 5C"
DEFENDER = "6D 3S 7S TD 9D 4S 9H 8D 7H TS"
VARIANTS = ("basic", "gin", "rummy500", "rommy", "indian13", "indian21", "contract", "kalooki")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)``: exit code, stdout, stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    """``main([*argv, "--json"])``: exit code and the parsed stdout."""
    code, out, _ = run(capsys, *argv, "--json")
    return code, json.loads(out)


def error_of(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """The first ``{"type", "msg", "loc"}`` of a command that must fail with exit 2."""
    return errors_of(capsys, *argv)[0]


def errors_of(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    """Every error item of a command that must fail with exit 2 (``"error"`` the first)."""
    code, body = run_json(capsys, *argv)
    assert code == 2, body
    assert set(body) == {"error", "errors"} and body["error"] == body["errors"][0]
    assert all(set(error) == {"type", "msg", "loc"} for error in body["errors"])
    errors: list[dict[str, Any]] = body["errors"]
    return errors


# ---------------------------------------------------------------------------
# solve


def test_solve_gin_human(capsys: pytest.CaptureFixture[str]) -> None:
    # A-2-3 spades (6) and three 7s (21); deadwood 9 + 10 + 10 + 4 = 33
    code, out, err = run(capsys, "solve", "--variant", "gin", GIN)
    assert (code, err) == (0, "")
    assert out == (
        "variant         gin\n"
        "melds           run  A♠ 2♠ 3♠  6 pts, pure\n"
        "                set  7♥ 7♦ 7♣  21 pts\n"
        "deadwood        9♠ Q♥ K♦ 4♣\n"
        "points          deadwood 33, melded 27, net -6, penalty 33\n"
        "declarable      no\n"
        "status          optimal (search)\n"
    )


def test_quoted_hand_is_the_unquoted_hand(capsys: pytest.CaptureFixture[str]) -> None:
    quoted = run(capsys, "solve", "--variant", "gin", GIN)
    tokens = run(capsys, "solve", "--variant", "gin", *GIN.split())
    commas = run(capsys, "solve", "--variant", "gin", GIN.replace(" ", ","))
    assert quoted == tokens == commas
    assert run_json(capsys, "solve", GIN) == run_json(capsys, "solve", *GIN.split())


def test_solve_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, body = run_json(capsys, "solve", "--variant", "gin", GIN)
    assert code == 0
    assert body["deadwood_points"] == 33
    assert sorted(body["deadwood"]) == sorted(["9S", "QH", "KD", "4C"])
    assert (body["can_open"], body["go_out"], body["optimal"], body["status"]) == (
        None, None, True, "optimal")


def test_json_before_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--json", "solve", GIN)
    assert code == 0 and json.loads(out)["deadwood_points"] == 33


def test_solve_indian13_wild_card_marked(capsys: pytest.CaptureFixture[str]) -> None:
    # 9s wild: 4S 5S 9D 7S is 4-5-6-7 spades; every card melds, count 0
    argv = ("solve", "--variant", "indian13", "--wild-rank", "9", INDIAN)
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "9♦=6♠" in out and "declarable      yes" in out
    assert "points          deadwood 0," in out and "deadwood        -" in out
    code, body = run_json(capsys, *argv)
    assert (body["deadwood_points"], body["penalty_points"], body["declarable"]) == (0, 0, True)
    assert len(body["melds"]) == 4 and body["deadwood"] == []


def test_solve_go_out_and_can_open(capsys: pytest.CaptureFixture[str]) -> None:
    # rummy500: four aces (60) minus 2H 3H (5) = 55 beats going out with
    # A-2-3 hearts (1 + 2 + 3) and three aces (45) = 51
    code, out, _ = run(capsys, "solve", "--variant", "rummy500", "AH 2H 3H AS AD AC")
    assert code == 0
    assert "points          deadwood 5, melded 60, net 55, penalty 5" in out
    assert "go out          melded 51, net 51" in out
    # kalooki: two sets of 30 open (>= 51); 2C stays in hand
    code, out, _ = run(capsys, "solve", "--variant", "kalooki", "KH KS KD QH QS QD 2C")
    assert "can open        yes" in out and "deadwood        2♣" in out
    assert "can open" not in run(capsys, "solve", GIN)[1]


def test_solve_discard_and_engine(capsys: pytest.CaptureFixture[str]) -> None:
    # 11 cards: 8S joins nothing useful, throwing QH (10) leaves 9 + 8 + 10 + 4 = 31
    code, out, _ = run(capsys, "solve", "--variant", "basic", "--discard", GIN + " 8S")
    assert code == 0 and "discard         Q♥" in out and "deadwood 31," in out
    code, body = run_json(capsys, "solve", "--engine", "cpsat", "--time-limit-ms", "500", GIN)
    assert (body["deadwood_points"], body["engine"], body["optimal"]) == (33, "cpsat", True)


def test_solve_rules_override(capsys: pytest.CaptureFixture[str]) -> None:
    # knock_limit 40: deadwood 33 may knock
    code, body = run_json(capsys, "solve", GIN, "--rules", '{"knock_limit": 40}')
    assert code == 0 and body["declarable"] is True


# ---------------------------------------------------------------------------
# Input errors


def test_missing_hand_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "--variant", "gin")
    assert (code, out) == (2, "")
    assert "Field required (missing at hand)" in err and "declarable" not in err
    error = error_of(capsys, "solve", "--variant", "gin")
    assert (error["type"], error["loc"]) == ("missing", ["hand"])


@pytest.mark.parametrize("argv", [("solve", ""), ("solve", " , ")])
def test_an_empty_hand_is_a_hand(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    """As over HTTP (``"hand": ""``): no cards, no deadwood."""
    code, body = run_json(capsys, *argv)
    assert (code, body["deadwood_points"], body["melds"]) == (0, 0, [])


def test_bad_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "AS 2S ZZ")
    assert (code, out) == (2, "")
    assert "unknown card 'ZZ' at position 2" in err and "invalid_card at hand[2]" in err
    error = error_of(capsys, "solve", "AS", "2S", "ZZ")
    assert (error["type"], error["loc"]) == ("invalid_card", ["hand", 2])


def test_every_error_of_a_request(capsys: pytest.CaptureFixture[str]) -> None:
    """A request with several faults: the command line printed the first,
    where the endpoint lists them all (audit of the front doors)."""
    argv = ("advise", "AS", "--history", '[{"player": 0}]')
    expected = [{"type": "missing", "loc": ["upcard"], "msg": "Field required"},
                {"type": "missing", "loc": ["history", 0, "action"], "msg": "Field required"}]
    assert errors_of(capsys, *argv) == expected
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.splitlines() == ["rummy-solver: error: Field required (missing at upcard)",
                                "rummy-solver: error: Field required (missing at history[0].action)"]


@pytest.mark.parametrize(("argv", "option", "kind", "choices"), [
    (("solve", "--variant", "gin500", "AS"), "variant", "unknown_variant", VARIANTS),
    (("solve", "--engine", "fast", "AS"), "engine", "unknown_engine", ("auto", "search", "cpsat")),
])
def test_bad_choice_lists_the_choices(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                      option: str, kind: str, choices: tuple[str, ...]) -> None:
    """The request's own choices answer as over HTTP: the same code and message."""
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert "choose one of" in err and all(c in err for c in choices)
    assert "Traceback" not in err
    error = error_of(capsys, *argv)
    assert (error["type"], error["loc"]) == (kind, [option])
    assert all(c in error["msg"] for c in choices)


def test_bad_serve_choice_lists_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "serve", "--log-level", "loud")
    assert (code, out) == (2, "") and "invalid choice" in err
    error = error_of(capsys, "serve", "--log-level", "loud")
    assert (error["type"], error["loc"]) == ("invalid_choice", ["log_level"])
    assert all(repr(c) in error["msg"] for c in LOG_LEVELS)


def test_bad_rules_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", GIN, "--rules", "{knock_limit: 5}")
    assert (code, out) == (2, "")
    assert "--rules is not valid JSON" in err
    error = error_of(capsys, "solve", GIN, "--rules", "{knock_limit: 5}")
    assert (error["type"], error["loc"]) == ("json_invalid", ["rules"])


@pytest.mark.parametrize(("value", "kind"), [
    ('{"decks": ' + "9" * 5000 + "}", "json_invalid"),
    ("[" * 2000 + "]" * 2000, "body_too_deep"),
    ('{"knock_limit": Infinity}', "json_invalid"),
    ("", "missing"),
])
def test_a_json_option_is_read_as_an_http_body_is(capsys: pytest.CaptureFixture[str],
                                                  inline_client: Any, value: str,
                                                  kind: str) -> None:
    code, out, err = run(capsys, "solve", GIN, "--rules", value)
    assert (code, out) == (2, "") and "Traceback" not in err and "--rules" in err
    error = error_of(capsys, "solve", GIN, "--rules", value)
    assert (error["type"], error["loc"]) == (kind, ["rules"])
    if kind != "missing":  # the same document as a whole HTTP body: the same code
        response = inline_client.post("/v1/solve", content=value.encode(),
                                   headers={"content-type": "application/json"})
        assert response.status_code == 422 and response.json()["detail"][0]["type"] == kind


@pytest.mark.parametrize(("argv", "kind", "loc"), [
    (("solve", GIN, "--rules", '{"decks": 9}'), "invalid_rules", ["rules", "decks"]),
    (("solve", GIN, "--rules", '{"no_such_knob": 1}'), "invalid_rules", ["rules", "no_such_knob"]),
    (("solve", GIN, "--rules", "[1]"), "invalid_rules", ["rules"]),
    (("solve", GIN, "--wild-rank", "7"), "wild_rank_not_allowed", ["wild_rank"]),
    (("solve", GIN, "--time-limit-ms", "0"), "greater_than_equal", ["time_limit_ms"]),
    (("solve", GIN, "--time-limit-ms", "3000"), "time_limit_too_large", ["time_limit_ms"]),
    (("solve", GIN, "--time-limit-ms", "soon"), "int_type", ["time_limit_ms"]),
    (("solve", "AS AS"), "too_many_copies", ["hand", 1]),
    (("solve", GIN, "--colour"), "unrecognized_arguments", []),
])
def test_error_json_type_and_loc(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                 kind: str, loc: list[object]) -> None:
    error = error_of(capsys, *argv)
    assert (error["type"], error["loc"]) == (kind, loc), error


@pytest.mark.parametrize("number", ["9" * 5000, "-" + "9" * 5000])
def test_an_integer_option_of_5000_digits_is_named_as_too_long(
        capsys: pytest.CaptureFixture[str], number: str) -> None:
    """5,000 digits were answered int_type "Input should be a valid integer" (a
    number of 4,000 digits gets its bound); they now get the words of a JSON
    body's such number (audit of the command line)."""
    error = error_of(capsys, "advise", GIN, "--upcard", "4S", "--seed", number)
    assert (error["type"], error["loc"]) == ("invalid_value", ["seed"])
    assert error["msg"] == "--seed: an integer of 5,000 digits (at most 4,300)"
    assert error_of(capsys, "solve", GIN, "--time-limit-ms", "²")["type"] == "int_type"


def test_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert (code, out) == (2, "") and "choose a command" in err
    assert error_of(capsys)["type"] == "usage_error"


def test_internal_failure(capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("engine exploded")

    from dataclasses import replace

    from api.shared.operations import OPERATIONS

    monkeypatch.setitem(OPERATIONS, "solve_hand", replace(OPERATIONS["solve_hand"], call=broken))
    code, body = run_json(capsys, "solve", GIN)
    assert code == 1
    failure = {"type": "internal_error", "loc": [], "msg": "RuntimeError: engine exploded"}
    assert body == {"error": failure, "errors": [failure]}
    with pytest.raises(RuntimeError):  # without --json: the traceback
        main(["solve", GIN])


def test_ctrl_c_exits_130_without_a_traceback(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C on a long review or advice printed a traceback (exit 130 from the
    signal, and nothing on stdout under --json); bulk already stopped quietly
    with 130 (audit of the command line)."""
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    from dataclasses import replace

    from api.shared.operations import OPERATIONS

    monkeypatch.setitem(OPERATIONS, "solve_hand",
                        replace(OPERATIONS["solve_hand"], call=interrupted))
    for json_flag in ((), ("--json",)):
        assert run(capsys, "solve", GIN, *json_flag) == (130, "", "interrupted\n")


# ---------------------------------------------------------------------------
# --version


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    info = version_info()
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out == (f"rummy-solver {info['version']} (OR-Tools {info['ortools']}, "
                   f"Python {info['python']})\n")
    assert run_json(capsys, "--version") == (0, info)


# ---------------------------------------------------------------------------
# validate


def test_validate(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("validate", "--variant", "gin", "--meld", "AS 2S 3S", "--meld", "7H", "7D", "7C",
            "--deadwood", "KD QH 4C 9S", "--hand", GIN)
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "valid           yes" in out and "problems        -" in out
    assert "0  run  A♠ 2♠ 3♠  6 pts, pure" in out
    code, body = run_json(capsys, *argv)
    assert (body["valid"], body["declarable"], body["deadwood_points"]) == (True, False, 33)


def test_validate_problems(capsys: pytest.CaptureFixture[str]) -> None:
    # A-2-4 is no run: its 7 points join the deadwood 33 = 40
    argv = ("validate", "--meld", "AS 2S 4S", "--meld", "7H 7D 7S", "--deadwood", "KD QH 4C 9S")
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "not_consecutive" in out and "0  not a meld" in out
    code, body = run_json(capsys, *argv)
    assert (body["valid"], body["deadwood_points"]) == (False, 40)
    assert [p["code"] for p in body["problems"]] == ["not_consecutive"]


def test_validate_errors(capsys: pytest.CaptureFixture[str]) -> None:
    error = error_of(capsys, "validate", "--meld", "AS 2S 3S", "--meld", "7H 7D XX")
    assert (error["type"], error["loc"]) == ("invalid_card", ["melds", 1, 2])
    error = error_of(capsys, "validate", "--variant", "gin")
    assert (error["type"], error["loc"]) == ("missing", ["melds"])


# ---------------------------------------------------------------------------
# gin: knock and score


def test_knock(capsys: pytest.CaptureFixture[str]) -> None:
    # discard 6S: 3D-6D and 4C-6C meld, 2S 5S 2C = 9; discard 5S: 2 + 6 + 2 = 10
    code, out, _ = run(capsys, "knock", KNOCK11)
    assert code == 0
    assert "can knock       yes" in out and "min deadwood    9" in out
    assert "discard 6♠: deadwood 9" in out and "discard 5♠: deadwood 10" in out
    code, body = run_json(capsys, "knock", *KNOCK11.split())
    assert [(o["discard"], o["deadwood_points"]) for o in body["options"]] == [("6S", 9), ("5S", 10)]


def test_knock_limits(capsys: pytest.CaptureFixture[str]) -> None:
    # Oklahoma upcard 4D: the limit is 4, the least deadwood 9
    code, body = run_json(capsys, "knock", KNOCK11, "--upcard", "4D")
    assert (code, body["knock_limit"], body["can_knock"]) == (0, 4, False)
    assert "none: the least deadwood is 9" in run(capsys, "knock", KNOCK11, "--upcard", "4D")[1]
    code, body = run_json(capsys, "knock", KNOCK11, "--knock-limit", "9")
    assert [o["discard"] for o in body["options"]] == ["6S"]
    error = error_of(capsys, "knock", KNOCK11, "--upcard", "4D", "--knock-limit", "5")
    assert error["type"] == "conflicting_knock_limit"
    error = error_of(capsys, "knock", "AS 2S")
    assert (error["type"], error["loc"]) == ("wrong_hand_size", ["hand"])


def test_score(capsys: pytest.CaptureFixture[str]) -> None:
    # knocker keeps 6H back (3H-5H, 2C-6C; deadwood 6H 4D = 10) so the defender
    # cannot lay 7H off; defender: 8D-10D, deadwood 3+4+7+10+7+9+6 = 46; 46 - 10 = 36
    argv = ("score", "--knocker", KNOCKER, "--defender", *DEFENDER.split())
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "outcome         knock: the knocker scores 36" in out
    assert "deadwood 6♥ 4♦ (10)" in out and "(46)" in out
    code, body = run_json(capsys, *argv)
    assert (body["outcome"], body["winner"], body["points"]) == ("knock", "knocker", 36)
    assert body["knocker"]["deadwood"] == ["6H", "4D"]
    error = error_of(capsys, "score", "--knocker", "", "--defender", DEFENDER)
    assert (error["type"], error["loc"]) == ("wrong_hand_size", ["knocker"])
    error = error_of(capsys, "score", "--knocker", KNOCKER)
    assert (error["type"], error["loc"]) == ("missing", ["defender"])


# ---------------------------------------------------------------------------
# hints


def test_hint_discard(capsys: pytest.CaptureFixture[str]) -> None:
    # throwing KH or QD keeps A-3S, three 7s, 8-10C with 10 in hand
    hand = "AS 2S 3S 7H 7D 7C 8C 9C TC KH QD"
    code, out, _ = run(capsys, "hint", "discard", hand)
    assert code == 0
    assert "1     K♥ Q♦   10  declarable" in out and "best: K♥" in out
    code, body = run_json(capsys, "hint", "discard", hand)
    assert body["groups"][0] == ["KH", "QD"] and body["options"][0]["value"] == 10


def test_hint_draw(capsys: pytest.CaptureFixture[str]) -> None:
    # taking 4S: A-4S and the 7s, throw QH, keep 9 + 10 + 4 = 23; 52 - 10 - 1 - 1 = 40 unseen
    argv = ("hint", "draw", GIN, "--top", "4S", "--seen", "9H")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "take 4♠         23" in out and "recommendation  take the discard" in out
    assert "29.500 on average (59/2) over 40 unseen card(s)" in out
    code, body = run_json(capsys, *argv)
    assert (body["take"]["value"], body["blind"]["expected_exact"], body["blind"]["unseen"]) == (
        23, "59/2", 40)
    assert body["recommendation"] == "take_discard"


def test_hint_needs_a_kind(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "hint")
    assert (code, out) == (2, "") and "choose a hint" in err and "discard" in err
    assert error_of(capsys, "hint", "draw", GIN)["loc"] == ["discard_top"]
    error = error_of(capsys, "hint", "guess", GIN)
    assert error["type"] == "invalid_choice" and "'discard', 'draw'" in error["msg"]


# ---------------------------------------------------------------------------
# layoffs and pile


def test_layoffs(capsys: pytest.CaptureFixture[str]) -> None:
    # lay off 4H 8H 9H (21) and JK=JC QC (15 + 10) = 46, keep 2D 8C (10): net 36
    argv = ("layoffs", "--variant", "rummy500", "8H 9H 4H JK 8C QC 2D", "--table", "5H 6H 7H",
            "--table", "7S", "7D", "7C", "--table", "JK 9C TC")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "#2  run  JK=8♣ 9♣ 10♣  34 pts" in out
    assert "lay off JK=J♣ Q♣ onto #2" in out and "9♥ -> #0 high via 8♥" in out
    assert "net 36 = melded 0 + laid off 46 - deadwood 10" in out
    code, body = run_json(capsys, *argv)
    assert (body["value"], body["better"], body["optimal"]) == (36, "higher", True)
    error = error_of(capsys, "layoffs", "AS 2S", "--table", "5H 6H ZZ")
    assert (error["type"], error["loc"]) == ("invalid_card", ["table", 0, 2])


def test_pile(capsys: pytest.CaptureFixture[str]) -> None:
    # depth 3 takes 8D: 8S 8D 8C (24) + layoff 4H 8H 9H (21) - 2D QD (12) = 33;
    # depth 4 must use 3C, which melds with nothing
    argv = ("pile", "8H 9H 4H 2D 8C", "--table", "5H 6H 7H", "--pile", "KS 3C 8D 8S QD")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert " 3  take Q♦ 8♠ 8♦: net 33, melds or lays off 8♦  <- best" in out
    assert " 4  take Q♦ 8♠ 8♦ 3♣: illegal" in out
    code, body = run_json(capsys, *argv)
    assert body["best_depth"] == 3
    assert [d["legal"] for d in body["depths"]] == [True, True, True, False, False]
    error = error_of(capsys, "pile", "8H 9H", "--pile", "KS", "--variant", "gin")
    assert (error["type"], error["loc"]) == ("invalid_rules", ["variant"])
    assert error_of(capsys, "pile", "8H 9H")["loc"] == ["discard_pile"]
    # rommy: 2C's only use breaks both joker sets, so leaving it unused pays more
    code, out, _ = run(capsys, "pile", "KS KH QD QS JK JK", "--pile", "2C 9D", "--variant", "rommy")
    assert (" 2  take 9♦ 2♣: net 30: 2♣ is left unused (every use of it nets less), the pile "
            "penalty 50 is paid") in out


# ---------------------------------------------------------------------------
# round


def test_round_indian13(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("round", "--variant", "indian13", "--wild-rank", "7",
            "--player", "3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C",
            "--player", "2S 4S 6S 8S TS QS 2H 4H 6H 8H TH QH KD", "--player", "",
            "--went-out", "0", "--dropped", "2=first")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "points          +90 -80 -10" in out and "JK=10♣" in out
    assert "count 90, capped at 80: pays 80" in out
    code, body = run_json(capsys, *argv)
    assert (body["winner"], body["points"]) == (0, [90, -80, -10])


def test_round_basic_and_json_players(capsys: pytest.CaptureFixture[str]) -> None:
    # basic: the winner collects KD QH 4C = 24
    code, body = run_json(capsys, "round", "--variant", "basic", "--player", "",
                          "--player", "KD QH 4C", "--went-out", "0")
    assert (code, body["points"]) == (0, [24, 0])
    # rummy500: A-2-3 (1 + 2 + 3) = 6; 21 melded - 20 in hand = 1
    flags = run_json(capsys, "round", "--variant", "rummy500", "--player", "", "--player", "KD QH",
                     "--melded", "0=AS 2S 3S", "--melded", "1=7H 7D 7C", "--went-out", "0")
    players = json.dumps([{"hand": "", "melded": [["AS", "2S", "3S"]], "went_out": True},
                          {"hand": "KD QH", "melded": [["7H", "7D", "7C"]]}])
    from_json = run_json(capsys, "round", "--variant", "rummy500", "--players", players)
    assert flags == from_json and flags[1]["points"] == [6, 1]


@pytest.mark.parametrize(("argv", "kind", "loc"), [
    (("--player", "AS", "--player", "KD", "--went-out", "5"), "invalid_player_option", ["went_out"]),
    (("--player", "AS", "--player", "KD", "--dropped", "1"), "invalid_player_option", ["dropped"]),
    (("--player", "AS", "--player", "KD", "--rummy"), "missing_argument", ["rummy"]),
    (("--players", "[{}]", "--player", "KD"), "conflicting_arguments", ["players"]),
    (("--players", '[{"hand": "AS", "went_out": 1}, {}]'), "bool_type", ["players", 0, "went_out"]),
    (("--players", '[{"cards": "AS"}, {}]'), "extra_forbidden", ["players", 0, "cards"]),
    (("--players", "{"), "json_invalid", ["players"]),
    ((), "missing_argument", ["player"]),
    (("--player", "AS ZZ", "--player", "KD", "--went-out", "0"), "invalid_card",
     ["players", 0, "hand", 1]),
    (("--player", "AS", "--player", "KD", "--went-out", "0", "--melded", "1=7H XX"), "invalid_card",
     ["players", 1, "melded", 0, 1]),
])
def test_round_errors(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], kind: str,
                      loc: list[object]) -> None:
    error = error_of(capsys, "round", "--variant", "basic", *argv)
    assert (error["type"], error["loc"]) == (kind, loc), error


@pytest.mark.parametrize(("value", "kind", "loc"), [
    ("-1", "greater_than_equal", ["players", 1, "pile_penalties"]),
    ("\N{SUPERSCRIPT TWO}", "int_type", ["players", 1, "pile_penalties"]),
    ("9" * 5000, "invalid_value", ["pile_penalties"]),
])
def test_round_pile_penalties_read_as_an_integer_option(
        capsys: pytest.CaptureFixture[str], value: str, kind: str, loc: list[object]) -> None:
    """--pile-penalties 1=N read N by str.isdigit: "-1" went on as text
    (int_type, where the endpoint says greater_than_equal for -1), "²" ended in a
    ValueError traceback and 5,000 digits in internal_error, exit 1 (audit of the
    front doors). It is read as every integer option is (whole_number)."""
    argv = ("round", "--variant", "rommy", "--player", "", "--player", "KD", "--went-out", "0",
            "--pile-penalties", f"1={value}")
    error = error_of(capsys, *argv)
    assert (error["type"], error["loc"]) == (kind, loc), error
    assert run(capsys, *argv)[0] == 2


def test_round_gin_points_to_score(capsys: pytest.CaptureFixture[str]) -> None:
    error = error_of(capsys, "round", "--variant", "gin", "--player", "AS", "--player", "KD")
    assert error["loc"] == ["variant"] and "gin_score" in error["msg"]


# ---------------------------------------------------------------------------
# serve and bulk


@pytest.mark.parametrize(("argv", "loc"), [
    (("--workers", "0"), "workers"), (("--workers", "many"), "workers"),
    (("--port", "70000"), "port"), (("--port", "-1"), "port"),
    (("--workers", str(4 * available_cpus() + 1)), "workers"),
])
def test_serve_rejects_bad_numbers(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                   loc: str) -> None:
    code, out, err = run(capsys, "serve", *argv)
    assert (code, out) == (2, "") and f"argument --{loc}" in err
    assert error_of(capsys, "serve", *argv)["loc"] == [loc]


def test_serve_delegates(capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def fake_serve(host: str, port: int, workers: int, log_level: str) -> int:
        calls.append((host, port, workers, log_level))
        return 0

    monkeypatch.setattr(importlib.import_module("api.server.serve"), "serve", fake_serve)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0", "--workers", "3",
                 "--log-level", "debug"]) == 0
    assert main(["serve"]) == 0
    assert calls == [("0.0.0.0", 0, 3, "debug"), ("127.0.0.1", 8000, available_cpus(), "info")]


def test_serve_reports_an_address_it_cannot_listen_on(capsys: pytest.CaptureFixture[str]) -> None:
    """A port in use, or a host that does not resolve, was printed as "error:
    cannot listen ..." in words of its own (no JSON with --json) and exited 1,
    "not the input's fault", where exit_codes.py gives 2 to a run that could not
    start (audit of the command line)."""
    def logging_state() -> tuple[object, ...]:
        loggers = logging.root.manager.loggerDict.items()
        return (tuple(logging.getLogger().handlers), logging.getLogger().level,
                sorted(name for name, lg in loggers
                       if isinstance(lg, logging.Logger) and lg.disabled),
                dict(os.environ))

    before = logging_state()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        code, out, err = run(capsys, "serve", "--port", port, "--workers", "1")
        assert (code, out) == (2, "")
        assert err.startswith("rummy-solver: error: cannot listen on 127.0.0.1:") and "at port" in err
        error = error_of(capsys, "serve", "--port", port, "--workers", "1")
        assert (error["type"], error["loc"]) == ("invalid_value", ["port"])
    error = error_of(capsys, "serve", "--host", "no such host!", "--port", "0", "--workers", "1")
    assert (error["type"], error["loc"]) == ("invalid_value", ["host"])
    # a run that could not start leaves the process as it found it: uvicorn's
    # logging set up before the bind disabled the service's loggers for the
    # tests after it (their captured stream closed)
    assert logging_state() == before


@pytest.mark.parametrize(("argv", "kind", "loc"), [
    (("--processes", "0"), "invalid_value", "processes"),
    (("--processes", "-2"), "invalid_value", "processes"),
    (("--processes", "2", "--ray"), "conflicting_arguments", "ray"),
    (("--ray=auto", "--processes", "2"), "conflicting_arguments", "processes"),
])
def test_bulk_rejects_bad_worker_options(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         argv: tuple[str, ...], kind: str, loc: str) -> None:
    """``--processes 0`` was refused only once the run began, in words of its own
    (no JSON error with ``--json``), and ``--processes`` beside ``--ray`` was
    ignored, though its help says "not with --ray" (audit of the command line)."""
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"variant": "gin", "hand": GIN}) + "\n")
    code, out, err = run(capsys, "bulk", str(source), *argv)
    assert (code, out) == (2, "") and f"argument --{loc}" in err
    error = _bulk_error(capsys, str(source), *argv)
    assert (error["type"], error["loc"]) == (kind, [loc])


def test_bulk(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"variant": "gin", "hand": GIN}) + "\n")
    target = tmp_path / "out.jsonl"
    code, _, _ = run(capsys, "bulk", str(source), "-o", str(target), "--processes", "1", "--quiet")
    assert code == 0
    (line,) = target.read_text().splitlines()
    assert json.loads(line)["result"]["deadwood_points"] == 33


# ---------------------------------------------------------------------------
# Rendering


def test_card_rendering_round_trips() -> None:
    from solver.cards import parse_card

    for card in range(53):
        assert parse_card(format_card(card)) == card
    assert format_played([52, 22], [20, 22]) == "JK=8♥ 10♥"  # 8H = 13 + 7


def test_ascii_terminal_gets_suit_letters() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    cli.write("9♦=6♠ 10♥", stream)
    stream.flush()
    assert raw.getvalue() == b"9D=6S 10H\n"


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["solve"], ["validate"], ["knock"], ["score"], ["hint"], ["hint", "discard"],
                    ["hint", "draw"], ["layoffs"], ["pile"], ["round"], ["serve"], ["bulk"], []):
        with pytest.raises(SystemExit) as exit_info:
            main([*command, "--help"])
        assert exit_info.value.code == 0
        assert "usage: rummy-solver" in capsys.readouterr().out


def test_every_example_in_the_help_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """What ``--help`` shows a user to type works as shown (exit 0, a report)."""
    import shlex

    from api.shared.operations import OPERATIONS

    examples = [line for op in OPERATIONS.values() if op.cli is not None
                for line in op.cli.examples]
    assert len(examples) > 10
    for line in examples:
        words = shlex.split(line)
        assert words[0] == "rummy-solver", line
        if words[1] in ("serve", "bulk"):
            continue  # a server, and files: tested on their own
        assert main(words[1:]) == 0, line
        assert capsys.readouterr().out.strip(), line


# ---------------------------------------------------------------------------
# Processes: python -m solver and the console script's entry point


def _process(*argv: str) -> subprocess.CompletedProcess[str]:
    # The worktree first: an installed copy of the package may live elsewhere.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=False, timeout=60)


def test_serve_reports_a_key_file_it_cannot_read(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A key file serve cannot read was printed in words of its own, even with
    --json (audit of the command line)."""
    monkeypatch.setenv("RUMMY_SOLVER_API_KEYS_FILE", str(tmp_path / "missing"))
    done = _process("-m", "api", "serve", "--port", "0", "--workers", "1", "--json")
    assert done.returncode == 2, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["type"] == "invalid_setting" and "cannot read the key file" in error["msg"]


def test_python_dash_m_api() -> None:
    done = _process("-m", "api", "solve", "--variant", "gin", GIN, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["deadwood_points"] == 33
    done = _process("-m", "api", "solve", "AS", "ZZ", "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["loc"] == ["hand", 1]


@pytest.mark.parametrize("argv", [("solve", GIN), ("solve", "AS", "ZZ")])
def test_a_reader_that_went_away_stops_it_quietly(argv: tuple[str, ...]) -> None:
    """``rummy-solver ... | head``: the reader gone while an error was printed
    (not an answer) ended in two BrokenPipeError tracebacks on stderr (audit of
    the front doors); an answer or an error, it stops quietly, exit 1."""
    read, written = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
        done = subprocess.run([sys.executable, "-m", "api", *argv, "--json"], cwd=ROOT, env=env,
                              stdout=written, stderr=subprocess.PIPE, text=True, timeout=60,
                              check=False)
    finally:
        os.close(written)
    assert (done.returncode, done.stderr) == (1, "")


def test_console_script_entry_point() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["rummy-solver"] == "api.cli:main"
    # what the generated rummy-solver script runs
    done = _process("-c", "import sys; from api.cli import main; sys.exit(main())",
                    "solve", "--variant", "gin", "--log-level", "x")
    assert done.returncode == 2 and "unrecognized arguments" in done.stderr
    done = _process("-c", "import sys; from api.cli import main; sys.exit(main())",
                    "solve", "--variant", "indian13", "--wild-rank", "9", INDIAN)
    assert done.returncode == 0 and "declarable      yes" in done.stdout


def test_card_option_locs_use_the_library_field_names(capsys: pytest.CaptureFixture[str]) -> None:
    # --top / --pile are the library's discard_top / discard_pile, in errors from either side
    error = error_of(capsys, "hint", "draw", GIN, "--top", "ZZ")
    assert (error["type"], error["loc"]) == ("invalid_card", ["discard_top"])
    error = error_of(capsys, "pile", "8H 9H", "--pile", "KS ZZ")
    assert (error["type"], error["loc"]) == ("invalid_card", ["discard_pile", 1])
    error = error_of(capsys, "pile", "8H 9H", "--pile", "")
    assert (error["type"], error["loc"]) == ("empty_pile", ["discard_pile"])
    assert run_json(capsys, "hint", "draw", GIN, "--discard-top", "4S")[1]["take"]["value"] == 23


def test_review_help_names_player_ids_and_keeps_bracketed_clauses(
        capsys: pytest.CaptureFixture[str]) -> None:
    """An option's help is its field's description to the first ``;`` outside
    brackets (it was cut inside them: "(default: the last seat"), and a
    record's player ids are not cards (audit 5)."""
    with pytest.raises(SystemExit):
        main(["review", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--players ID [ID ...]" in text
    assert "the dealer's seat (default: the last seat; the seat after it plays first)" in text


@pytest.mark.parametrize(("command", "bounds"), [
    (["solve"], ("at most 2000", "default 1000")),
    (["advise"], ("default and most 5000",)),
    (["review"], ("default and most 5000",)),
])
def test_time_limit_help_gives_its_bounds(capsys: pytest.CaptureFixture[str],
                                          command: list[str], bounds: tuple[str, ...]) -> None:
    """``--time-limit-ms``'s help is its description to the first ``;``
    outside brackets, which cut off the most and the default (audit: "the
    solve's deadline in ms, counted from the request's arrival" and no more)."""
    with pytest.raises(SystemExit):
        main([command[0], "--help"])
    text = " ".join(capsys.readouterr().out.split())
    said = text[text.rindex("--time-limit-ms N"):]
    for bound in bounds:
        assert bound in said[:260], said[:260]


def _bulk_error(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """The ``{"type", "loc", "msg"}`` that ``bulk ... --json`` ends its run with:
    exit 2, one JSON line on stderr, nothing on stdout (which carries the answers)."""
    code, out, err = run(capsys, "bulk", *argv, "--json")
    assert (code, out) == (2, ""), err
    (line,) = err.splitlines()
    body = json.loads(line)
    assert set(body) == {"error", "errors"} and body["errors"] == [body["error"]]
    assert set(body["error"]) == {"type", "msg", "loc"}
    error: dict[str, Any] = body["error"]
    return error


def test_bulk_json_prints_run_errors_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``bulk --json`` printed a missing input, an unwritable ``-o`` and a Ray that
    would not start as plain ``error: ...``, though ``--json`` prints errors as
    JSON (audit of the command line)."""
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"variant": "gin", "hand": GIN}) + "\n")
    missing = _bulk_error(capsys, str(tmp_path / "missing.jsonl"))
    assert (missing["type"], missing["loc"]) == ("invalid_value", ["input"])
    assert "missing.jsonl" in missing["msg"] and "No such file" in missing["msg"]
    unwritable = _bulk_error(capsys, str(source), "-o", str(tmp_path / "no" / "out.jsonl"),
                             "--processes", "1")
    assert (unwritable["type"], unwritable["loc"]) == ("invalid_value", ["output"])
    same = _bulk_error(capsys, str(source), "-o", str(source), "--processes", "1")
    assert (same["type"], same["loc"]) == ("conflicting_arguments", ["output"])

    def no_ray(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("could not connect to ray://nowhere:10001")

    monkeypatch.setattr(importlib.import_module("api.bulk.on_ray"), "run_lines_ray", no_ray)
    ray = _bulk_error(capsys, str(source), "--ray=ray://nowhere:10001")
    assert (ray["type"], ray["loc"]) == ("invalid_value", ["ray"]) and "nowhere" in ray["msg"]
    code, out, err = run(capsys, "bulk", str(tmp_path / "missing.jsonl"))
    assert (code, out) == (2, "") and err.startswith("error: cannot read ")


@pytest.mark.parametrize(("argv", "kind", "loc"), [
    (("--op", "deal"), "invalid_value", ["op"]),
    (("--processes", "0"), "invalid_value", ["processes"]),
    (("--no-such-option",), "unrecognized_arguments", []),
])
def test_bulk_json_prints_argument_errors_on_stderr_as_its_run_errors(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...], kind: str,
        loc: list[str]) -> None:
    """``bulk --json`` printed an argument error (``--op deal``, ``--processes 0``)
    to stdout, indented over several lines, while an error that ends its run goes
    to stderr as one line: with stdout redirected to the answers file, the error
    landed among the answers.  Now both go to stderr, one line each."""
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"variant": "gin", "hand": GIN}) + "\n")
    error = _bulk_error(capsys, str(source), *argv)
    assert (error["type"], error["loc"]) == (kind, loc)


def test_bulk_json_prints_a_bad_setting_on_stderr(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A setting bulk cannot run with ends its run before it starts: on stderr too."""
    monkeypatch.setenv("RUMMY_SOLVER_MAX_BATCH", "lots")
    current.cache_clear()  # read again (a failed read is not kept)
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"variant": "gin", "hand": GIN}) + "\n")
    error = _bulk_error(capsys, str(source), "--processes", "1")
    assert error["type"] == "invalid_setting" and "RUMMY_SOLVER_MAX_BATCH" in error["msg"]
    code, body = run_json(capsys, "solve", "--variant", "gin", GIN)
    assert code == 2 and body["error"]["type"] == "invalid_setting"  # others: on stdout


def test_bulk_refuses_more_processes_than_4_per_cpu(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    """``bulk --processes 500`` started 500 solver processes (audit of the command
    line): past 4 per CPU this process may use it is refused before anything runs."""
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"variant": "gin", "hand": GIN}) + "\n")
    most = 4 * available_cpus()
    error = _bulk_error(capsys, str(source), "--processes", str(most + 1))
    assert (error["type"], error["loc"]) == ("invalid_value", ["processes"])
    assert f"from 1 to {most} (4 per CPU" in error["msg"]
    code, _, _ = run(capsys, "bulk", str(source), "--processes", str(most), "--quiet",
                     "-o", str(tmp_path / "out.jsonl"))
    assert code == 0
    with pytest.raises(SystemExit):
        main(["bulk", "--help"])
    assert f"to {most} (4 per CPU" in " ".join(capsys.readouterr().out.split())



def test_bulk_that_fails_midway_exits_2_not_the_code_of_error_lines(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure of bulk itself midway (a bug, a pool that would not stop) ended
    with exit 1, the code of a run done with some error lines, so a script took
    the answers cut short for a whole run; under --json its error went to stdout
    among the answers (audit of the command line)."""
    from api.bulk import command
    from api.shared.lines import Answered

    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"variant": "gin", "hand": GIN}) + "\n")

    def breaking(*args: Any) -> Any:
        yield Answered('{"id": null, "result": {}}', True)
        raise RuntimeError("the pool did not stop")

    monkeypatch.setattr(command, "_answers", breaking)
    code, out, err = run(capsys, "bulk", str(source), "--json")
    assert code == 2 and out == '{"id": null, "result": {}}\n'
    (line,) = err.splitlines()
    failure = {"type": "internal_error", "loc": [], "msg": "RuntimeError: the pool did not stop"}
    assert json.loads(line) == {"error": failure, "errors": [failure]}
    code, out, err = run(capsys, "bulk", str(source))
    assert code == 2 and "RuntimeError: the pool did not stop" in err


def test_json_option_not_utf8(capsys: pytest.CaptureFixture[str]) -> None:
    """A JSON option of bytes that are not UTF-8 (the shell passes them; Python
    keeps them as U+DC80..U+DCFF) was "not valid JSON: Expecting value", where
    README gives such an option body_not_utf8 (audit of the command line)."""
    error = error_of(capsys, "solve", "--rules", '{"x\udcff": 1}', "AS")
    assert (error["type"], error["loc"]) == ("body_not_utf8", ["rules"])
    assert error["msg"] == "--rules is not UTF-8: byte 3 cannot be decoded"
