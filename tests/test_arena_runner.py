"""Mirrored deals, matches to 100, reproducibility of a run for its seed,
and the report."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, ClassVar

import pytest

from benchmarks.arena.core.entrants import Entrant
from benchmarks.arena.gin.players import registry
from benchmarks.arena.gin.players.random_player import RandomPlayer
from benchmarks.arena.gin.protocol import Action, PlayerView
from benchmarks.arena.gin.runner import Arena, deck_for, run_arena, seed_for

TIMING = {"decision_median_ms", "decision_p99_ms"}


class _Spy(RandomPlayer):
    """A random player that remembers its seat and first hand in each hand."""

    seen: ClassVar[list[tuple[str, int, tuple[int, ...]]]] = []

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label
        self._first = True
        self._seat = 0

    def start_hand(self, seat: int, seed: int) -> None:
        super().start_hand(seat, seed)
        self._seat = seat
        self._first = True

    def act(self, view: PlayerView) -> Action:
        if self._first:
            _Spy.seen.append((self.label, self._seat, view.hand))
            self._first = False
        return super().act(view)


@pytest.fixture
def spies(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, tuple[int, ...]]]:
    _Spy.seen = []
    entrants = dict(registry.ENTRANTS)
    entrants["spy_a"] = Entrant("spy_a", "", lambda context: _Spy("a"))
    entrants["spy_b"] = Entrant("spy_b", "", lambda context: _Spy("b"))
    monkeypatch.setattr(registry, "ENTRANTS", entrants)
    import benchmarks.arena.gin.runner as runner

    monkeypatch.setattr(runner, "ENTRANTS", entrants)
    return _Spy.seen


def test_decks_and_seeds_depend_on_seed_and_place_only() -> None:
    assert deck_for(5, "hand", 0) == deck_for(5, "hand", 0)
    assert sorted(deck_for(5, "hand", 0)) == list(range(52))
    assert deck_for(5, "hand", 0) != deck_for(5, "hand", 1) != deck_for(6, "hand", 1)
    assert seed_for(5, "hand", 0, "a") == seed_for(5, "hand", 0, "a") != seed_for(5, "hand", 0, "b")


def test_a_mirrored_pair_swaps_seats_on_the_same_deck(spies: list[tuple[str, int, tuple[int, ...]]]) -> None:
    arena = Arena("spy_a", "spy_b", seed=3, cross_check=False)
    pairs = arena.play_pairs(4)
    for pair in pairs:
        assert pair.games[0].deck == pair.games[1].deck == deck_for(3, "hand", pair.index)
    # both players act in every game: two sightings (label, seat, first hand) per game
    assert len(spies) == 2 * 2 * len(pairs)
    games = [{label: (seat, hand) for label, seat, hand in spies[i:i + 2]} for i in range(0, len(spies), 2)]
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first["a"][0] == 0 and second["a"][0] == 1
        assert first["a"][1] == second["b"][1]  # the seat-0 cards change hands
        assert first["b"][1] == second["a"][1]


def test_matches_are_mirrored_and_end_at_100() -> None:
    arena = Arena("eaai_simple", "random", seed=9, cross_check=False)
    first, second = arena.play_match(0, "a"), arena.play_match(0, "b")
    for match in (first, second):
        assert match.winner is not None and match.scores[match.winner] >= 100
        assert all(score < 100 for label, score in match.scores.items() if label != match.winner)
        seat0 = [label for label, _ in match.hands]
        assert seat0[::2] == [seat0[0]] * len(seat0[::2])  # the non-dealer alternates
    assert first.hands[0][0] == "a" and second.hands[0][0] == "b"
    shared = min(len(first.hands), len(second.hands))
    assert [r.deck for _, r in first.hands[:shared]] == [r.deck for _, r in second.hands[:shared]]


def _without_timing(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timing(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [_without_timing(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None  # NaN != NaN: an interval of one pair
    return value


def test_a_run_is_reproducible_for_its_seed() -> None:
    first = run_arena("eaai_simple", "marjj_style", hands=12, matches=2, seed=4, progress=None)
    again = run_arena("eaai_simple", "marjj_style", hands=12, matches=2, seed=4, progress=None)
    other = run_arena("eaai_simple", "marjj_style", hands=12, matches=2, seed=5, progress=None)
    assert _without_timing(first) == _without_timing(again)
    assert _without_timing(first) != _without_timing(other)
    assert first["violations"] == []
    assert first["hands"]["pairs"] == 6 and first["matches"]["matches"] == 2
    if first["cross_check"] is not None:
        assert first["cross_check"]["disagreements"] == 0


def test_workers_play_the_same_pairs_as_one_process() -> None:
    # 13 hand pairs: one full chunk of ten and a short one; the shadow's
    # tallies of both workers are summed into the report's
    alone = run_arena("eaai_simple", "marjj_style", hands=26, matches=2, seed=9, progress=None)
    shared = run_arena("eaai_simple", "marjj_style", hands=26, matches=2, seed=9, workers=2,
                       progress=None)
    assert shared["settings"].pop("workers") == 2
    assert alone["settings"].pop("workers") == 1
    assert _without_timing(shared) == _without_timing(alone)
    assert shared["hands"]["pairs"] == 13


def test_report_renders_markdown_and_json(tmp_path: Path) -> None:
    from benchmarks.arena.core.report import write_json
    from benchmarks.arena.gin.report import render

    results = run_arena("eaai_simple", "random", hands=4, matches=2, seed=1, progress=None)
    text = render(results)
    assert "points per hand for A" in text and "match win rate" in text and "| illegal moves" in text
    path = tmp_path / "arena.json"
    write_json(results, path)
    assert json.loads(path.read_text())["settings"]["a"] == "eaai_simple"
