"""The arena: mirrored deals between two named players, single hands and
whole matches to 100, summed up as plain data (``report`` renders it).

* A **mirrored pair** plays the same shuffled deck twice with the seats
  swapped: A sits in seat 0 (the non-dealer) in the first game, B in the
  second.  Pairs are the unit of every interval.
* A **match** adds hand points until a side reaches 100 (no game or box
  bonus: they change the margin, never the winner).  The non-dealer
  alternates from hand to hand.  A mirrored pair of matches plays the same
  sequence of decks, A the non-dealer of the first hand in one match, B in
  the other.
* Decks and the players' seeds derive from ``seed`` and the hand's place
  only, so a run is reproducible (the decision times aside), and pairs can
  be shared out to ``workers`` processes in order with the same outcome.
* ``records`` (a path or a callable, ``benchmarks.arena.core.records``)
  receives every hand played as a recorded game (``gin.records``): the
  single hands in pair order, then the match hands, each with the match
  score before it; a hand stopped by an illegal action is left out.
"""

from __future__ import annotations

import hashlib
import random
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, fields
from typing import Any

from benchmarks.arena.core.entrants import ArenaContext, Entrant, check_names
from benchmarks.arena.core.entrants import make_player as make_entrant
from benchmarks.arena.core.records import Records, write_records
from benchmarks.arena.core.stats import mean_interval
from benchmarks.arena.gin.cards import DECK_SIZE
from benchmarks.arena.gin.game import HandRecord, Watcher, play_hand
from benchmarks.arena.gin.openspiel_shadow import (
    CrossCheckTally,
    OpenSpielMissingError,
    OpenSpielShadow,
    openspiel_available,
)
from benchmarks.arena.gin.players.registry import ENTRANTS, LABEL
from benchmarks.arena.gin.protocol import Player
from benchmarks.arena.gin.records import hand_record
from benchmarks.arena.gin.rules import ARENA_RULES, MATCH_TARGET, GinRules
from benchmarks.arena.gin.stats import side_facts, summarize_side

LABELS = ("a", "b")
MAX_HANDS_PER_MATCH = 400  # a match of nothing but walls ends undecided here


def deck_for(seed: int, *place: object) -> tuple[int, ...]:
    """The shuffled deck of the hand at ``place`` (e.g. ``("hand", 3)``)."""
    deck = list(range(DECK_SIZE))
    random.Random("/".join(map(str, (seed, *place)))).shuffle(deck)
    return tuple(deck)


def seed_for(seed: int, *place: object) -> int:
    """A player's seed for the hand at ``place``."""
    digest = hashlib.blake2b("/".join(map(str, (seed, *place))).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True, slots=True)
