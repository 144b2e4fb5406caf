"""How far an Indian hand is from a declaration, fast: the advisor's and the fast players' eye.

``IndianHands`` is built once per deal (the cut card fixes the wild cards).
Its ``evaluate`` answers, for a hand of ``hand_size`` cards or one more, the
**distance**: how many of the hand's cards must still be exchanged (one
drawn for one thrown) before it is a valid declaration, pure sequences
first.  It packs the natural cards into *partial melds* -- runs with at most
two gaps, sets of distinct suits, tanalas where the rules have them, lone
seeds -- so that their completed sizes fit the hand, and lets the wild cards
fill any slot but a pure sequence's:

    kept = naturals packed + min(wilds, slots - naturals packed - pure gaps)
    distance = hand_size - kept

The best packing ranks by distance, then by the fewest gaps in the pure
sequences (they need the very cards; wild cards cannot help), then by the
fewest points left out of complete melds.  With one card more than the
hand's size, the card left out of the packing is the discard, so one search
gives the best discard too.

This is a model for choosing moves, not a referee: a wild-rank card is only
ever wild here (it may also be used as itself, which can only help, so a
distance-0 packing is always a valid declaration, and a few valid ones are
missed).  Whether a hand may declare, and what it pays, the advisor asks
the exact solver (``solver.solve``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.cards import JOKER
from solver.rules import Deal

RANKS = 13
MAX_GAPS = 2
"""A run group leaves at most this many of its ranks to be filled."""
MAX_NODES = 2500
"""The search stops after this many nodes with the best packing found."""
PROBE_NODES = 1000
"""A plain depth-first search of this many nodes comes first: it searches
every packing of a 13- or 14-card hand (so those are exact); past it the
search goes on by discrepancies (see ``_Search``)."""


@dataclass(frozen=True, slots=True)
class Group:
    """A partial meld of natural cards: ``size`` slots once complete,
    ``missing`` of them still to fill; ``run`` when it can become a pure
    sequence (a run or a tanala); ``exact`` when only the very cards fill it
    (a tanala: two identical cards and a wild card are no meld)."""

    cards: tuple[int, ...]
    size: int
    missing: int
    run: bool
    exact: bool = False


@dataclass(frozen=True, slots=True)
class Packing:
    """The best packing of a hand (see the module docstring)."""

    distance: int
    pure_gaps: int
    loose_points: int
    """Points of the natural cards outside complete melds."""
    groups: tuple[Group, ...]
    left_out: tuple[int, ...]
    """Cards (natural or wild) outside the packing: the discard candidates."""
    wilds: int

    @property
    def declarable(self) -> bool:
        """Distance 0: the packing is a valid declaration."""
        return self.distance == 0

    def key(self) -> tuple[int, int, int]:
        """Lower is better."""
        return self.distance, self.pure_gaps, self.loose_points


class IndianHands:
    """The fast evaluator of one deal's hands (see the module docstring)."""

    def __init__(self, deal: Deal) -> None:
        rules = deal.rules
        self.deal = deal
        self.hand_size = rules.hand_size
        self.wild = [False] * (JOKER + 1)
        for card in deal.wild:
            self.wild[card] = True
        self.points = list(deal.points) + [0] * max(0, JOKER + 1 - len(deal.points))
        pure = sequences = 0
        for item in rules.requirements:
            if item.kind == "pure_sequence":
                pure = max(pure, item.count)
            elif item.kind in ("sequence", "run"):
                sequences = max(sequences, item.count)
        self.pure_needed = pure
        self.sequences_needed = max(pure, sequences)
        self.ace_high = rules.ace in ("high_low", "high", "wrap")
        self.ace_low = rules.ace != "high"
        self.max_set = min(4, rules.max_set_size or 4)
        tanala = rules.tanala
        self.tanala = rules.decks >= 3 if tanala is None else tanala
        self.cap = rules.points_cap
        self.exempt_pure = 2 if rules.objective == "marriage" else 0
        """Pure sequences whose cards a hand short of the show does not pay
        (indian21: at most two, docs/RULES.md section 4.5)."""
        self.max_nodes = MAX_NODES
        self.probe_nodes = PROBE_NODES

    # -- the search ---------------------------------------------------------------
    def evaluate(self, hand: Sequence[int], max_nodes: int | None = None,
                 like: Packing | None = None) -> Packing:
        """The best packing of ``hand`` (``hand_size`` cards, or one more)
        found within ``max_nodes`` search nodes (default ``MAX_NODES``).

        ``like``: the packing of a hand one card away (before a draw or a
        throw); when the search is cut short by its budget, the groups of
        ``like`` still whole in ``hand`` are tried as one more packing, so a
        hand one card over is never judged farther than the hand it grew
        from, whatever the budget."""
        counts = [0] * (JOKER + 1)
        wilds: list[int] = []
        for card in hand:
            if self.wild[card]:
                wilds.append(card)
            else:
                counts[card] += 1
        search = _Search(self, counts, len(wilds), self.max_nodes if max_nodes is None
                         else max_nodes)
        search.run()
        if like is not None and search.nodes > search.limit:  # a search cut short
            search.try_groups(like.groups)
        chosen = search.best_groups
        used = [0] * (JOKER + 1)
        for group in chosen:
            for card in group.cards:
                used[card] += 1
        left: list[int] = []
        for card in hand:
            if self.wild[card]:
                continue
            if used[card]:
                used[card] -= 1
            else:
                left.append(card)
        packed = sum(len(g.cards) for g in chosen)
        free = self.hand_size - packed - search.best_pure_gaps
        kept_wilds = max(0, min(len(wilds), free))
        left.extend(wilds[kept_wilds:])
        distance, pure_gaps, loose = search.best
        return Packing(distance, pure_gaps, loose, tuple(chosen), tuple(left), len(wilds))

    def distance(self, hand: Sequence[int]) -> int:
        """The distance of ``hand`` (see the module docstring)."""
        return self.evaluate(hand).distance

    # -- counts -----------------------------------------------------------------------
    def count_estimate(self, hand: Sequence[int], packing: Packing | None = None) -> int:
        """The cascade count a loser would pay with ``hand``, from the packing's
        complete melds (capped): an estimate for playouts, not the solver's
        exact count."""
        packing = packing or self.evaluate(hand)
        total = sum(self.points[c] for c in hand)
        complete = [g for g in packing.groups if g.missing == 0 and len(g.cards) >= 3]
        pure = [g for g in complete if g.run]
        if len(pure) < max(1, self.pure_needed):
            exempt = sorted((sum(self.points[c] for c in g.cards) for g in pure), reverse=True)
            count = total - sum(exempt[:self.exempt_pure])
        else:
            runs = sum(1 for g in complete if g.run)
            if runs >= self.sequences_needed:
                count = packing.loose_points + sum(self.points[c] for c in packing.left_out
                                                   if not self.wild[c])
                count = min(count, total)
            else:
                best = max(sum(self.points[c] for c in g.cards) for g in pure)
                count = total - best
        return count if self.cap is None else min(count, self.cap)

    def total_points(self, hand: Sequence[int]) -> int:
        """Every card's points (the count of a hand with no pure sequence)."""
        total = sum(self.points[c] for c in hand)
        return total if self.cap is None else min(total, self.cap)


