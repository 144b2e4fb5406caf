"""Our exact engine: a memoised depth-first search over card types.

The hand is a count vector packed into one integer (5 bits per card type).
The search always decides the lowest card type still held: it goes to the
deadwood, is the discard, joins the wild *pool* (wild-rank and neighbour
cards may also be used as themselves), or leads a meld drawn from
``melds_led_by`` (or a layoff onto a table meld).  Melds only record how many
wild slots they need (a *debt*); at the end the pool pays the debt with its
most valuable cards (any wild card can fill any slot, so this greedy choice
is exact), one more pays for the discard if still owed, and the rest is
deadwood.

The value of a state (remaining counts, debt, pool, discard owed, the
counters of the pass's limits, the meld points towards a threshold, the table
melds already extended) does not depend on how it was reached, so it is
memoised: the search is a dynamic programme over sub-multisets and exact.  A
``PassSearch`` keeps its memo across *roots*, so the hints ask it about many
related hands (every draw, every discard) and share the work.

The search is *anytime*: it records the best complete arrangement it has
seen (its incumbent), so a search stopped by its deadline or work budget
still answers with a valid arrangement (``optimal=False``).

Three things keep it fast.  When no meld's cost depends on what its wild
slots stand for, the options of a lead card are read as *effects* from
shared per-pattern tables (``solver.engines.through``), the meld itself
found only when an arrangement is built.  A state still short of the pure
sequences its pass requires, whose cards cannot form them, is cut
(``solver.engines.bounds``).  And a pass in which a spare wild card costs
nothing (an *untied* pass, ``solver.objective.untied``) keeps, per set of
naturals, only the meld with the fewest wild slots.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from solver.cards import JOKER, NUM_CARD_TYPES, without
from solver.config import CONFIG
from solver.deadline import Deadline, DeadlineExceeded, gc_paused
from solver.engines import bitmask
from solver.engines.base import (
    INFEASIBLE,
    BudgetExceeded,
    EngineResult,
    Instance,
    PlacedMeld,
)
from solver.engines.bounds import meld_reach
from solver.engines.packed import BITS, FIELD, WEIGHT, pack, unpack
from solver.engines.through import Effect, effect_key, effects_of
from solver.melds import (
    Candidate,
    Extension,
    TableSpot,
    layoffs_led_by,
    melds_led_by,
    melds_through,
)
from solver.objective import Pass, class_of, passes_for, pure_sequences_possible
from solver.results import Status
from solver.rules import Deal, melded_points

_PURE_RUN = class_of("run", True)
_RUN = class_of("run", False)
_HALF = INFEASIBLE // 2  # any value above it means "no arrangement"

# A pool entry is (hand cost, melded-as-wild cost, own meld points); the pool
# is kept sorted by how much melding saves, then by hand cost, most valuable
# first.
PoolEntry = tuple[int, int, int]
Pool = int | tuple[PoolEntry, ...]


@dataclass(slots=True, eq=False)
class Row:
    """One option for a lead card: a candidate meld or a layoff.

    ``delta`` is the packed code of the other naturals it takes; ``cls`` its
    meld class for the pass's counters (-1 for a layoff, which counts for no
    requirement); ``cost`` the pass cost of its naturals (and of its wild
    slots when every wild card costs the same); ``points`` what it adds
    towards a points threshold; ``dual_used`` / ``floor_used`` the
    wild-capable naturals it takes and their floor; ``slot`` the table-meld
    bit of a layoff; ``room`` how many more wild slots the meld could take
    (when spare wild cards are absorbed at the end, see ``PassSearch``).
    ``option`` is None for a row read from the effect tables
    (``solver.engines.through``): an arrangement that uses it finds its meld
    among the candidates then (``PassSearch._option_of``), and kept.  Rows are
    built by the thousand: a plain slotted class, compared by identity."""

    option: Candidate | Extension | None
    delta: int
    wilds: int
    cls: int
    cost: int
    points: int
    dual_used: int
    floor_used: int
    slot: int
    room: int = 0


def _pool_key(entry: PoolEntry) -> tuple[int, int]:
    return (entry[1] - entry[0], -entry[0])


def _signature_masks() -> tuple[int, ...]:
    """Per lead type: the bits of the counts that shape its options (its suit
    for runs and layoffs, its rank across suits for sets)."""
    masks = []
    for card in range(NUM_CARD_TYPES):
        if card == JOKER:
            masks.append(FIELD << (BITS * card))
            continue
        suit, rank = divmod(card, 13)
        mask = ((1 << (BITS * 13)) - 1) << (BITS * 13 * suit)
        for s in range(4):
            mask |= FIELD << (BITS * (13 * s + rank))
        masks.append(mask)
    return tuple(masks)


SIGNATURE = _signature_masks()
_LEAD_SHIFT = BITS * NUM_CARD_TYPES + 8


# Option rows depend only on the deal, the pass, the wild cap and the pool
# profile, never on the rest of the hand, so every search of the same deal
# shares them.  The caches are bounded by what they hold (rows and candidates,
# about 200 bytes each), least recently used spaces dropped first: a process
# solving any stream of deals stays near a hundred megabytes.
ROWS_HELD_LIMIT = 250_000
"""Option rows kept across searches (all spaces together)."""
CANDIDATES_HELD_LIMIT = 250_000
"""Meld candidates kept across searches."""


class _RowCache(dict[object, list["Row"]]):
    """The option rows of one space (deal, pass, wild cap, pricing), counted."""

    __slots__ = ("held", "registered")

    def __init__(self, registered: bool = True) -> None:
        super().__init__()
        self.held = 0
        self.registered = registered  # counted in the shared limit


_SHARED_ROWS: OrderedDict[tuple[object, ...], _RowCache] = OrderedDict()
_rows_held = 0


def _shared_rows(key: tuple[object, ...]) -> _RowCache:
    hit = _SHARED_ROWS.get(key)
    if hit is not None:
        _SHARED_ROWS.move_to_end(key)
        return hit
    cache = _RowCache()
    _SHARED_ROWS[key] = cache
    return cache


def _hold_rows(cache: _RowCache, count: int) -> None:
    """Count ``count`` more rows held by ``cache``; past ``ROWS_HELD_LIMIT``
    drop the least recently used spaces (a space over it alone is emptied)."""
    global _rows_held
    if not cache.registered:  # private to one search, or dropped while it runs
        cache.held += count
        if cache.held > ROWS_HELD_LIMIT:
            cache.clear()
            cache.held = 0
        return
    cache.held += count
    _rows_held += count
    while _rows_held > ROWS_HELD_LIMIT and _SHARED_ROWS:
        key, oldest = next(iter(_SHARED_ROWS.items()))
        if oldest is cache:
            break
        del _SHARED_ROWS[key]
        _rows_held -= oldest.held
        oldest.registered = False
        oldest.held = 0
    if _rows_held > ROWS_HELD_LIMIT:
        _rows_held -= cache.held
        cache.clear()
        cache.held = 0


_CANDIDATES: OrderedDict[tuple[object, ...], list[Candidate]] = OrderedDict()
_candidates_held = 0


def _keep_candidates(key: tuple[object, ...], found: list[Candidate]) -> None:
    global _candidates_held
    _CANDIDATES[key] = found
    _candidates_held += len(found)
    while _candidates_held > CANDIDATES_HELD_LIMIT and len(_CANDIDATES) > 1:
        _candidates_held -= len(_CANDIDATES.popitem(last=False)[1])


def _fewest_wilds(effects: Sequence[Effect], pure_beats_impure: bool) -> list[Effect]:
    """``effects`` without those another one beats outright when spare wild
    cards cost nothing: the same naturals and class with fewer wild slots
    (or, ``pure_beats_impure``, a pure run beside an impure one)."""
    fewest: dict[tuple[int, int], int] = {}
    for delta, wilds, cls in effects:
        key = (delta, _PURE_RUN if pure_beats_impure and cls == _RUN else cls)
        if wilds < fewest.get(key, 1 << 30):
            fewest[key] = wilds
    kept = []
    for delta, wilds, cls in effects:
        if pure_beats_impure and cls == _RUN and fewest[(delta, _PURE_RUN)] == 0:
            continue
        if fewest[(delta, _PURE_RUN if pure_beats_impure and cls == _RUN else cls)] == wilds:
            kept.append((delta, wilds, cls))
    return kept


def _spare_rooms(effects: Sequence[Effect]) -> dict[tuple[int, int], int]:
    """The most wild slots listed per (naturals, class): a meld with fewer
    can take more up to there (the generator lists every count between)."""
    most: dict[tuple[int, int], int] = {}
    for delta, wilds, cls in effects:
        if wilds > most.get((delta, cls), -1):
            most[(delta, cls)] = wilds
    return most


def _candidates(lead: int, counts: list[int], deal: Deal, wild_cap: int, pure_only: bool,
                deadline: Deadline | None) -> list[Candidate]:
    """``melds_led_by``, cached across deals: candidates depend on the meld
    rules and the counts around the lead, not on which cards are wild."""
    rules = deal.rules
    key = (rules.ace, rules.tanala_enabled, rules.set_allow_same_suit, rules.set_size_limit,
           rules.min_run_length, rules.min_naturals_per_meld, rules.max_wilds_per_meld,
           lead, wild_cap, pure_only, tuple(counts[lead - lead % 13: lead - lead % 13 + 13]),
           tuple(counts[lead % 13 + 13 * s] for s in range(4)))
    hit = _CANDIDATES.get(key)
    if hit is not None:
        return hit
    found = melds_led_by(lead, counts, deal, wild_cap, pure_only, deadline)
    _keep_candidates(key, found)
    return found


def _through_candidates(card: int, code: int, deal: Deal, wild_cap: int, pure_only: bool,
                        deadline: Deadline | None) -> list[Candidate]:
    """``melds_through`` ``card`` with the hand ``code``, cached across deals
    and passes."""
    rules = deal.rules
    key = ("through", rules.ace, rules.tanala_enabled, rules.set_allow_same_suit,
           rules.set_size_limit, rules.min_run_length, rules.min_naturals_per_meld,
           rules.max_wilds_per_meld, card, wild_cap, pure_only, code & SIGNATURE[card])
    hit = _CANDIDATES.get(key)
    if hit is not None:
        return hit
    found = melds_through(card, unpack(code), deal, wild_cap, pure_only, deadline)
    _keep_candidates(key, found)
    return found


@dataclass(frozen=True, slots=True)
class Root:
    """Where a search starts: a hand, and whether one card must be discarded."""

    code: int
    jokers: int
    owed: bool
    dual: int
    floor: int


@dataclass(frozen=True, slots=True)
class Arrangement:
    """An arrangement found by the search: new melds, layoffs (each with the
    wild cards filling its wild slots), wild cards laid off alone as (table
    index, card), deadwood, discard and its pass cost."""

    melds: tuple[PlacedMeld, ...]
    layoffs: tuple[tuple[Extension, tuple[int, ...]], ...]
    lone_wilds: tuple[tuple[int, int], ...]
    deadwood: tuple[int, ...]
    discard: int | None
    cost: int


State = tuple[int, Pool, int, bool, int, int, int, int]
"""(code, pool, debt, discard owed, counters, points, used table melds, room) of a replay."""

Choice = Row | str
"""One decision of the search: a meld or layoff row, or ``pool`` / ``dead`` / ``discard``."""


class PassSearch:
    """The dynamic programme of one pass (branch and bound over a memo).

    ``best(...)`` returns the exact optimal future cost of a state when it is
    below ``bound``; otherwise a lower bound that is at least ``bound``.  The
    memo keeps exact values and lower bounds apart, like a transposition
    table, and is shared by every root asked about (``solve``).
    """

    def __init__(
        self,
        deal: Deal,
        objective: Pass,
        wild_cap: int,
        *,
        table: Sequence[TableSpot] = (),
        melds_allowed: bool = True,
        node_budget: int = CONFIG.node_budget,
        deadline: Deadline | None = None,
    ) -> None:
        self.deal = deal
        self.objective = objective
        self.wild_cap = wild_cap
        self.table = tuple(table)
        self.melds_allowed = melds_allowed
        self.absorb_rooms = [spot.absorb_room(deal.rules) for spot in self.table]
        self.absorb_memo: dict[int, int] = {}
        counters = objective.counters
        self.step = counters.step
        self.accept = counters.accept
        self.pure_short = counters.pure_short
        self.pure_reach = meld_reach(deal.rules)
        self.min_points = objective.min_points
        self.meld_all = objective.meld_all
        self.jokers_wild = JOKER in deal.wild
        self.dual_types = frozenset(c for c in deal.wild if c != JOKER)
        self.hand_cost = [objective.hand_cost(c, deal) for c in range(NUM_CARD_TYPES)]
        self.wild_cost = [objective.meld_cost(c, -1, deal, False) for c in range(NUM_CARD_TYPES)]
        own = deal.rules.wild_meld_value == "own"
        # Under wild_meld_value="represented" a wild slot is worth the card it
        # stands for whatever fills it: any wild card computes it.
        self.stand_in = None if own or not deal.wild else min(deal.wild)
        self.wild_points = [deal.meld_points[c] if own else 0 for c in range(NUM_CARD_TYPES)]
        profiles = {self._entry(c) for c in deal.wild}
        # With every wild card alike (the usual case) the pool is just a count
        # and a wild's cost is paid when a meld takes it, so the state only
        # needs the surplus (pool minus debt).
        self.uniform = len(profiles) <= 1
        self.uniform_entry: PoolEntry = next(iter(profiles)) if profiles else (0, 0, 0)
        # The least a wild card can cost: melded as itself, or (worth the card
        # it stands for) as the most valuable card -- so the floors stay
        # lower bounds however the wild cards end up used.
        self.wild_floor = min([0, *(self.wild_cost[c] for c in deal.wild)])
        if self.stand_in is not None and objective.net:
            self.wild_floor = min([self.wild_floor, *(
                objective.meld_cost(self.stand_in, rep, deal, low)
                for rep in range(JOKER) for low in (False, True))])
        self.card_floor = [self._card_floor(c) for c in range(NUM_CARD_TYPES)]
        # Meld costs and points only matter under max_net or a points threshold.
        self.priced = objective.net or objective.min_points > 0
        rules = deal.rules
        self.run_cap = 0 if objective.pure_only else (
            wild_cap if rules.max_wilds_per_meld is None else min(wild_cap,
                                                                 rules.max_wilds_per_meld))
        self.roots: dict[tuple[tuple[int, ...], bool], Root] = {}
        self.discards: dict[tuple[State, int], int | None] = {}
        # When a wild card left over costs no more than one melded, a meld
        # never needs more wild slots than another with the same naturals
        # (nor an impure run beside the pure one when every limit is an
        # "at least"): such rows are dropped.
        self.spare_wilds_free = (self.uniform and not self.priced and not self.meld_all
                                 and not table and self.uniform_entry[0] <= self.uniform_entry[1])
        self.pure_beats_impure = all(limit.op == "at_least" for limit in objective.limits)
        # When a spare wild card costs more left over than melded (the tie
        # unit), each meld keeps only its fewest wild slots plus its *room*
        # for more, and the wild cards left at the end fill that room: the
        # same optimum as trying every wild count per meld, with fewer rows.
        self.absorb_spare = (self.uniform and not self.priced and not self.meld_all
                             and not table and self.uniform_entry[0] > self.uniform_entry[1])
        self.dual_fields = sum(FIELD << (BITS * c) for c in self.dual_types)  # every bit
        self.truncate = rules.ace in ("low", "high_low", "high") and not table
        self.memo: dict[tuple[object, ...], tuple[int, bool, object]] = {}
        # Rows depend on the pass only through its cost model, pure_only and
        # which rows the spare-wild rule drops.
        self.rows: _RowCache = _RowCache(registered=False) if self.table else _shared_rows(
            (deal, objective.net, objective.zero_cost, objective.pure_only, self.priced,
             wild_cap, self.uniform, melds_allowed,
             self.spare_wilds_free and (True, self.pure_beats_impure), self.absorb_spare))
        self.nodes = 0
        self.node_budget = node_budget
        self.deadline = deadline
        self.dual_left = 0
        self.path: list[Choice] = []
        self.incumbent_cost = INFEASIBLE
        self.incumbent: tuple[Choice, ...] | None = None

    def _entry(self, card: int) -> PoolEntry:
        return (self.hand_cost[card], self.wild_cost[card], self.wild_points[card])

    def _card_floor(self, card: int) -> int:
        if not self.objective.net:
            return 0
        fates = [0, self.objective.meld_cost(card, card, self.deal, False),
                 self.objective.meld_cost(card, card, self.deal, True)]
        if card in self.deal.wild:
            fates.append(self.wild_floor)
        return min(fates)

    # -- roots ----------------------------------------------------------------
    def root(self, cards: Sequence[int], discard: bool) -> Root:
        """The start state of ``cards`` (``discard``: one card must go); the
        last few asked are kept (a hint asks about one hand many times)."""
        key = (tuple(cards), discard)
        known = self.roots.get(key)
        if known is not None:
            return known
        code = jokers = dual = floor = 0
        for card in cards:
            if card == JOKER and self.jokers_wild:
                jokers += 1
                floor += self.wild_floor
                continue
            code += WEIGHT[card]
            floor += self.card_floor[card]
            dual += card in self.dual_types
        root = Root(code, jokers, discard, dual, floor)
        if len(self.roots) >= 4:
            self.roots.clear()
        self.roots[key] = root
        return root

    def _initial_pool(self, root: Root) -> Pool:
        if self.uniform:
            return root.jokers
        return tuple(self._entry(JOKER) for _ in range(root.jokers))

    def solve(self, root: Root, bound: int = INFEASIBLE) -> int:
        """The optimal cost of ``root`` if below ``bound`` (else a value >= ``bound``;
        ``INFEASIBLE`` when no arrangement fits).  Raises ``BudgetExceeded``
        past the node budget or the deadline (see ``incumbent``); the states
        visited are charged to the deadline's work budget."""
        self.path = []
        self.incumbent_cost = INFEASIBLE
        self.incumbent = None
        self.dual_left = root.dual
        before = self.nodes
        if self.deadline is not None:
            self.node_budget = before + self.deadline.nodes(self.node_budget - before)
        try:
            return self.best(root.code, root.floor, self._initial_pool(root), 0, root.owed, 0, 0,
                             0, 0, 0, bound)
        finally:
            if self.deadline is not None:
                self.deadline.work.spend(self.nodes - before)

    # -- options, cached by the counts that shape them ------------------------
    def _options(self, lead: int, code: int) -> list[Row]:
        signature = (code & SIGNATURE[lead]) | (lead << _LEAD_SHIFT)
        rows = self.rows.get(signature)
        if rows is not None:
            return rows
        if self.deadline is not None:
            self.deadline.check()
        if self.melds_allowed:
            rows = self._effect_rows(lead, code)
            if rows is not None:
                self.rows[signature] = rows
                _hold_rows(self.rows, 1)  # the rows themselves are counted under their effect
                return rows
        # Options only see which ranks of the lead's suit are held and how many
        # copies of its rank: hands that agree on those share the rows.
        counts = self._shape_counts(lead, code)
        shape = (lead, tuple(counts[lead - lead % 13: lead - lead % 13 + 13]),
                 tuple(counts[lead % 13 + 13 * s] for s in range(4)))
        rows = self.rows.get(shape)
        added = 1
        if rows is None:
            rows = self._build_rows(lead, counts)
            self.rows[shape] = rows
            added += 1 + len(rows)
        self.rows[signature] = rows
        _hold_rows(self.rows, added)
        return rows

    def _shape_counts(self, lead: int, code: int) -> list[int]:
        """The counts the options of ``lead`` depend on (the lead copy
        included; presence only for a run, capped copies for a set).  A run
        from a lead that ranks low cannot cross more gaps than it has wild
        slots, so ranks past that point are left out: hands that differ only
        there share the rows."""
        counts = [0] * NUM_CARD_TYPES
        suit_base = lead - lead % 13
        run_only = 1 if not self.table else FIELD
        gaps, reach_end = 0, suit_base + 13
        truncate = self.truncate and lead % 13 != 0
        for card in range(lead + 1, suit_base + 13):
            held = (code >> (BITS * card)) & FIELD
            if held:
                counts[card] = min(held, run_only)
            elif truncate:
                gaps += 1
                if gaps > self.run_cap:
                    reach_end = card
                    break
        cap = self.deal.rules.set_size_limit if self.deal.rules.set_allow_same_suit else 1
        for suit in range(4):
            card = lead % 13 + 13 * suit
            if card > lead:
                held = (code >> (BITS * card)) & FIELD
                counts[card] = min(held, max(cap, counts[card] if card < reach_end else 0))
        held = (code >> (BITS * lead)) & FIELD
        counts[lead] = min(held, max(cap, 2)) + 1  # the generators count the lead copy
        return counts

    def _build_rows(self, lead: int, counts: list[int]) -> list[Row]:
        deal, objective = self.deal, self.objective
        options: list[Candidate | Extension] = []
        if self.melds_allowed:
            options += _candidates(lead, counts, deal, self.wild_cap, objective.pure_only,
                                   self.deadline)
        if self.table:
            options += layoffs_led_by(lead, counts, deal, self.table, self.wild_cap)
        return self._distinct_rows(lead, options)

    def _distinct_rows(self, lead: int, options: Sequence[Candidate | Extension]) -> list[Row]:
        """The rows of ``options`` led by (or holding) ``lead``, one per effect
        on the state (the naturals taken, wild slots, class, table meld) unless
        a cost/points trade-off keeps several; bigger melds first, so good
        incumbents come early and the bounds bite."""
        best: dict[tuple[int, ...], list[Row]] = {}
        order: list[tuple[int, ...]] = []
        for option in options:
            row = self._row(lead, option)
            key = (row.delta, row.wilds, row.cls, row.slot)
            kept = best.get(key)
            if kept is None:
                best[key] = [row]
                order.append(key)
            elif not any(k.cost <= row.cost and k.points >= row.points for k in kept):
                kept[:] = [k for k in kept if not (row.cost <= k.cost and row.points >= k.points)]
                kept.append(row)
        rows = [row for key in order for row in best[key]]
        rows.sort(key=lambda row: (-len(row.option.naturals) if row.option else 0, row.wilds))
        return rows

    def _effect_rows(self, card: int, others: int) -> list[Row] | None:
        """Rows of the melds holding ``card`` with other naturals from the
        packed ``others``, from the shared effect tables -- or None when some
        meld's cost depends on what its wild slots stand for (or a table meld
        can be extended), which only the candidates tell."""
        if self.priced or not self.uniform or self.table:
            return None
        key = effect_key(card, others, self.deal.rules, self.wild_cap, self.objective.pure_only)
        if key is None:
            return []
        known = self.rows.get(key)  # hands alike around the card share the rows
        if known is not None:
            return known
        wild_cost, wild_points = self.uniform_entry[1], self.uniform_entry[2]
        dual_fields = self.dual_fields
        rows: list[Row] = []
        effects = effects_of(key, self.deadline)
        rooms: dict[tuple[int, int], int] = {}
        if self.spare_wilds_free:
            effects = _fewest_wilds(effects, self.pure_beats_impure)
        elif self.absorb_spare:
            rooms = _spare_rooms(effects)
            effects = _fewest_wilds(effects, False)
        for delta, wilds, cls in effects:
            dual_used = self._dual_in(delta) if delta & dual_fields else 0
            rows.append(Row(None, delta, wilds, cls, wilds * wild_cost, wilds * wild_points,
                            dual_used, 0, 0, rooms.get((delta, cls), wilds) - wilds))
        self.rows[key] = rows
        _hold_rows(self.rows, 1 + len(rows))
        return rows

    def _option_of(self, row: Row, lead: int, extra: int = 0) -> Candidate | Extension:
        """The meld of ``row`` (led by ``lead``), with ``extra`` more wild slots."""
        if row.option is not None and not extra:
            return row.option
        wilds = row.wilds + extra
        key = ("meld of", self.deal.rules, lead, row.delta, wilds, row.cls,
               self.objective.pure_only)
        known = _CANDIDATES.get(key)  # the same meld recurs across hands
        if known is None:
            # Only the row's own naturals: a handful of candidates to look through.
            counts = unpack(row.delta)
            counts[lead] += 1
            known = [candidate for candidate in melds_led_by(
                lead, counts, self.deal, wilds, self.objective.pure_only)
                if (pack(without(candidate.naturals, lead)), candidate.wilds,
                    class_of(candidate.kind, candidate.pure)) == (row.delta, wilds, row.cls)][:1]
            if not known:
                raise AssertionError("an effect row without its meld")
            _keep_candidates(key, known)
        if not extra:
            row.option = known[0]  # a row belongs to one search space: found once
        return known[0]

    def _row(self, lead: int, option: Candidate | Extension) -> Row:
        deal, objective = self.deal, self.objective
        rest = list(option.naturals)
        rest.remove(lead)
        cost = points = 0
        stand_in = self.stand_in
        for i, rep in enumerate(option.represents if self.priced else ()):
            low = option.low_ace and i == 0
            if option.natural_at[i]:
                cost += objective.meld_cost(rep, rep, deal, low)
                points += melded_points(rep, rep, deal, low)
            elif stand_in is not None:
                cost += objective.meld_cost(stand_in, rep, deal, low)
                points += melded_points(stand_in, rep, deal, low)
        if self.uniform:
            cost += option.wilds * self.uniform_entry[1]
            points += option.wilds * self.uniform_entry[2]
        if isinstance(option, Extension):
            cls, slot, points = -1, 1 << option.table_index, 0
        else:
            cls, slot = class_of(option.kind, option.pure), 0
        return Row(
            option, pack(rest), option.wilds, cls, cost, points,
            sum(1 for c in rest if c in self.dual_types),
            sum(self.card_floor[c] for c in rest), slot,
        )

    # -- the end of the search: the pool pays the debt --------------------------
    def _absorb_room(self, used: int) -> int:
        """Wild cards the table melds not yet extended can still take."""
        room = self.absorb_memo.get(used)
        if room is None:
            room = sum(r for spot, r in zip(self.table, self.absorb_rooms, strict=True)
                       if not used >> spot.index & 1)
            self.absorb_memo[used] = room
        return room

    def _end(self, pool: Pool, debt: int, owed: bool, cstate: int, points: int, used: int,
             room: int = 0) -> int:
        """The pool pays the melds' wild slots; leftover wild cards are laid
        off onto table melds not yet extended (if any) or fill the ``room``
        of the melds made, one is the discard if still owed, the rest stay in
        hand."""
        if not self.accept[cstate]:
            return INFEASIBLE
        if isinstance(pool, int):
            leftover = pool - debt - owed  # wild costs were paid at meld time
            if leftover < 0 or points < self.min_points:
                return INFEASIBLE
            hand_cost, wild_cost, _ = self.uniform_entry
            absorbed = min(leftover, self._absorb_room(used) if self.table else room)
            if self.meld_all and leftover > absorbed:
                return INFEASIBLE
            return absorbed * wild_cost + (leftover - absorbed) * hand_cost
        if debt + owed > len(pool):
            return INFEASIBLE
        if self.min_points and points + sum(e[2] for e in pool[:debt]) < self.min_points:
            return INFEASIBLE
        leftover = len(pool) - debt - owed
        absorbed = min(leftover, self._absorb_room(used)) if self.table else 0
        if self.meld_all and leftover > absorbed:
            return INFEASIBLE
        cost = sum(entry[1] for entry in pool[:debt + absorbed])
        return cost + sum(entry[0] for entry in pool[debt + absorbed + owed:])

    def _add_to_pool(self, pool: Pool, card: int) -> Pool:
        if isinstance(pool, int):
            return pool + 1
        return tuple(sorted((*pool, self._entry(card)), key=_pool_key))

    def _pool_floor(self, pool: Pool, debt: int) -> int:
        if isinstance(pool, int):
            return max(0, pool - debt) * self.wild_floor
        return len(pool) * self.wild_floor

    def _improve(self, total: int) -> None:
        if total < self.incumbent_cost:
            self.incumbent_cost = total
            self.incumbent = tuple(self.path)

    # -- the dynamic programme ---------------------------------------------------
    def best(self, code: int, floor: int, pool: Pool, debt: int, owed: bool, cstate: int,
             points: int, used: int, room: int, g: int, bound: int) -> int:
        """Optimal future cost of the state if below ``bound``, else a lower
        bound >= ``bound``.  ``floor`` is a lower bound on the future cost;
        ``room`` the wild slots the melds made could still take (only under
        ``absorb_spare``); ``g`` the cost of the path so far (for the
        incumbent)."""
        if code == 0:
            value = self._end(pool, debt, owed, cstate, points, used, room)
            if value < INFEASIBLE:
                self._improve(g + value)
            return value
        if isinstance(pool, int):
            spare = pool - debt + self.dual_left
            if spare < 0:
                return INFEASIBLE
            if room > spare:
                room = spare  # no more wild cards can be left over than that
            key: tuple[object, ...] = (code, pool - debt, owed, cstate, points, used, room)
        else:
            key = (code, debt, pool, owed, cstate, points, used)
        hit = self.memo.get(key)
        if hit is not None:
            if hit[1]:
                if hit[0] < INFEASIBLE:
                    self._improve(g + hit[0])
                return hit[0]
            if hit[0] >= bound:
                return hit[0]
        if floor >= bound:
            return floor
        short = self.pure_short[cstate]
        if short and self.pure_reach.pure_sequences_at_most(code, short) < short:
            self.memo[key] = (INFEASIBLE, False, None)
            return INFEASIBLE
        self.nodes += 1
        if self.nodes > self.node_budget or (
                self.nodes & 15 == 0 and self.deadline is not None and self.deadline.expired()):
            raise BudgetExceeded
        lead = ((code & -code).bit_length() - 1) // BITS
        best_value = INFEASIBLE  # best exact value found below the bound
        lower = INFEASIBLE  # lower bound over the options explored or cut
        choice: object = None
        code_after = code - WEIGHT[lead]
        floor_after = floor - self.card_floor[lead]
        is_dual = lead in self.dual_types
        if is_dual:
            self.dual_left -= 1
        path = self.path
        step = self.step[cstate]
        min_points = self.min_points
        available = (pool if isinstance(pool, int) else len(pool)) + self.dual_left
        rows = self.rows.get((code_after & SIGNATURE[lead]) | (lead << _LEAD_SHIFT))
        if rows is None:
            rows = self._options(lead, code_after)
        self.nodes += len(rows)  # work is states plus the options they weigh
        memo = self.memo
        surplus = pool - debt if isinstance(pool, int) else None
        for row in rows:
            if row.slot & used:
                continue  # that table meld was extended already
            wilds = row.wilds
            if wilds and debt + wilds > available - row.dual_used:
                continue  # the pool plus the wild cards still to come cannot pay
            child_state = step[row.cls] if row.cls >= 0 else cstate
            if child_state < 0:
                continue  # would break an exact or at-most limit
            cost = row.cost
            child_floor = floor_after - row.floor_used
            limit = (bound if bound < best_value else best_value) - cost
            if limit > INFEASIBLE:
                limit = INFEASIBLE  # negative costs (max_net) must not make "infeasible" look exact
            if child_floor >= limit:
                if cost + child_floor < lower:
                    lower = cost + child_floor
                continue
            child_points = points + row.points
            if child_points > min_points:
                child_points = min_points
            child_code = code_after - row.delta
            child_room = room + row.room
            hit = None
            if surplus is not None and child_code:
                # The child's memo entry, read here: most children are known.
                spare = surplus - wilds + self.dual_left - row.dual_used
                if child_room > spare:
                    child_room = spare
                hit = memo.get((child_code, surplus - wilds, owed, child_state, child_points,
                                used | row.slot, child_room))
                if hit is not None and not hit[1] and hit[0] < limit:
                    hit = None
            if hit is not None:
                value = hit[0]
                if hit[1] and value < INFEASIBLE and g + cost + value < self.incumbent_cost:
                    path.append(row)
                    self._improve(g + cost + value)
                    path.pop()
            else:
                self.dual_left -= row.dual_used
                path.append(row)
                value = self.best(
                    child_code, child_floor, pool, debt + wilds, owed, child_state,
                    child_points, used | row.slot, child_room, g + cost, limit,
                )
                path.pop()
                self.dual_left += row.dual_used
            if value < limit:
                best_value, choice = cost + value, row
                if best_value <= floor:
                    break  # nothing beats the floor
            if cost + value < lower:
                lower = cost + value
        if best_value > floor:
            moves: list[tuple[int, int, Pool, bool, str]]
            if is_dual:
                new_pool = self._add_to_pool(pool, lead)
                moves = [(0, floor_after + self._pool_floor(new_pool, debt)
                          - self._pool_floor(pool, debt), new_pool, owed, "pool")]
            else:
                moves = [] if self.meld_all else [
                    (self.hand_cost[lead], floor_after, pool, owed, "dead")]
                if owed:
                    moves.append((0, floor_after, pool, False, "discard"))
            for cost, child_floor, child_pool, child_owed, label in moves:
                limit = (bound if bound < best_value else best_value) - cost
                if limit > INFEASIBLE:
                    limit = INFEASIBLE
                if child_floor >= limit:
                    lower = min(lower, cost + child_floor)
                    continue
                path.append(label)
                value = self.best(code_after, child_floor, child_pool, debt, child_owed, cstate,
                                  points, used, room, g + cost, limit)
                path.pop()
                if value < limit:
                    best_value, choice = cost + value, label
                lower = min(lower, cost + value)
        if is_dual:
            self.dual_left += 1
        if best_value < bound:
            self.memo[key] = (best_value, True, choice)
            return best_value
        result = max(lower, bound)
        if result >= _HALF:
            result = INFEASIBLE  # every option infeasible (sums of costs stay far below)
        self.memo[key] = (result, False, None)
        return result

    # -- rebuild an arrangement ------------------------------------------------
    def arrangement(self, root: Root, path: Sequence[Choice] = ()) -> Arrangement:
        """The arrangement of ``root`` that follows ``path`` (the choices from
        the root, e.g. the incumbent's) and then the memo's exact choices."""
        return self._replay((root.code, self._initial_pool(root), 0, root.owed, 0, 0, 0, 0),
                            [JOKER] * root.jokers, [], [], None, 0, path)

    def _replay(self, state: State, pool_cards: list[int], chosen: list[Candidate | Extension],
                deadwood: list[int], discard: int | None, cost: int,
                path: Sequence[Choice] = ()) -> Arrangement:
        """Follow ``path``, then the memo's exact choices, from ``state`` to the end."""
        debt, owed, used, discard, cost = self._follow(state, pool_cards, chosen, deadwood,
                                                       discard, cost, path)
        wild_iter = iter(pool_cards[:debt])
        filled = [(cand, tuple(next(wild_iter) for _ in range(cand.wilds))) for cand in chosen]
        placed = tuple(PlacedMeld(c, w) for c, w in filled if isinstance(c, Candidate))
        laid = tuple((c, w) for c, w in filled if isinstance(c, Extension))
        absorbed, leftover, thrown = self._leftover(pool_cards, debt, owed, used)
        deadwood.extend(leftover)
        return Arrangement(placed, laid, tuple(absorbed), tuple(sorted(deadwood)),
                           discard if thrown is None else thrown, cost)

    def _discard_after(self, state: State, pool_cards: list[int]) -> int | None:
        """The discard of the arrangement ``_replay`` would build from ``state``
        (None when none is owed), without building it."""
        debt, owed, used, discard, _ = self._follow(state, pool_cards, None, [], None, 0)
        thrown = self._leftover(pool_cards, debt, owed, used)[2]
        return discard if thrown is None else thrown

    def _dual_in(self, code: int) -> int:
        """Wild-capable naturals (copies) in ``code``."""
        return sum((code >> (BITS * c)) & FIELD for c in self.dual_types)

    def _follow(self, state: State, pool_cards: list[int],
                chosen: list[Candidate | Extension] | None, deadwood: list[int],
                discard: int | None, cost: int, path: Sequence[Choice] = (),
                ) -> tuple[int, bool, int, int | None, int]:
        """Walk ``path``, then the memo's exact choices, to the end; collects the
        pooled cards (sorted, most valuable first), melds (unless ``chosen``
        is None; spare wild cards filling their room) and deadwood, and
        returns (wild cards melded, discard still owed, used table melds,
        discard, cost)."""
        code, pool, debt, owed, cstate, points, used, room = state
        steps = iter(path)
        made: list[tuple[Row, int]] = []
        while code:
            if room and isinstance(pool, int):
                room = min(room, pool - debt + self._dual_in(code))
            choice: Choice | None = next(steps, None)
            if choice is None:
                if isinstance(pool, int):
                    key: tuple[object, ...] = (code, pool - debt, owed, cstate, points, used, room)
                else:
                    key = (code, debt, pool, owed, cstate, points, used)
                _, exact, remembered = self.memo[key]
                assert exact and isinstance(remembered, Row | str)
                choice = remembered
            lead = ((code & -code).bit_length() - 1) // BITS
            code -= WEIGHT[lead]
            if choice == "pool":
                pool = self._add_to_pool(pool, lead)
                pool_cards.append(lead)
            elif choice == "dead":
                deadwood.append(lead)
                cost += self.hand_cost[lead]
            elif choice == "discard":
                discard, owed = lead, False
            else:
                assert isinstance(choice, Row)
                made.append((choice, lead))
                code -= choice.delta
                debt += choice.wilds
                if choice.cls >= 0:
                    cstate = self.step[cstate][choice.cls]
                points = min(points + choice.points, self.min_points)
                used |= choice.slot
                room += choice.room
                cost += choice.cost
        end = self._end(pool, debt, owed, cstate, points, used, room)
        assert end < INFEASIBLE
        # The wild cards the melds' room takes (the table's are laid off later).
        spare = 0 if self.table or not isinstance(pool, int) else min(pool - debt - owed, room)
        debt += spare
        if chosen is not None:
            for row, lead in made:
                extra = min(spare, row.room)
                spare -= extra
                chosen.append(self._option_of(row, lead, extra))
        pool_cards.sort(key=lambda c: (*_pool_key(self._entry(c)), c))
        return debt, owed, used, discard, cost + end

    def _leftover(self, pool_cards: list[int], debt: int, owed: bool, used: int,
                  ) -> tuple[list[tuple[int, int]], list[int], int | None]:
        """The pooled cards left after the wild slots (``debt``) are paid:
        those laid off alone onto table melds as (table index, card), those
        kept, and the discard when one is still owed."""
        leftover = pool_cards[debt:]
        absorbed: list[tuple[int, int]] = []
        if self.table:
            room = min(len(leftover) - owed, self._absorb_room(used))
            spots = iter((spot.index, r) for spot, r in zip(self.table, self.absorb_rooms, strict=True)
                         if not used >> spot.index & 1 for _ in range(r))
            absorbed = [(next(spots)[0], card) for card in leftover[:room]]
            leftover = leftover[room:]
        return absorbed, leftover, leftover.pop(0) if owed else None

    # -- one more card, decided first: the draws of a hint ----------------------
    def _draw_fate(self, hand: Root, card: int, bound: int, keep: bool,
                   ) -> tuple[int, tuple[State, str | Row] | None]:
        """The best fate of the drawn ``card`` below ``bound``: its total cost
        and (the state after it, the fate), or a value >= ``bound`` and None.

        The drawn card's fate is decided first -- discarded (when ``hand``
        owes a discard and not ``keep``: a card taken from the discard pile
        may not go straight back), kept unmelded, pooled (a wild card), or in
        a meld with cards of the hand -- so every state searched afterwards
        belongs to the hand alone and the memo serves every draw of it."""
        base_pool = self._initial_pool(hand)
        code, owed = hand.code, hand.owed
        # (cost, floor, state after the fate, wild-capable naturals left, fate)
        fates: list[tuple[int, int, State, int, str | Row]] = []
        if owed and not keep:
            fates.append((0, hand.floor, (code, base_pool, 0, False, 0, 0, 0, 0), hand.dual,
                          "discard"))
        if card in self.deal.wild:
            pooled = self._add_to_pool(base_pool, card)
            floor = hand.floor + self._pool_floor(pooled, 0) - self._pool_floor(base_pool, 0)
            fates.append((0, floor, (code, pooled, 0, owed, 0, 0, 0, 0), hand.dual, "pool"))
        elif not self.meld_all:
            fates.append((self.hand_cost[card], hand.floor, (code, base_pool, 0, owed, 0, 0, 0, 0),
                          hand.dual, "dead"))
        if card != JOKER and self.melds_allowed:
            for row in self._through_rows(card, code):
                cstate = self.step[0][row.cls]
                if cstate < 0:
                    continue
                fates.append((row.cost, hand.floor - row.floor_used,
                              (code - row.delta, base_pool, row.wilds, owed, cstate,
                               min(row.points, self.min_points), 0, row.room),
                              hand.dual - row.dual_used, row))
        best_value, best_fate = INFEASIBLE, None
        for cost, floor, state, dual, fate in fates:
            limit = (bound if bound < best_value else best_value) - cost
            if limit > INFEASIBLE:
                limit = INFEASIBLE
            if floor >= limit:
                continue
            self.dual_left = dual
            self.path = []
            code, pool, debt, owed, cstate, points, used, room = state
            value = self.best(code, floor, pool, debt, owed, cstate, points, used, room, 0, limit)
            if value < limit:
                best_value, best_fate = cost + value, (state, fate)
        return best_value, best_fate

    def draw_cost(self, hand: Root, card: int, bound: int = INFEASIBLE,
                  keep: bool = False) -> tuple[int, int | None, bool]:
        """The optimal cost of ``hand`` plus ``card`` if below ``bound`` (else a
        value >= ``bound``), the discard of an optimal arrangement, and
        whether the cost is exact (below ``bound``).  Exact, like ``solve``;
        among discards of equal cost the one named may differ."""
        best_value, best_fate = self._draw_fate(hand, card, bound, keep)
        if best_fate is None:
            return max(best_value, bound), None, False
        state, fate = best_fate
        if fate == "discard":
            return best_value, card, True
        if fate == "pool":
            return best_value, self._discard_after(state, [JOKER] * hand.jokers + [card]), True
        # Many draws end in the same state (every card kept unmelded, say):
        # its discard is walked out of the memo once.
        key = (state, hand.jokers)
        thrown = self.discards.get(key, -1)
        if thrown == -1:
            thrown = self.discards[key] = self._discard_after(state, [JOKER] * hand.jokers)
        return best_value, thrown, True

    def _through_rows(self, card: int, code: int) -> list[Row]:
        """Rows of the melds holding ``card`` with cards of the hand ``code``."""
        key = ("through", card, code & SIGNATURE[card])
        rows = self.rows.get(key)
        if rows is None:
            rows = self._effect_rows(card, code)
            held = 1  # rows from the effect tables are counted under their effect
            if rows is None:
                rows = self._distinct_rows(card, _through_candidates(
                    card, code, self.deal, self.wild_cap, self.objective.pure_only,
                    self.deadline))
                held += len(rows)
            self.rows[key] = rows
            _hold_rows(self.rows, held)
        return rows

    def incumbent_arrangement(self, root: Root) -> Arrangement | None:
        """The best arrangement seen by the last ``solve`` (None if none)."""
        if self.incumbent is None:
            return None
        return self.arrangement(root, self.incumbent)