class MirroredPair:
    """The two games of one deck: ``games[g]`` has A in seat ``g``."""

    index: int
    games: tuple[HandRecord, HandRecord]

    def points_for_a(self) -> tuple[int, int]:
        """A's points in each game."""
        return self.games[0].points_for(0), self.games[1].points_for(1)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match to 100: the winner's label (None: undecided or stopped by
    an illegal move with no forfeit possible), the final scores by label and
    the hands played."""

    winner: str | None
    scores: dict[str, int]
    hands: tuple[tuple[str, HandRecord], ...]
    """Each hand with the label of its seat-0 player."""


class Arena:
    """Two named players, the OpenSpiel shadow when it is wanted, and the
    play of mirrored pairs (``entrants``: where the names are looked up, the
    registry unless given: the tuner adds an advisor with other numbers)."""

    def __init__(self, a: str, b: str, *, seed: int, rules: GinRules = ARENA_RULES,
                 cross_check: bool = True,
                 progress: Callable[[str], None] | None = None,
                 entrants: Mapping[str, Entrant[Player]] | None = None) -> None:
        entrants = ENTRANTS if entrants is None else entrants  # read at call time
        check_names(entrants, (a, b), LABEL)
        needs = any(entrants[name].needs_openspiel for name in (a, b))
        if needs and not openspiel_available():
            raise OpenSpielMissingError("the OpenSpiel bot")
        self.shadow = OpenSpielShadow() if openspiel_available() and (cross_check or needs) else None
        context = ArenaContext(self.shadow)
        self.names = {"a": a, "b": b}
        self.players: dict[str, Player] = {
            label: make_entrant(entrants, self.names[label], LABEL, context) for label in LABELS}
        self.seed = seed
        self.rules = rules
        self.progress = progress
        self.watchers: list[Watcher] = [self.shadow] if self.shadow is not None else []

    def _hand(self, deck: Sequence[int], seat0: str, place: tuple[object, ...],
              match_points: dict[str, int] | None = None) -> HandRecord:
        seat1 = "b" if seat0 == "a" else "a"
        points = None if match_points is None else (match_points[seat0], match_points[seat1])
        return play_hand(
            deck, (self.players[seat0], self.players[seat1]),
            (seed_for(self.seed, *place, seat0), seed_for(self.seed, *place, seat1)),
            rules=self.rules, watchers=self.watchers, match_points=points,
            match_target=None if match_points is None else MATCH_TARGET,
        )

    def play_pair(self, index: int) -> MirroredPair:
        """Mirrored pair ``index`` of single hands."""
        deck = deck_for(self.seed, "hand", index)
        games = (self._hand(deck, "a", ("hand", index, 0)), self._hand(deck, "b", ("hand", index, 1)))
        return MirroredPair(index, games)

    def play_pairs(self, pairs: int) -> list[MirroredPair]:
        """``pairs`` mirrored pairs of single hands."""
        out = []
        for index in range(pairs):
            out.append(self.play_pair(index))
            self._report(index + 1, pairs, "hand pairs")
        return out

    def play_match(self, index: int, first: str) -> MatchRecord:
        """Match ``index`` with ``first`` the non-dealer of its first hand."""
        scores = {"a": 0, "b": 0}
        hands: list[tuple[str, HandRecord]] = []
        other = "b" if first == "a" else "a"
        for number in range(MAX_HANDS_PER_MATCH):
            seat0 = first if number % 2 == 0 else other
            deck = deck_for(self.seed, "match", index, number)
            record = self._hand(deck, seat0, ("match", index, first, number), dict(scores))
            hands.append((seat0, record))
            if record.violation is not None:  # the offender forfeits the match (as in EAAI's game)
                offender = seat0 if record.violation.seat == 0 else ("b" if seat0 == "a" else "a")
                return MatchRecord("b" if offender == "a" else "a", scores, tuple(hands))
            for label, seat in ((seat0, 0), ("b" if seat0 == "a" else "a", 1)):
                scores[label] += max(0, record.points_for(seat))
            if max(scores.values()) >= MATCH_TARGET:
                winner = max(scores, key=lambda label: scores[label])
                return MatchRecord(winner, scores, tuple(hands))
        return MatchRecord(None, scores, tuple(hands))

    def play_match_pair(self, index: int) -> tuple[MatchRecord, MatchRecord]:
        """Mirrored pair ``index`` of matches."""
        return self.play_match(index, "a"), self.play_match(index, "b")

    def play_match_pairs(self, pairs: int) -> list[tuple[MatchRecord, MatchRecord]]:
        """``pairs`` mirrored pairs of matches."""
        out = []
        for index in range(pairs):
            out.append(self.play_match_pair(index))
            self._report(index + 1, pairs, "match pairs")
        return out

    def _report(self, done: int, total: int, what: str) -> None:
        step = max(1, total // 10)
        if self.progress is not None and (done % step == 0 or done == total):
            self.progress(f"arena {self.names['a']} vs {self.names['b']}: {done}/{total} {what}")


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


CHUNK = 10
"""Pairs a worker process plays per job."""


@dataclass(frozen=True, slots=True)
class _Chunk:
    """A worker's job: pairs ``start`` to ``stop`` of one kind (hands or matches)."""

    a: str
    b: str
    seed: int
    rules: GinRules
    cross_check: bool
    matches: bool
    start: int
    stop: int


def _play_chunk(job: _Chunk) -> tuple[list[Any], CrossCheckTally | None]:
    """A worker's pairs, played by an arena of its own, and its shadow's tally."""
    arena = Arena(job.a, job.b, seed=job.seed, rules=job.rules, cross_check=job.cross_check)
    play = arena.play_match_pair if job.matches else arena.play_pair
    pairs = [play(index) for index in range(job.start, job.stop)]
    return pairs, None if arena.shadow is None else arena.shadow.tally


