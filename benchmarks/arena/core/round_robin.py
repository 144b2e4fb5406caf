"""The ladder's round robin: every pair of a lineup plays one arena run of
two players (``python -m benchmarks --ladder GAME``), and the runs' results
read as the ladder's ``Pairing``s (``benchmarks.arena.core.ladder``).

* **Deals**: every pairing plays the same deals, those of one seed (by
  default the first held-out seed, ``panels.HELD_OUT_SEEDS``), as every bot
  of a panel meets the same decks; the ladder's bootstrap resamples a
  deal's pairings together.
* **Units**: gin plays mirrored pairs of hands (a unit: the pair, its two
  hands each won, lost or tied on points); the other games play deals
  once per seat rotation, so at two players a unit is a deal and its two
  games, each won by the side with more points (equal: a tie).
* **Resuming**: with a run file, each finished pairing is written to it at
  once (JSON: the game, seed, size and each pairing's units); a run given
  the same file plays only the pairings it lacks.  A file of another game,
  seed or size is refused.
* The core plays no game: ``play(a, b)`` is the game's runner (the command
  line passes it) and ``units_of(result, a, b)`` reads its result
  (``gin_units`` or ``rotated_units``).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.arena.core.ladder import Pairing, Unit
from benchmarks.arena.core.panels import HELD_OUT_SEEDS

LINEUPS: dict[str, tuple[str, ...]] = {
    "gin": ("random", "greedy", "careful", "gin_hunter", "marjj_style", "eaai_simple",
            "openspiel_simple", "advisor_novice", "advisor", "advisor_expert"),
    "indian13": ("random", "greedy", "distance", "careful", "advisor_novice", "advisor",
                 "advisor_expert"),
    "rummy500": ("random", "greedy", "careful", "hoarder", "advisor_novice", "advisor",
                 "advisor_expert"),
}
LINEUPS["indian21"] = LINEUPS["indian13"]
LINEUPS["rommy"] = LINEUPS["basic"] = LINEUPS["rummy500"]
"""Each game's default lineup: the advisor's three levels and the registry's
bots of every style (gin: 10 players, 45 pairings; the others 7, 21)."""
SIZES = {"gin": 40, "indian13": 30, "indian21": 30, "rummy500": 12, "rommy": 12, "basic": 12}
"""Hands (gin, in mirrored pairs) or deals a pairing plays when not told:
modest, for the expert advisor (1 to 2 s a gin hand, up to 14 s a basic
rummy deal)."""
WORDS = {"gin": ("hands", "hand")}
"""What each game's chances count and its points are per (default: games, deal)."""
SEED = HELD_OUT_SEEDS.start
RUN_KIND = "ladder round robin"


def words_of(game: str) -> tuple[str, str]:
    """``(games_word, points_word)`` of ``game``: ``("hands", "hand")`` for gin."""
    return WORDS.get(game, ("games", "deal"))


def _outcome(a_points: float, b_points: float) -> tuple[int, int, int]:
    return (int(a_points > b_points), int(b_points > a_points), int(a_points == b_points))


def _unit(games: Sequence[tuple[float, float]]) -> Unit:
    wins = [_outcome(a, b) for a, b in games]
    return Unit(sum(w[0] for w in wins), sum(w[1] for w in wins), sum(w[2] for w in wins),
                float(sum(a for a, _ in games)), float(sum(b for _, b in games)))


def gin_units(result: dict[str, Any], a: str, b: str) -> tuple[Unit, ...]:
    """A gin run's mirrored pairs as units (A's points in each hand, B's
    their negation: a hand is won by the side that scores)."""
    del a, b  # the run's A and B are the pairing's
    hands = result.get("hands") or {}
    if "hand_points_a" not in hands:
        raise ValueError("the gin result has no hand_points_a (a run of single hands is needed)")
    return tuple(_unit([(float(p), -float(p)) for p in pair]) for pair in hands["hand_points_a"])


def rotated_units(result: dict[str, Any], a: str, b: str) -> tuple[Unit, ...]:
    """A two-player rotated run's deals as units (each game won by the side
    with more points)."""
    games = result.get("per_game")
    if not games or a not in games or b not in games:
        raise ValueError(f"the result has no per_game points of {a} and {b}")
    return tuple(_unit(list(zip(deal_a, deal_b, strict=True)))
                 for deal_a, deal_b in zip(games[a], games[b], strict=True))


def run_problems(result: dict[str, Any]) -> list[str]:
    """A run's illegal moves, wrong declarations and referee disagreements."""
    problems = [str(v) for v in result.get("violations", [])]
    if result.get("wrong_declarations"):
        problems.append(f"{result['wrong_declarations']} wrong declaration(s)")
    check = result.get("cross_check")
    if check and check.get("disagreements"):
        problems.append(f"{check['disagreements']} referee/OpenSpiel disagreement(s)")
    return problems


