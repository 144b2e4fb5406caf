"""benchmarks/README.md is what ``python -m benchmarks.reference`` writes from
``benchmarks/results/``, a reference of at most 300 lines; the result files
are well formed and each is shown; ``--record`` keeps a command's JSON with
where it ran."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchmarks import reference
from benchmarks.reference import README_PATH, RESULTS_DIR, SECTIONS, load_results, stale_diff

README_LINES = 420
"""The held-out tables of issue 36 (a panel per game family) are about a hundred generated lines."""


def test_readme_is_what_the_generator_writes() -> None:
    diff = stale_diff()
    if diff:
        raise AssertionError(
            f"benchmarks/README.md is stale: run `{reference.REGENERATE}` and commit the result\n"
            + "".join(diff.splitlines(keepends=True)[:40]))


def test_readme_is_a_reference_not_a_notebook() -> None:
    lines = README_PATH.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_LINES, f"benchmarks/README.md has {len(lines)} lines (at most {README_LINES})"


def test_every_section_is_generated_once() -> None:
    text = README_PATH.read_text(encoding="utf-8")
    for name in SECTIONS:
        assert text.count(f"<!-- reference:{name} -->") == 1, name
        assert text.count(f"<!-- /reference:{name} -->") == 1, name


def test_every_result_file_is_well_formed_and_shown() -> None:
    text = README_PATH.read_text(encoding="utf-8")
    results = load_results()
    assert results, "benchmarks/results/ holds no result file"
    for result in results:
        assert f"(results/{result['name']}.json)" in text, f"{result['name']}.json is not shown in the README"
        if result["source"] == "notebook":
            assert result["commit"], result["name"]


def test_a_malformed_result_file_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text(json.dumps({"name": "broken", "kind": "speed"}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.json: missing command"):
        load_results(tmp_path)


def test_a_stale_section_is_caught(tmp_path: Path) -> None:
    stale = tmp_path / "README.md"
    stale.write_text(README_PATH.read_text(encoding="utf-8").replace(
        "<!-- /reference:speed -->", "a figure typed by hand\n<!-- /reference:speed -->"), encoding="utf-8")
    assert "a figure typed by hand" in stale_diff(stale, RESULTS_DIR)


def test_notebook_rows_and_tuning_deals_are_marked() -> None:
    gin = [r for r in load_results() if r["kind"] == "arena_gin"]
    rows = "\n".join(reference.arena_gin_section(gin))
    assert "(notebook)" in rows
    assert any(r.get("tuning_deals") and r["tuning_deals"] in rows for r in gin)


@pytest.mark.parametrize(("command", "kind"), [
    ("python -m benchmarks --n 100 --json {json}", "speed"),
    ("python -m benchmarks --arena --a advisor --b eaai_simple --hands 20", "arena_gin"),
    ("python -m benchmarks --arena --game rommy --deals 5", "arena_rotated"),
    ("python -m benchmarks --advise-load --game indian13", "advise_load"),
    ("python -m benchmarks.service.goodput --seconds 8", "goodput"),
    ("python -m benchmarks.speed.bulk --n 12000 --no-ray --repeat 7", "bulk"),
    ("python -m benchmarks.speed.bulk --log reviews --n 2000", "review"),
    ("python -m benchmarks --ladder gin --hands 100", "ladder"),
    ("python -m benchmarks.speed.review --game gin --hands 1000", "review"),
    ("python -m benchmarks.speed.review_ordering games.jsonl", "review"),
])
def test_kind_of_a_command(command: str, kind: str) -> None:
    assert reference.kind_of(command.split()) == kind


def test_record_keeps_the_json_with_where_it_ran(tmp_path: Path) -> None:
    writer = "import json, sys; json.dump({'suites': [], 'correct': True}, open(sys.argv[1], 'w'))"
    path = reference.record("tiny", [sys.executable, "-c", writer, "{json}"], tmp_path)
    result = json.loads(path.read_text(encoding="utf-8"))
    assert path == tmp_path / "tiny.json"
    assert result["data"] == {"suites": [], "correct": True}
    assert result["source"] == "run" and result["kind"] == "speed"
    assert result["command"].endswith(" {json}")
    assert result["cores"] >= 1 and result["commit"] and result["date"].endswith("UTC")


def test_record_from_an_earlier_run_keeps_its_json_without_running(tmp_path: Path) -> None:
    earlier = tmp_path / "earlier.json"
    earlier.write_text(json.dumps({"game": "gin", "hands": 3}), encoding="utf-8")
    command = ["python", "-m", "benchmarks.speed.review", "--game", "gin", "--json", "{json}"]
    path = reference.record("luck", command, tmp_path, existing=earlier)
    result = json.loads(path.read_text(encoding="utf-8"))
    assert result["data"] == {"game": "gin", "hands": 3} and result["kind"] == "review"
    assert "run before it was recorded" in result["host"]


def test_the_review_section_has_a_line_per_ladder_and_review_result() -> None:
    rung = {"player": "advisor", "rating": 800.0, "points_rating": 60.0,
            "step": {"distinct": True, "points_distinct": True}}
    last = {"player": "random", "rating": 0.0, "points_rating": 0.0, "step": None}
    ladder = {"name": "ladder-x", "kind": "ladder", "command": "python -m benchmarks --ladder gin",
              "commit": "abc", "date": "2026-12-05 02:00 UTC", "cores": 2, "source": "run",
              "data": {"game": "gin", "ladder": {"anchor": "random", "rungs": [rung, last]}}}
    ordering = {**ladder, "name": "ordering-x", "kind": "review",
                "data": {"games": {"gin": {"order_by_points": ["a", "b"], "pearson": -0.95,
                                           "spearman": -0.9, "pairs_alike": 1, "pairs": 1}}}}
    lines = reference.review_section([ladder, ordering])
    assert len(lines) == 2
    assert "`advisor` +800 > `random` +0; distinct steps: 1 of 1 on points, 1 on the Elo" in lines[0]
    assert "r = -0.95" in lines[1] and "1 of 1 pairs ordered alike" in lines[1]