def _add_tally(total: CrossCheckTally, part: CrossCheckTally) -> None:
    for item in fields(CrossCheckTally):
        setattr(total, item.name, getattr(total, item.name) + getattr(part, item.name))


def _play_shared(arena: Arena, count: int, matches: bool, workers: int,
                 progress: Callable[[str], None] | None) -> list[Any]:
    """``count`` pairs played by ``workers`` processes in chunks, in pair order
    (the same pairs as one process plays); their shadows' tallies go into
    ``arena``'s."""
    names = arena.names
    jobs = [_Chunk(names["a"], names["b"], arena.seed, arena.rules, arena.shadow is not None,
                   matches, start, min(count, start + CHUNK)) for start in range(0, count, CHUNK)]
    what = "match pairs" if matches else "hand pairs"
    out: list[Any] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for pairs, tally in pool.map(_play_chunk, jobs):
            out.extend(pairs)
            if tally is not None and arena.shadow is not None:
                _add_tally(arena.shadow.tally, tally)
            if progress is not None:
                progress(f"arena {names['a']} vs {names['b']}: {len(out)}/{count} {what}")
    return out


def run_arena(a: str, b: str, *, hands: int = 200, matches: int = 0, seed: int = 0,
              cross_check: bool = True, rules: GinRules = ARENA_RULES, workers: int = 1,
              progress: Callable[[str], None] | None = _stderr,
              records: Records = None) -> dict[str, Any]:
    """Play ``hands`` single hands (rounded up to whole mirrored pairs) and
    ``matches`` matches (likewise) between players ``a`` and ``b``, on
    ``workers`` processes; plain data for ``report``; every hand played as a
    recorded game to ``records`` (see the module docstring)."""
    arena = Arena(a, b, seed=seed, rules=rules, cross_check=cross_check, progress=progress)
    results: dict[str, Any] = {
        "settings": {"a": a, "b": b, "hands": hands, "matches": matches, "seed": seed,
                     "rules": asdict(rules), "match_target": MATCH_TARGET,
                     "cross_check": arena.shadow is not None, "workers": workers},
    }
    violations: list[str] = []
    recorded: list[dict[str, Any]] = []
    if hands > 0:
        count = (hands + 1) // 2
        pairs: list[MirroredPair] = arena.play_pairs(count) if workers <= 1 else \
            _play_shared(arena, count, False, workers, progress)
        results["hands"] = summarize_hands(pairs)
        violations += [f"hand pair {p.index} game {g}: {r.violation.message}"
                       for p in pairs for g, r in enumerate(p.games) if r.violation is not None]
        if records is not None:
            recorded += [record for pair in pairs
                         for record in pair_records(pair, arena.names, rules)]
    if matches > 0:
        count = (matches + 1) // 2
        match_pairs: list[tuple[MatchRecord, MatchRecord]] = \
            arena.play_match_pairs(count) if workers <= 1 else \
            _play_shared(arena, count, True, workers, progress)
        results["matches"] = summarize_matches(match_pairs)
        violations += [f"match {i}: {r.violation.message}" for i, pair in enumerate(match_pairs)
                       for m in pair for _, r in m.hands if r.violation is not None]
        if records is not None:
            recorded += [record for pair in match_pairs for match in pair
                         for record in match_records(match, arena.names, rules)]
    results["violations"] = violations
    results["cross_check"] = None if arena.shadow is None else arena.shadow.tally.to_dict()
    if records is not None:
        results["records"] = write_records(records, recorded)
    return results


def _other(label: str) -> str:
    return "b" if label == "a" else "a"


def pair_records(pair: MirroredPair, names: Mapping[str, str],
                 rules: GinRules = ARENA_RULES) -> list[dict[str, Any]]:
    """The recorded games of a mirrored pair of single hands (``names``: the
    player of each label), A in seat 0 first."""
    return [hand_record(hand, (names[seat0], names[_other(seat0)]), rules=rules)
            for seat0, hand in zip(LABELS, pair.games, strict=True) if hand.violation is None]


