"""A bound the search prunes with: how many pure sequences a state can still show.

A pass that requires pure sequences (Indian rummy's first life, the
marriage variant's three) cannot be satisfied by a state whose remaining
cards could not form the ones still missing.  The count is an upper bound
read off the search's packed count code (``solver.engines.packed``): per
suit, the copies of the ranks some pure run can hold, over the shortest run
length, plus the tanalas (three copies of one card) the copies allow.  The
ranks a pure run can hold come from a per-suit table over the geometry's
windows, built lazily per (rules, suit pattern).

>>> from solver.rules import PRESETS
>>> from solver.cards import parse_card
>>> from solver.engines.packed import pack
>>> reach = meld_reach(PRESETS["indian13"])
>>> reach.pure_sequences_at_most(pack([parse_card(t) for t in "5H 6H 7H 8H KS 2C".split()]))
1
>>> reach.pure_sequences_at_most(pack([parse_card(t) for t in "5H 6H 8H 9H KS".split()]))
0
>>> reach.pure_sequences_at_most(pack([parse_card(t) for t in "QH KH AH".split()]))
1
"""

from __future__ import annotations

from solver.engines.packed import FIELD, FIELD_LOW, presence, rank_pattern, spread
from solver.geometry import GEOMETRY, MAX_RUN_CARDS
from solver.rules import Rules


class PureReach:
    """Which held cards a pure sequence could still hold, for one meld rule
    set (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        self.min_naturals = max(1, rules.min_naturals_per_meld)
        self.min_run_length = max(1, rules.min_run_length)
        self.tanala = rules.tanala_enabled and self.min_naturals <= 3
        windows: set[int] = set()
        for length in range(self.min_run_length, MAX_RUN_CARDS + 1):
            for ranks in GEOMETRY[rules.ace].windows(length):
                windows.add(sum(1 << rank for rank in ranks))
        self.windows = tuple(sorted(windows))
        self.runs: dict[int, int] = {}

    def _run_reach(self, pattern: int) -> int:
        """The ranks (a 13-bit mask) some pure run can hold when a suit holds
        the ranks of ``pattern``."""
        hit = self.runs.get(pattern)
        if hit is not None:
            return hit
        reach = 0
        for mask in self.windows:
            if mask & pattern == mask and mask.bit_count() >= self.min_naturals:
                reach |= mask
        self.runs[pattern] = reach
        return reach

    def pure_sequences_at_most(self, code: int, enough: int = 1 << 30) -> int:
        """An upper bound on how many disjoint pure sequences the held cards
        can form (see the module docstring); counting stops at ``enough``."""
        present = presence(code)
        total = 0
        for suit in range(4):
            pattern = rank_pattern(present, suit)
            if not pattern:
                continue
            ranks = self._run_reach(pattern)
            if not ranks:
                continue
            if total + 1 >= enough:
                return enough  # a reachable rank: some window is held whole
            reach = spread(ranks, suit)
            copies = 0
            while reach:
                low = reach & -reach
                copies += (code >> (low.bit_length() - 1)) & FIELD
                reach ^= low
            total += copies // self.min_run_length
        if self.tanala:
            triples = (code >> 2 | code >> 3 | code >> 4 | (code >> 1 & code)) & FIELD_LOW
            while triples:
                low = triples & -triples
                total += ((code >> (low.bit_length() - 1)) & FIELD) // 3
                triples ^= low
        return total


_REACH: dict[tuple[object, ...], PureReach] = {}


def meld_reach(rules: Rules) -> PureReach:
    """The shared ``PureReach`` of the meld rules of ``rules`` (its tables
    fill once per rule set)."""
    key = (rules.ace, rules.tanala_enabled, rules.min_run_length, rules.min_naturals_per_meld)
    hit = _REACH.get(key)
    if hit is None:
        hit = _REACH[key] = PureReach(rules)
    return hit