@dataclass(frozen=True, slots=True)
class Played:
    """One finished pairing: its units, its problems, its wall time."""

    pairing: Pairing
    problems: tuple[str, ...]
    wall_s: float

    def to_dict(self) -> dict[str, Any]:
        """The run file's entry."""
        return {"a": self.pairing.a, "b": self.pairing.b,
                "units": [[u.a_wins, u.b_wins, u.ties, u.a_points, u.b_points]
                          for u in self.pairing.units],
                "problems": list(self.problems), "wall_s": self.wall_s}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Played:
        """An entry of a run file."""
        units = tuple(Unit(int(won), int(lost), int(tied), float(pa), float(pb))
                      for won, lost, tied, pa, pb in data["units"])
        return Played(Pairing(data["a"], data["b"], units), tuple(data.get("problems", ())),
                      float(data.get("wall_s", 0.0)))


@dataclass(frozen=True, slots=True)
class RoundRobin:
    """Every pairing of a lineup, in lineup order."""

    game: str
    lineup: tuple[str, ...]
    seed: int
    size: int
    played: tuple[Played, ...]
    resumed: int
    """Pairings read from the run file instead of played."""

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        """The pairings' results."""
        return tuple(p.pairing for p in self.played)

    def problems(self) -> list[str]:
        """Every pairing's problems, named by the pairing."""
        return [f"{p.pairing.a} - {p.pairing.b}: {problem}" for p in self.played
                for problem in p.problems]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (the run file's shape)."""
        return {"kind": RUN_KIND, "game": self.game, "lineup": list(self.lineup),
                "seed": self.seed, "size": self.size, "resumed": self.resumed,
                "pairings": [p.to_dict() for p in self.played]}


def pairs_of(lineup: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of ``lineup``, in lineup order."""
    return [(a, b) for i, a in enumerate(lineup) for b in lineup[i + 1:]]


def read_run(path: Path, game: str, seed: int, size: int) -> dict[frozenset[str], Played]:
    """The finished pairings of run file ``path`` (none when it does not
    exist); ``ValueError`` when it was played with another game, seed or size."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("kind") != RUN_KIND:
        raise ValueError(f"{path} is not a ladder run file")
    for key, value in (("game", game), ("seed", seed), ("size", size)):
        if data.get(key) != value:
            raise ValueError(f"{path} was played with {key} {data.get(key)!r}, not {value!r}: "
                             "give its value or another file")
    found = (Played.from_dict(entry) for entry in data.get("pairings", []))
    return {frozenset((p.pairing.a, p.pairing.b)): p for p in found}


def _write_run(path: Path, game: str, seed: int, size: int, lineup: Sequence[str],
               done: dict[frozenset[str], Played]) -> None:
    """The run file, replaced whole (an interrupted write leaves the old one)."""
    data = {"kind": RUN_KIND, "game": game, "seed": seed, "size": size,
            "lineup": list(lineup), "pairings": [p.to_dict() for p in done.values()]}
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def run_round_robin(game: str, lineup: Sequence[str], *, size: int, seed: int = SEED,
                    play: Callable[[str, str], dict[str, Any]],
                    units_of: Callable[[dict[str, Any], str, str], tuple[Unit, ...]],
                    path: str | Path | None = None,
                    progress: Callable[[str], None] | None = None) -> RoundRobin:
    """Every pair of ``lineup`` played by ``play(a, b)`` (the game's runner on
    ``size`` hands or deals and ``seed``) and read by ``units_of``; with
    ``path``, finished pairings are read from and written to that run file."""
    if len(set(lineup)) != len(lineup) or len(lineup) < 2:
        raise ValueError("a ladder needs two or more different players")
    run_path = None if path is None else Path(path)
    done = {} if run_path is None else read_run(run_path, game, seed, size)
    pairs = pairs_of(lineup)
    resumed = sum(1 for a, b in pairs if frozenset((a, b)) in done)
    for number, (a, b) in enumerate(pairs, 1):
        key = frozenset((a, b))
        if key in done:
            continue
        if progress is not None:
            progress(f"ladder {game}: pairing {number}/{len(pairs)}, {a} - {b}")
        started = time.monotonic()
        result = play(a, b)
        done[key] = Played(Pairing(a, b, units_of(result, a, b)), tuple(run_problems(result)),
                           time.monotonic() - started)
        if run_path is not None:
            _write_run(run_path, game, seed, size, lineup, done)
    played = tuple(done[frozenset(pair)] for pair in pairs)
    return RoundRobin(game, tuple(lineup), seed, size, played, resumed)
