"""Public anchors timed side by side with ``solve()`` on the same gin hands.

* OpenSpiel (``pip install open-spiel``): ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)``
  and its C++ ``min_deadwood``.  OpenSpiel numbers cards ``suit * 13 + rank``
  with suits in the order s c d h; ours are S H D C, so hearts and clubs swap.
* RLCard (``pip install rlcard``): ``rlcard.games.gin_rummy.utils.melding.
  get_best_meld_clusters`` over ``Card`` objects; its card ids use S H D C like ours.

Both mappings are checked on a known hand (deadwood 33) before anything is
timed.  For each hand the three calls run back to back, so machine noise hits
all of them alike; each call is timed alone, inline, with ``perf_counter_ns`` and the
timer's own cost (calibrated here) is subtracted.  The anchors get their
native input prepared outside the timed region (int lists, ``Card`` lists,
and for gin11 the eleven 10-card lists), which favours them slightly; ours
gets card names, its natural input.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.speed.suites import DEFAULT_SEED, Case, generate
from solver import solve
from solver.cards import parse_cards

KNOWN_HAND = ["AS", "2S", "3S", "7H", "7D", "7C", "KD", "QH", "4C", "9S"]
KNOWN_DEADWOOD = 33
_OPENSPIEL_SUIT = (0, 3, 2, 1)  # ours S H D C -> OpenSpiel s c d h
_CARD_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def to_openspiel(cards: Sequence[int]) -> list[int]:
    """Our card ids as OpenSpiel gin card ints (``suit * 13 + rank``, suits s c d h).

    >>> to_openspiel(parse_cards("AS KH 2D 3C".split()))
    [0, 51, 27, 15]
    """
    return [_OPENSPIEL_SUIT[c // 13] * 13 + c % 13 for c in cards]


def package_version(name: str) -> str | None:
    """Installed version of a distribution, or ``None``."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def timer_overhead_ns(samples: int = 20_000) -> int:
    """Median cost of an empty ``perf_counter_ns`` pair, subtracted from each timing."""
    clock = time.perf_counter_ns
    costs = []
    for _ in range(samples):
        started = clock()
        costs.append(clock() - started)
    return int(statistics.median(costs))


class OpenSpielAnchor:
    """OpenSpiel's C++ gin utilities (10-card hands, 13 ranks x 4 suits)."""

    name = "openspiel"
    call_name = "min_deadwood (C++)"

    def __init__(self) -> None:
        pyspiel = importlib.import_module("pyspiel")
        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        self.call: Callable[[list[int]], int] = self.utils.min_deadwood
        self.version = package_version("open_spiel") or package_version("open-spiel")
        names = [self.utils.card_string(i) for i in to_openspiel(parse_cards(KNOWN_HAND))]
        if [n.upper() for n in names] != KNOWN_HAND:
            raise RuntimeError(f"OpenSpiel card mapping is wrong: {names} for {KNOWN_HAND}")
        got = self.call(self.encode(KNOWN_HAND))
        if got != KNOWN_DEADWOOD:
            raise RuntimeError(f"OpenSpiel says {got} for the known hand, expected {KNOWN_DEADWOOD}")

    def encode(self, hand: Sequence[str]) -> list[int]:
        """OpenSpiel's input for ``hand``."""
        return to_openspiel(parse_cards(list(hand)))

    @staticmethod
    def value(cards: list[int], answer: int) -> int:
        """``min_deadwood`` already answers with the deadwood count."""
        return answer


class RLCardAnchor:
    """RLCard's pure-Python meld-cluster enumeration (10-card hands only)."""

    name = "rlcard"
    call_name = "get_best_meld_clusters"

    def __init__(self) -> None:
        self.melding = importlib.import_module("rlcard.games.gin_rummy.utils.melding")
        self.utils = importlib.import_module("rlcard.games.gin_rummy.utils.utils")
        self.call: Callable[[list[Any]], list[Any]] = self.melding.get_best_meld_clusters
        self.version = package_version("rlcard")
        hand = self.encode(KNOWN_HAND)
        if [f"{c.rank}{c.suit}" for c in hand] != KNOWN_HAND:
            raise RuntimeError("RLCard card mapping is wrong")
        got = self.value(hand, self.call(hand))
        if got != KNOWN_DEADWOOD:
            raise RuntimeError(f"RLCard says {got} for the known hand, expected {KNOWN_DEADWOOD}")

    def encode(self, hand: Sequence[str]) -> list[Any]:
        """RLCard ``Card`` objects for ``hand`` (its card id is ours)."""
        return [self.utils.get_card(c) for c in parse_cards(list(hand))]

    def value(self, hand: list[Any], clusters: list[Any]) -> int:
        """Deadwood of the first best cluster (all cards when nothing melds)."""
        if not clusters:
            return sum(_CARD_VALUE[self.utils.get_rank_id(c)] for c in hand)
        value: int = self.utils.get_deadwood_count(hand, clusters[0])
        return value


def load_anchors() -> tuple[list[Any], dict[str, str]]:
    """The anchors that import and pass the known-hand check, and why others do not."""
    anchors: list[Any] = []
    missing: dict[str, str] = {}
    for factory in (OpenSpielAnchor, RLCardAnchor):
        try:
            anchors.append(factory())
        except ImportError as error:
            missing[factory.name] = f"not installed ({error}); pip install -e '.[bench]'"
        except RuntimeError as error:
            missing[factory.name] = str(error)
    return anchors, missing