# ---------------------------------------------------------------------------
# Solving a hand: every pass, cheap ones first


def _pass_bound(best: int | None, caps: Mapping[Pass, int] | None, objective: Pass) -> int:
    """The bound a pass is searched with: at or below the best cost of the
    later passes solved so far (an earlier pass wins ties) and at its cap (a
    cost known to be reachable)."""
    bound = INFEASIBLE if best is None else best + 1
    if caps is not None and caps.get(objective, INFEASIBLE) < bound:
        bound = caps[objective] + 1
    return bound


def _precheck(objective: Pass) -> Pass | None:
    """The feasibility pass worth solving before ``objective`` on one hand:
    only when it requires two or more pure sequences -- whether one can be
    shown, the pure-sequence reach at the root of the pass's own search
    settles exactly (``solver.engines.bounds``).  (The draws keep every
    precheck: one settles a draw before the pass's wild melds through the
    drawn card are even listed.)"""
    precheck = pure_sequences_possible(objective)
    if precheck is None or precheck.limits[0].count <= 1:
        return None
    return precheck


def wild_count(cards: Sequence[int], deal: Deal) -> int:
    """Cards of ``cards`` that may fill a wild slot (the candidate wild cap)."""
    return sum(1 for c in cards if c in deal.wild)


class SearchSession:
    """Many related hands of one deal (every discard, every draw of a hint),
    solved with shared work: one ``PassSearch`` per pass whose memo every
    root reuses, and the shared option rows.  ``wild_cap`` must cover the
    most wild cards any of the hands holds.  Every solve stops at
    ``deadline`` (its work budget is shared by the whole session)."""

    def __init__(self, deal: Deal, wild_cap: int, deadline: Deadline | None = None,
                 node_budget: int = CONFIG.node_budget,
                 passes: Sequence[Pass] | None = None) -> None:
        self.deal = deal
        self.wild_cap = wild_cap
        self.deadline = deadline
        self.node_budget = node_budget
        self.passes = tuple(passes_for(deal) if passes is None else passes)
        self.searches: dict[Pass, PassSearch] = {}
        self.nodes = 0

    def _search(self, objective: Pass) -> PassSearch:
        search = self.searches.get(objective)
        if search is None:
            search = self.searches[objective] = PassSearch(
                self.deal, objective, self.wild_cap, node_budget=self.node_budget,
                deadline=self.deadline)
        return search

    def solve(self, cards: Sequence[int], discard: bool,
              on_pass: Callable[[str, int], None] | None = None) -> EngineResult:
        """The optimum of ``cards`` over every pass, cheap ones first.

        Past the budget or deadline it answers the best arrangement seen
        (``optimal=False``, status ``feasible``), or raises ``BudgetExceeded``
        when it saw none."""
        with gc_paused():
            return self._solve(cards, discard, on_pass)

    def _solve(self, cards: Sequence[int], discard: bool,
               on_pass: Callable[[str, int], None] | None) -> EngineResult:
        winner = self._winner(cards, discard, on_pass)
        nodes = sum(search.nodes for search in self.searches.values())
        spent, self.nodes = nodes - self.nodes, nodes
        if winner is None:
            return EngineResult((), tuple(sorted(cards)), None, INFEASIBLE, "none", "infeasible",
                                True, spent)
        objective, found, proved = winner
        status: Status = "optimal" if proved else "feasible"
        return EngineResult(found.melds, found.deadwood, found.discard, found.cost,
                            objective.name, status, proved, spent)

    def value(self, cards: Sequence[int], discard: bool,
              caps: Mapping[Pass, int] | None = None) -> tuple[int, int | None, bool]:
        """(cost, discarded card, proved) of the optimum of ``cards`` -- what a
        draw hint needs, without building the arrangement.  ``caps`` are
        costs known to be reachable in a pass (they bound its search without
        changing its answer).  Raises ``BudgetExceeded`` when out of time with
        nothing seen; cost is ``INFEASIBLE`` when no arrangement fits."""
        with gc_paused():
            winner = self._winner(cards, discard, None, caps)
        if winner is None:
            return INFEASIBLE, None, True
        _, found, proved = winner
        return found.cost, found.discard, proved

    def draw_value(self, hand: Sequence[int], card: int,
                   caps: Mapping[Pass, int] | None = None,
                   keep: bool = False) -> tuple[int, int | None, bool]:
        """Like ``value`` for ``hand`` plus ``card`` with one card discarded, the
        drawn card decided first (``PassSearch.draw_cost``; ``keep``: not that
        card): every draw of one hand shares the search of the hand."""
        with gc_paused():
            best: tuple[int, int | None] | None = None
            for objective in reversed(self.passes):
                bound = _pass_bound(None if best is None else best[0], caps, objective)
                precheck = pure_sequences_possible(objective)
                if precheck is not None:
                    feasibility = self._search(precheck)
                    # The hand alone shows them: so does every draw (thrown back).
                    alone = not keep and feasibility.solve(
                        feasibility.root(hand, False)) < INFEASIBLE
                    if not alone and not feasibility.draw_cost(
                            feasibility.root(hand, True), card, keep=keep)[2]:
                        continue
                search = self._search(objective)
                cost, thrown, found = search.draw_cost(search.root(hand, True), card, bound, keep)
                if found:
                    best = (cost, thrown)
        if best is None:
            return INFEASIBLE, None, True
        return best[0], best[1], True

    def pass_costs(self, cards: Sequence[int], discard: bool) -> dict[Pass, int]:
        """The optimal cost of ``cards`` in every pass on its own (``INFEASIBLE``
        where it does not fit); raises ``BudgetExceeded`` out of time."""
        costs = {}
        with gc_paused():
            for objective in self.passes:
                search = self._search(objective)
                costs[objective] = search.solve(search.root(cards, discard))
        return costs

    def _winner(self, cards: Sequence[int], discard: bool,
                on_pass: Callable[[str, int], None] | None,
                caps: Mapping[Pass, int] | None = None,
                ) -> tuple[Pass, Arrangement, bool] | None:
        """The best pass, its arrangement and whether it is proved (None when
        no pass fits); raises ``BudgetExceeded`` out of time with nothing seen.
        A pass's search is bounded by its ``caps`` entry too: a reachable cost
        leaves its exact answer (and the arrangement chosen) unchanged."""
        best: tuple[Pass, PassSearch, Root, int] | None = None
        seen: tuple[Pass, Arrangement] | None = None
        proved = True
        # The later passes (pure sequences only) are cheap: solving them first
        # gives the earlier, harder passes a bound.  An earlier pass wins ties,
        # so it only has to come in at or below the best cost so far.
        for objective in reversed(self.passes):
            bound = _pass_bound(None if best is None else best[3], caps, objective)
            precheck = _precheck(objective)
            if precheck is not None:
                feasibility = self._search(precheck)
                try:
                    possible = feasibility.solve(feasibility.root(cards, discard)) < INFEASIBLE
                except DeadlineExceeded:
                    proved = False
                    break
                if not possible:
                    if on_pass is not None:
                        on_pass(objective.name, INFEASIBLE)
                    continue
            search = self._search(objective)
            root = search.root(cards, discard)
            try:
                cost = search.solve(root, bound)
            except DeadlineExceeded:
                proved = False
                found = search.incumbent_arrangement(root)
                if found is not None and found.cost < bound:
                    seen = (objective, found)
                break
            if on_pass is not None:
                on_pass(objective.name, cost)
            if cost < bound:
                best = (objective, search, root, cost)
        if seen is not None:
            return seen[0], seen[1], False
        if best is None:
            if not proved:
                raise BudgetExceeded
            return None
        objective, search, root, _ = best
        return objective, search.arrangement(root), proved