def match_records(match: MatchRecord, names: Mapping[str, str],
                  rules: GinRules = ARENA_RULES) -> list[dict[str, Any]]:
    """The recorded games of a match's hands, each with the match score
    before it (``names``: the player of each label)."""
    scores = {"a": 0, "b": 0}
    out = []
    for seat0, hand in match.hands:
        seat1 = _other(seat0)
        if hand.violation is None:
            out.append(hand_record(hand, (names[seat0], names[seat1]), rules=rules,
                                   score=(scores[seat0], scores[seat1]), target=MATCH_TARGET))
        scores[seat0] += max(0, hand.points_for(0))
        scores[seat1] += max(0, hand.points_for(1))
    return out


def _side_records(seated: Sequence[tuple[str, HandRecord]], label: str) -> dict[str, Any]:
    """One label's summary over hands given with their seat-0 label."""
    facts = []
    times: list[int] = []
    for seat0, record in seated:
        seat = 0 if seat0 == label else 1
        facts.append(side_facts(record, seat))
        times.extend(record.decision_ns[seat])
    knock_ended = sum(1 for _, r in seated if r.result is not None and r.result.knocker is not None)
    return asdict(summarize_side(facts, knock_ended, times))


def summarize_hands(pairs: Sequence[MirroredPair]) -> dict[str, Any]:
    """Points per hand for A (interval over pairs), hands won, outcomes,
    each side's rates, and A's points in each hand of each pair (the
    ladder's per-hand wins, ``benchmarks.arena.core.round_robin``)."""
    pair_points = [sum(p.points_for_a()) / 2 for p in pairs]
    seated = [(label, game) for p in pairs for label, game in zip(LABELS, p.games, strict=True)]
    points_a = [points for p in pairs for points in p.points_for_a()]
    outcomes = Counter(r.result.outcome if r.result is not None else "illegal" for _, r in seated)
    return {
        "pairs": len(pairs),
        "hands": len(seated),
        "points_a": asdict(mean_interval(pair_points)),
        "points_a_by_end": points_by_end(seated),
        "won": {"a": sum(p > 0 for p in points_a), "b": sum(p < 0 for p in points_a),
                "none": sum(p == 0 for p in points_a)},
        "outcomes": dict(sorted(outcomes.items())),
        "sides": {label: _side_records(seated, label) for label in LABELS},
        "pair_points_a": pair_points,
        "hand_points_a": [list(p.points_for_a()) for p in pairs],
    }


def points_by_end(seated: Sequence[tuple[str, HandRecord]]) -> dict[str, float]:
    """A's points per hand split by how the hands ended, summing to its
    points per hand: ``a knock`` (A knocked and won), ``a gin``, ``a
    undercut`` (A knocked and was undercut), the same for B's knocks, and
    ``no score`` (the wall, the guards; always 0)."""
    totals: Counter[str] = Counter()
    for seat0, record in seated:
        result = record.result
        if result is None or result.knocker is None:
            totals["no score"] += 0
            continue
        a_seat = 0 if seat0 == "a" else 1
        knocker = "a" if result.knocker == a_seat else "b"
        totals[f"{knocker} {result.outcome}"] += record.points_for(a_seat)
    hands = max(1, len(seated))
    return {end: totals[end] / hands for end in sorted(totals)}


def summarize_matches(pairs: Sequence[tuple[MatchRecord, MatchRecord]]) -> dict[str, Any]:
    """Match win rate of A (interval over mirrored pairs of matches), wins,
    hands per match and each side's rates over every match hand."""
    pair_rates = [sum(m.winner == "a" for m in pair) / 2 for pair in pairs]
    matches = [m for pair in pairs for m in pair]
    seated = [hand for m in matches for hand in m.hands]
    return {
        "pairs": len(pairs),
        "matches": len(matches),
        "win_rate_a": asdict(mean_interval(pair_rates)),
        "wins": {"a": sum(m.winner == "a" for m in matches), "b": sum(m.winner == "b" for m in matches),
                 "none": sum(m.winner is None for m in matches)},
        "hands_per_match": sum(len(m.hands) for m in matches) / len(matches),
        "sides": {label: _side_records(seated, label) for label in LABELS},
        "results": [{"winner": m.winner, "scores": m.scores, "hands": len(m.hands)} for m in matches],
    }