@dataclass(slots=True)
class AnchorRun:
    """One comparison: our times and values against one anchor's on the same hands."""

    suite: str
    anchor: str
    version: str | None
    what: str
    ours_ns: list[int] = field(default_factory=list)
    theirs_ns: list[int] = field(default_factory=list)
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """Plain data: medians in microseconds and the ratio ours / theirs."""
        ours = statistics.median(self.ours_ns) / 1000 if self.ours_ns else float("nan")
        theirs = statistics.median(self.theirs_ns) / 1000 if self.theirs_ns else float("nan")
        return {
            "suite": self.suite,
            "anchor": self.anchor,
            "version": self.version,
            "what": self.what,
            "n": len(self.ours_ns),
            "ours_median_us": ours,
            "theirs_median_us": theirs,
            "ratio_ours_over_theirs": ours / theirs if theirs else float("nan"),
            "disagreements": len(self.disagreements),
            "disagreement_list": self.disagreements[:30],
            **self.extra,
        }


def run_gin10(cases: Sequence[Case], anchors: Sequence[Any], overhead: int) -> list[AnchorRun]:
    """gin10: our full ``solve()`` against each anchor's minimum deadwood.

    Each call is timed inline (no wrapper frame on either side): the anchor's
    ``call`` is its raw library function, ``value`` turns its answer into a
    deadwood count outside the timed region.
    """
    runs = {a.name: AnchorRun("gin10", a.name, a.version, f"solve() vs {a.call_name}")
            for a in anchors}
    inputs = [[a.encode(case.hand) for a in anchors] for case in cases]
    clock = time.perf_counter_ns
    for case, encoded in zip(cases, inputs, strict=True):
        hand = list(case.hand)
        started = clock()
        ours = solve(hand, "gin")
        ours_ns = clock() - started - overhead
        for anchor, cards in zip(anchors, encoded, strict=True):
            call = anchor.call
            started = clock()
            answer = call(cards)
            theirs_ns = clock() - started - overhead
            value = anchor.value(cards, answer)
            run = runs[anchor.name]
            run.ours_ns.append(max(0, ours_ns))
            run.theirs_ns.append(max(0, theirs_ns))
            if value != ours.deadwood_points:
                run.disagreements.append({"hand": " ".join(case.hand),
                                          "ours": ours.deadwood_points, anchor.name: value})
    return list(runs.values())


def run_gin11(cases: Sequence[Case], openspiel: OpenSpielAnchor, overhead: int,
              suite: str = "gin11") -> AnchorRun:
    """gin11: ``solve(discard=True)`` against OpenSpiel's minimum over the 11 discards.

    Also calls OpenSpiel's own 11-card ``min_deadwood`` on each hand and counts
    how often it differs from the exact optimum: it keeps the first meld group
    of maximal melded value and then drops the highest deadwood card, which
    misses a tied (or slightly worse) group that leaves a higher card to drop.
    """
    run = AnchorRun(suite, "openspiel", openspiel.version,
                    "solve(discard=True) vs min over 11 min_deadwood calls")
    eleven_wrong: list[dict[str, Any]] = []
    eleven_ns: list[int] = []
    min_deadwood = openspiel.call
    clock = time.perf_counter_ns
    for case in cases:
        cards = openspiel.encode(case.hand)
        tens = [cards[:i] + cards[i + 1:] for i in range(len(cards))]
        hand = list(case.hand)
        started = clock()
        ours = solve(hand, "gin", discard=True)
        run.ours_ns.append(max(0, clock() - started - overhead))
        started = clock()
        best = min([min_deadwood(ten) for ten in tens])
        run.theirs_ns.append(max(0, clock() - started - overhead))
        started = clock()
        direct = min_deadwood(cards)
        eleven_ns.append(max(0, clock() - started - overhead))
        if best != ours.deadwood_points:
            run.disagreements.append({"hand": " ".join(case.hand),
                                      "ours": ours.deadwood_points, "openspiel_loop": best})
        if direct != ours.deadwood_points:
            eleven_wrong.append({"hand": " ".join(case.hand), "ours": ours.deadwood_points,
                                 "openspiel_11card": direct})
    run.extra = {
        "openspiel_11card_calls_wrong": len(eleven_wrong),
        "openspiel_11card_wrong_list": eleven_wrong[:30],
        "openspiel_11card_median_us": statistics.median(eleven_ns) / 1000 if eleven_ns else None,
    }
    return run


def run_anchors(n: int, seed: int = DEFAULT_SEED,
                progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """All anchor comparisons on ``n`` hands each of gin10, gin11 and gin11_dense."""
    anchors, missing = load_anchors()
    result: dict[str, Any] = {"missing": missing, "runs": []}
    if not anchors:
        return result
    overhead = timer_overhead_ns()
    result["timer_overhead_ns"] = overhead
    gin10 = generate("gin10", n, seed)
    # Warm-up on other hands: imports, per-rules tables, first-call costs.
    run_gin10(generate("gin10", 20, seed + 1), anchors, overhead)
    if progress is not None:
        progress(f"anchors: gin10 on {n} hands vs {', '.join(a.name for a in anchors)}")
    runs = run_gin10(gin10, anchors, overhead)
    openspiel = next((a for a in anchors if a.name == "openspiel"), None)
    if openspiel is not None:
        for suite in ("gin11", "gin11_dense"):
            if progress is not None:
                progress(f"anchors: {suite} on {n} hands vs openspiel")
            run_gin11(generate(suite, 20, seed + 1), openspiel, overhead, suite)  # warm-up
            runs.append(run_gin11(generate(suite, n, seed), openspiel, overhead, suite))
    result["runs"] = [run.summary() for run in runs]
    return result