def solve_search(
    instance: Instance,
    node_budget: int = CONFIG.node_budget,
    deadline: Deadline | None = None,
    on_pass: Callable[[str, int], None] | None = None,
    use_tables: bool = True,
    passes: Sequence[Pass] | None = None,
) -> EngineResult:
    """Solve ``instance`` exactly (a one-hand ``SearchSession``).

    One-deck hands without wild cards take the table fast path
    (``solver.engines.bitmask``) unless ``use_tables`` is false.  Past the node
    budget or the deadline it answers the best arrangement seen, with
    ``optimal=False`` and status ``feasible`` (or raises ``BudgetExceeded``
    when it saw none).  ``passes`` replaces the variant's passes (e.g. the
    go-out pass).
    """
    if passes is None and use_tables and bitmask.applies(instance):
        return bitmask.solve_bitmask(instance)
    session = SearchSession(instance.deal, wild_count(instance.cards, instance.deal), deadline,
                            node_budget, passes)
    return session.solve(instance.cards, instance.discard, on_pass)


def _result(found: Arrangement, name: str, status: Status, optimal: bool) -> EngineResult:
    assert not found.layoffs and not found.lone_wilds
    return EngineResult(found.melds, found.deadwood, found.discard, found.cost, name,
                        status, optimal)


def solve_with_table(
    instance: Instance,
    table: Sequence[TableSpot],
    objective: Pass,
    node_budget: int = CONFIG.node_budget,
    deadline: Deadline | None = None,
    melds_allowed: bool = True,
) -> tuple[Arrangement, bool]:
    """Exact best melds plus layoffs onto ``table`` under a single pass;
    returns the arrangement and whether it is proved optimal (past the budget
    or deadline: the best seen).  Raises ``BudgetExceeded`` when none was seen."""
    search = PassSearch(instance.deal, objective, wild_count(instance.cards, instance.deal),
                        table=table, melds_allowed=melds_allowed, node_budget=node_budget,
                        deadline=deadline)
    root = search.root(instance.cards, instance.discard)
    try:
        with gc_paused():
            cost = search.solve(root)
    except DeadlineExceeded:
        found = search.incumbent_arrangement(root)
        if found is None:
            raise
        return found, False
    if cost >= INFEASIBLE:
        raise ValueError("no arrangement: a discard was asked of an empty hand")
    return search.arrangement(root), True