class _Search:
    """Depth-first search over the natural cards in index order: each card
    is the lowest card of a group of two or more, or a single; the singles
    are placed at the leaf (as run seeds where sequences are short, then as
    seeds while slots last, the cheapest first).

    A node's first choice is its most complete group.  When the plain
    search does not finish within ``PROBE_NODES`` (21 cards and more), the
    rest of the node budget goes to a limited discrepancy search: the
    packings that leave the first choice at most ``k`` times, for ``k = 0, 1,
    ...``, so that the budget is spread over the whole tree rather than
    spent under its first branches.  On random 21- and 22-card hands that
    finds the best distance within 2,500 nodes in 95 % of them, where the
    plain search found it in 85 % (docs/experiments/indian21-packing-discrepancy-search.md)."""

    def __init__(self, hands: IndianHands, counts: list[int], wilds: int,
                 max_nodes: int) -> None:
        self.h = hands
        self.counts = counts
        self.wilds = wilds
        self.slots = hands.hand_size
        self.remaining = sum(counts[:JOKER])
        self.best: tuple[int, int, int] = (hands.hand_size + 1, 99, 10_000)
        self.best_groups: tuple[Group, ...] = ()
        self.best_pure_gaps = 0
        self.chosen: list[Group] = []
        self.singles: list[int] = []
        self.nodes = 0
        self.max_nodes = max_nodes
        self.limit = max_nodes
        self.pruned = False
        """Whether the last pass left a branch out for its discrepancy budget."""
        self.groups: dict[int, list[Group]] = {
            card: self._groups(card) for card in range(JOKER) if counts[card]}
        # the hand's card types in index order, and per type its groups with
        # their sizes and what they take of each card (a tanala: one card twice)
        self.order = sorted(self.groups)
        self.options: list[list[tuple[Group, tuple[int, ...], int, int,
                                      tuple[tuple[int, int], ...]]]] = [
            [(g, g.cards, len(g.cards), g.size,
              tuple((c, g.cards.count(c)) for c in dict.fromkeys(g.cards)))
             for g in self.groups[card]]
            for card in self.order]

    def try_groups(self, groups: Iterable[Group]) -> None:
        """The packing of ``groups`` (those of two cards or more whose cards
        are all in the hand), every other natural card single: the best if
        it beats what the search found."""
        counts = self.counts
        chosen = self.chosen
        packed = size = 0
        for group in groups:
            if len(group.cards) < 2:
                continue
            for card in group.cards:
                counts[card] -= 1
            if min(counts[card] for card in group.cards) < 0:
                for card in group.cards:
                    counts[card] += 1
                continue
            chosen.append(group)
            packed += len(group.cards)
            size += group.size
        self.singles = [card for card in self.order for _ in range(counts[card])]
        self._leaf(packed, size)
        for group in chosen:
            for card in group.cards:
                counts[card] += 1
        chosen.clear()
        self.singles = []

    def run(self) -> None:
        """The best packing within ``max_nodes`` (see the class docstring)."""
        self.limit = min(self.max_nodes, self.h.probe_nodes)
        self._visit(0, 0, 0, self.limit)  # as many discrepancies as nodes: none left out
        if self.nodes <= self.limit:  # the whole tree
            return
        self.limit = self.max_nodes
        discrepancies = 0
        while self.nodes <= self.limit:
            self.pruned = False
            self._visit(0, 0, 0, discrepancies)
            if not self.pruned:
                return
            discrepancies += 1

    def _leaf(self, packed: int, size: int) -> None:
        h = self.h
        # a tanala is a pure sequence whatever it lacks, and only its very card
        # fills it: its gaps count as pure gaps, picked as one of the pure or not
        runs: list[int] = []
        tanalas = exact_gaps = 0
        for g in self.chosen:
            if g.exact:
                tanalas += 1
                exact_gaps += g.missing
            elif g.run:
                runs.append(g.missing)
        singles = sorted(self.singles, key=h.points.__getitem__)
        need_runs = max(0, h.sequences_needed - len(runs) - tanalas)
        seed_runs = min(len(singles), need_runs)
        phantoms = need_runs - seed_runs
        pure_left = max(0, h.pure_needed - tanalas)
        pure = sorted(runs + [2] * seed_runs + [3] * phantoms)[:pure_left]
        pure_gaps = exact_gaps + sum(pure) + 3 * max(0, pure_left - len(pure))
        size += 3 * need_runs
        if size > self.slots:
            return
        seeds = seed_runs + min(len(singles) - seed_runs, (self.slots - size) // 3)
        packed += seeds
        kept = packed + max(0, min(self.wilds, self.slots - packed - pure_gaps))
        distance = self.slots - kept
        if distance > self.best[0]:
            return
        points = h.points
        loose = sum(points[c] for c in singles)
        for group in self.chosen:
            if group.missing:
                loose += sum(points[c] for c in group.cards)
        key = (distance, pure_gaps, loose)
        if key < self.best:
            self.best = key
            self.best_groups = tuple(self.chosen) + tuple(
                Group((c,), 3, 2, True) for c in singles[:seeds])
            self.best_pure_gaps = pure_gaps

    def _visit(self, at: int, packed: int, size: int, budget: int) -> None:
        """Place the lowest card left from ``order[at]`` on, leaving a node's
        first choice at most ``budget`` more times: the hot loop of every
        packing (plain comparisons, no generators)."""
        self.nodes += 1
        counts = self.counts
        order = self.order
        while at < len(order) and not counts[order[at]]:
            at += 1
        # bound: each remaining natural needs a slot; every wild kept
        slots = self.slots
        room = slots - size
        remaining = self.remaining
        upper = packed + (remaining if remaining < room else room) + self.wilds
        if (upper < slots and slots - upper > self.best[0]) or self.nodes > self.limit:
            return
        if at >= len(order):
            self._leaf(packed, size)
            return
        chosen = self.chosen
        left = budget  # what the next branch may still spend: the first one all of it
        for group, cards, taken, group_size, takes in self.options[at]:
            if group_size > room:
                continue
            short = False
            for c, k in takes:
                if counts[c] < k:
                    short = True
                    break
            if short:
                continue
            if left < 0:
                self.pruned = True
                return
            for c in cards:
                counts[c] -= 1
            self.remaining = remaining - taken
            chosen.append(group)
            self._visit(at, packed + taken, size + group_size, left)
            chosen.pop()
            self.remaining = remaining
            for c in cards:
                counts[c] += 1
            left = budget - 1
        if left < 0:
            self.pruned = True
            return
        # this copy stays single
        card = order[at]
        counts[card] -= 1
        self.remaining = remaining - 1
        self.singles.append(card)
        self._visit(at, packed, size, left)
        self.singles.pop()
        self.remaining = remaining
        counts[card] += 1

    def _groups(self, card: int) -> list[Group]:
        """Groups of two cards or more whose lowest card is ``card`` (its
        other cards still free), the most complete first."""
        h, counts = self.h, self.counts
        wild = h.wild
        suit, rank = divmod(card, RANKS)
        base = suit * RANKS
        out: list[Group] = []

        def runs(steps: Iterable[tuple[int, int]]) -> None:
            """The run groups from this card along ``(rank, span so far)`` steps."""
            members = [card]
            for r, span in steps:
                other = base + r
                if counts[other] and not wild[other]:
                    members.append(other)
                    if span - len(members) > MAX_GAPS:
                        break
                    size = max(3, span)
                    out.append(Group(tuple(members), size, size - len(members), True))
                elif span - len(members) > MAX_GAPS:
                    break

        if rank or h.ace_low:  # upwards from this rank (the ace: A-2-3, where it may be low)
            runs((r, r - rank + 1) for r in range(rank + 1, RANKS))
        if rank == 0 and h.ace_high:  # the ace on top: ...Q K A
            runs((r, RANKS - r + 1) for r in range(RANKS - 1, 0, -1))
        # sets of this rank, other suits above this one
        others = [s * RANKS + rank for s in range(suit + 1, 4)
                  if counts[s * RANKS + rank] and not wild[s * RANKS + rank]]
        if others:
            for mask in range(1, 1 << len(others)):
                chosen = [card] + [others[i] for i in range(len(others)) if mask >> i & 1]
                if len(chosen) > h.max_set:
                    continue
                size = max(3, len(chosen))
                out.append(Group(tuple(chosen), size, size - len(chosen), False))
        if h.tanala and counts[card] >= 2:
            out.append(Group((card, card), 3, 1, True, exact=True))
            if counts[card] >= 3:
                out.append(Group((card, card, card), 3, 0, True, exact=True))
        if len(out) > 1:
            out.sort(key=lambda g: g.missing - len(g.cards))
        return out
