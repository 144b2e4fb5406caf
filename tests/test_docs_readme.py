"""The README's command line and REST API sections say what the code does:
the REST table lists every route of the app and nothing else, the command
line's summary every command, and every example's answer shown (a curl
request's shortened JSON, the advisor's command line) is what the service
answers today.

Shortened answers are pieces of the real one cut at ``...``: each piece must
appear, in order, in the answer's compact JSON (or the command's output).
An advice example's figures hold when its search completed; on a machine too
busy for that within the request's deadline the example is skipped.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from api.cli import main
from api.cli.commands import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ATTEMPTS = 3
"""Tries of an advice example before calling the machine too busy."""


def _section(heading: str) -> str:
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match is not None, f"README has no ## {heading}"
    return match.group(1)


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.M | re.S)


def _in_order(pieces: list[str], whole: str) -> list[str]:
    """The pieces not found in ``whole`` in this order (empty: all found)."""
    missing, at = [], 0
    for piece in pieces:
        found = whole.find(piece, at)
        if found < 0:
            missing.append(piece)
        else:
            at = found + len(piece)
    return missing


# ---------------------------------------------------------------------------
# The REST table


def _table_routes() -> set[tuple[str, str]]:
    rows = re.findall(r"^\| (`[A-Z]+ /.*?) \| .* \|$", _section("REST API"), re.M)
    return {(method, path) for row in rows for method, path in re.findall(r"`([A-Z]+) (/[^`]*)`", row)}


def test_the_rest_table_lists_every_operation_and_only_routes(inline_client: Any) -> None:
    """Every operation of the schema is in the table; every other row is a page the app
    serves (/, /docs, /play ...: outside the schema)."""
    table = _table_routes()
    schema = {(method.upper(), path)
              for path, operations in inline_client.get("/openapi.json").json()["paths"].items()
              for method in operations}
    assert ("POST", "/v1/advise") in table
    assert not schema - table, f"operations missing from the README's REST table: {sorted(schema - table)}"
    for method, path in sorted(table - schema):
        assert method == "GET", f"the README's REST table lists {method} {path}, not an operation"
        assert inline_client.get(path).status_code == 200, f"the README lists GET {path}: no such page"


# ---------------------------------------------------------------------------
# The command line


def _commands(parser: argparse.ArgumentParser) -> dict[str, set[str]]:
    """Each command and its own sub-commands (``hint``: discard, draw)."""
    commands: dict[str, set[str]] = {}
    for action in parser._actions:  # argparse keeps its sub-parsers there
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                commands[name] = set(_commands(sub))
    return commands


def test_the_command_summary_lists_every_command() -> None:
    (summary,) = [line for line in _blocks(_section("Command line"), "")[0].splitlines()
                  if line.startswith("rummy-solver ")]
    words = summary.removeprefix("rummy-solver ")
    listed = set(re.sub(r"\s*\([^)]*\)", "", words).split(" | "))
    nested = {m[0]: set(m[1].split(" | ")) for m in re.findall(r"(\w+) \(([^)]*)\)", words)}
    commands = _commands(build_parser())
    assert listed == set(commands), f"listed {sorted(listed)}, the parser has {sorted(commands)}"
    for name, subcommands in nested.items():
        assert subcommands == commands[name], name


def test_the_advise_command_prints_what_the_readme_shows(capsys: pytest.CaptureFixture[str]) -> None:
    section = _section("Command line")
    (command,) = [line for block in _blocks(section, "sh") for line in block.splitlines()
                  if line.startswith("rummy-solver advise ")]
    shown = next(block for block in _blocks(section, "") if block.startswith("game "))
    argv = shlex.split(command)[1:]
    for _ in range(ATTEMPTS):
        code = main(argv)
        out, err = capsys.readouterr()
        assert (code, err) == (0, "")
        if "(cut short by the deadline)" not in out:
            break
    else:
        pytest.skip("the advisor's search did not complete in time: the machine is too busy")
    missing = _in_order([line for line in shown.splitlines() if line != "..."], out)
    assert not missing, f"rummy-solver advise printed\n{out}\nwithout {missing}"


# ---------------------------------------------------------------------------
# The curl examples


def _curl_examples() -> list[tuple[str, dict[str, Any], list[str]]]:
    """Each ``curl`` of the REST API section: its path, its body and the pieces of the
    answer shown in the comment lines after it."""
    examples = []
    for block in _blocks(_section("REST API"), "sh"):
        for match in re.finditer(r"^curl -s localhost:8000(\S+) [^\n]*\n\s+-d '([^']*)'\n((?:#[^\n]*\n)*)",
                                 block, re.M):
            path, body, comment = match.groups()
            shown = "".join(line.lstrip("#").strip() for line in comment.splitlines())
            pieces = [piece.strip() for piece in shown.split("...") if piece.strip()]
            examples.append((path, json.loads(body), pieces))
    return examples


EXAMPLES = _curl_examples()


def test_the_examples_are_found() -> None:
    paths = [path for path, _, _ in EXAMPLES]
    assert paths.count("/v1/advise") == 2 and "/v1/solve" in paths
    games = {body["game"] for path, body, _ in EXAMPLES if path == "/v1/advise"}
    assert games == {"gin", "indian13"}


@pytest.mark.parametrize(("path", "body", "pieces"), EXAMPLES,
                         ids=[f"{path}-{i}" for i, (path, _, _) in enumerate(EXAMPLES)])
def test_each_curl_example_answers_what_the_readme_shows(
        inline_client: Any, path: str, body: dict[str, Any], pieces: list[str]) -> None:
    for _ in range(ATTEMPTS):
        answer = inline_client.post(path, json=body)
        if path != "/v1/advise" or answer.json().get("complete"):
            break
    else:
        pytest.skip("the advisor's search did not complete in time: the machine is too busy")
    compact = json.dumps(answer.json(), separators=(",", ":"), ensure_ascii=False)
    missing = _in_order(pieces, compact)
    assert not missing, f"POST {path} answered {compact[:3000]}\nwithout {missing}"


# ---------------------------------------------------------------------------
# The playground's key-less calls

PAGE_CALL_WORDS = {
    "solve_hand": "solve", "hint_discard": "the discard and draw hints",
    "hint_draw": "the discard and draw hints", "gin_knock": "the gin checks (knock,",
    "hint_layoffs": " layoffs,", "gin_score": " score)", "advise": "advice",
    "validate_hand": "validate", "score_round": "round scores",
    "review_game": "the review of a recorded game", "solve_batch": "no batch",
    "hint_pile": "no pile hint", "review_openspiel": "no OpenSpiel review",
}
"""How the README's list of the pages' calls names each operation ("no ...":
one the pages do not call, so a key-less call of it gets 401)."""


def test_the_pages_calls_are_the_ones_listed() -> None:
    """README named "hints" and "the reviews" among the key-less calls of the
    pages, but the pile hint and the OpenSpiel review are not among them
    (``api/pages/calls.py``): such a call without a key gets 401."""
    from api.pages.calls import CALLS
    from api.shared.operations import OPERATIONS

    text = " ".join(README.split())
    start = text.index("(the list is `api/pages/calls.py`:")
    listed = text[start:text.index("review)", start) + len("review)")]
    called = {path for method, path in CALLS if method == "POST"}
    assert ("GET", "/v1/variants") in CALLS and "the variants" in listed
    assert "no stream" in listed
    for name, operation in OPERATIONS.items():
        words = PAGE_CALL_WORDS[name]
        assert words in listed, (name, words)
        assert (operation.path in called) == (not words.startswith("no ")), name


# ---------------------------------------------------------------------------
# bulk --summary

OPENSPIEL_GAME = [37, 12, 35, 23, 31, 3, 48, 38, 15, 46, 17, 22, 41, 16, 28, 40, 5, 24, 18, 13, 7,
                  54, 54, 53, 27, 31, 52, 41, 53, 25, 23, 52, 55, 17, 141, 84, 54, 54, 119, 54]
"""A short OpenSpiel gin game (``rummy-solver review-openspiel --help``'s example)."""


def test_bulk_summary_adds_the_review_lines_the_readme_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """README said that with another ``--op`` only the lines whose own ``"op"``
    is ``review_game`` are added up; ``review_openspiel`` lines are too."""
    from api.shared.operations import OPERATIONS

    reviews = sorted(name for name, operation in OPERATIONS.items()
                     if operation.response is OPERATIONS["review_game"].response)
    assert reviews == ["review_game", "review_openspiel"]
    text = " ".join(_section("Command line").split())
    sentence = text[text.index("with another `--op`, the lines whose own"):]
    sentence = sentence[:sentence.index("the others are left out")]
    assert all(f"`{name}`" in sentence for name in reviews), sentence
    source, summary = tmp_path / "log.jsonl", tmp_path / "players.json"
    source.write_text(json.dumps({"op": "review_openspiel", "history": OPENSPIEL_GAME,
                                  "players": ["ann", "bob"], "level": "novice"}) + "\n"
                      + json.dumps({"variant": "gin", "hand": "AS 2S 3S"}) + "\n", encoding="utf-8")
    assert main(["bulk", str(source), "-o", str(tmp_path / "out.jsonl"), "--processes", "1",
                 "--quiet", "--summary", str(summary)]) == 0, capsys.readouterr().err
    added = json.loads(summary.read_text(encoding="utf-8"))
    assert added["reviews"] == 1 and set(added["players"]) == {"ann", "bob"}


def test_the_bulk_names_still_read_are_every_alias() -> None:
    """The README's list of the older bulk names is the operations' aliases, each of which
    a line may still use (it left out ``layoffs``, ``pile`` and ``round``)."""
    from api.shared.operations import OPERATIONS

    match = re.search(r"the older names (.*?) still work", " ".join(README.split()))
    assert match is not None
    listed = set(re.findall(r"`([a-z_]+)`", match.group(1)))
    assert listed == {alias for op in OPERATIONS.values() for alias in op.aliases}
