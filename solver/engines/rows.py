"""What a lead card can do in one pass of the search: its option *rows*.

When the search (``solver.engines.search``) decides the lowest card type still
held, each option that melds it is a ``Row``: the other naturals it takes (a
packed code), its wild slots, its meld class, its cost and points.  Rows come
from the candidate generator (``solver.melds``: melds led by the card, layoffs
onto table melds) or, when no meld's cost depends on what its wild slots stand
for, from the shared effect tables (``solver.engines.through``), one row per
distinct effect on the state.  They depend only on the counts around the lead
card, so they are cached by that signature (``solver.engines.caches``).

``OptionRows`` is the row-building half of ``PassSearch``: the search reads
its rows, an arrangement finds a row's meld (``option_of``), the draws read
the rows through a drawn card (``through_rows``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import NUM_CARD_TYPES, without
from solver.deadline import Deadline
from solver.engines.caches import (
    RowCache,
    candidates,
    hold_rows,
    keep_candidates,
    known_candidates,
    through_candidates,
)
from solver.engines.costs import PassCosts
from solver.engines.packed import BITS, FIELD, LEAD_SHIFT, SIGNATURE, pack, unpack
from solver.engines.through import Effect, effect_key, effects_of
from solver.melds import (
    Candidate,
    Extension,
    TableSpot,
    barred_fillers,
    layoffs_led_by,
    melds_led_by,
)
from solver.objective import Pass, class_of
from solver.rules import Deal, melded_points

_PURE_RUN = class_of("run", True)
_RUN = class_of("run", False)


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
    (when spare wild cards are absorbed at the end, see ``PassCosts``);
    ``barred`` the cards its wild slots bar (``PassCosts.barred``; a slot
    barring none is left out).
    ``option`` is None for a row read from the effect tables
    (``solver.engines.through``): an arrangement that uses it finds its meld
    among the candidates then (``OptionRows.option_of``), and kept.  Rows are
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
    barred: tuple[int, ...] = ()


def fewest_wilds(effects: Sequence[Effect], pure_beats_impure: bool) -> list[Effect]:
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


def spare_rooms(effects: Sequence[Effect]) -> dict[tuple[int, int], int]:
    """The most wild slots listed per (naturals, class): a meld with fewer
    can take more up to there (the generator lists every count between)."""
    most: dict[tuple[int, int], int] = {}
    for delta, wilds, cls in effects:
        if wilds > most.get((delta, cls), -1):
            most[(delta, cls)] = wilds
    return most


def _covers(kept: Row, row: Row, either_way: bool) -> bool:
    """``kept`` is as good as ``row`` (no dearer, as many points -- the same
    number when fewer may be better)."""
    if either_way:
        return kept.cost <= row.cost and kept.points == row.points
    return kept.cost <= row.cost and kept.points >= row.points


class OptionRows:
    """The option rows of one search (the row-building half of ``PassSearch``,
    which sets these attributes).

    ``spare_wilds_free`` / ``absorb_spare`` are the ``PassCosts`` flags of
    the same names, off when the search has table melds; ``rows`` is the row
    space the search reads and fills (shared across searches without table
    melds); ``run_cap`` the most wild slots a run may have; ``truncate``
    whether a run's options may ignore ranks past the gaps it cannot cross.
    """

    deal: Deal
    objective: Pass
    costs: PassCosts
    wild_cap: int
    table: tuple[TableSpot, ...]
    melds_allowed: bool
    deadline: Deadline | None
    rows: RowCache[Row]
    spare_wilds_free: bool
    absorb_spare: bool
    run_cap: int
    truncate: bool

    def options(self, lead: int, code: int) -> list[Row]:
        """The rows of ``lead`` with the other cards ``code`` (cached by the
        counts that shape them)."""
        signature = (code & SIGNATURE[lead]) | (lead << LEAD_SHIFT)
        rows = self.rows.get(signature)
        if rows is not None:
            return rows
        if self.deadline is not None:
            self.deadline.check()
        if self.melds_allowed:
            rows = self._effect_rows(lead, code)
            if rows is not None:
                self.rows[signature] = rows
                hold_rows(self.rows, 1)  # the rows themselves are counted under their effect
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
        hold_rows(self.rows, added)
        return rows

    def through_rows(self, card: int, code: int) -> list[Row]:
        """Rows of the melds holding ``card`` with cards of the hand ``code``
        (a drawn card decided first: ``solver.engines.draws``)."""
        key = ("through", card, code & SIGNATURE[card])
        rows = self.rows.get(key)
        if rows is None:
            rows = self._effect_rows(card, code)
            held = 1  # rows from the effect tables are counted under their effect
            if rows is None:
                rows = self._distinct_rows(card, through_candidates(
                    card, code, self.deal, self.wild_cap, self.objective.pure_only,
                    self.deadline))
                held += len(rows)
            self.rows[key] = rows
            hold_rows(self.rows, held)
        return rows

    def option_of(self, row: Row, lead: int, extra: int = 0) -> Candidate | Extension:
        """The meld of ``row`` (led by ``lead``), with ``extra`` more wild slots."""
        if row.option is not None and not extra:
            return row.option
        wilds = row.wilds + extra
        key = ("meld of", self.deal.rules, lead, row.delta, wilds, row.cls,
               self.objective.pure_only)
        known = known_candidates(key)  # the same meld recurs across hands
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
            keep_candidates(key, known)
        if not extra:
            row.option = known[0]  # a row belongs to one search space: found once
        return known[0]

    def dual_in(self, code: int) -> int:
        """Wild-capable naturals (copies) in ``code``."""
        return sum((code >> (BITS * c)) & FIELD for c in self.costs.dual_types)

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
            options += candidates(lead, counts, deal, self.wild_cap, objective.pure_only,
                                  self.deadline)
        if self.table:
            options += layoffs_led_by(lead, counts, deal, self.table, self.wild_cap)
        return self._distinct_rows(lead, options)

    def _distinct_rows(self, lead: int, options: Sequence[Candidate | Extension]) -> list[Row]:
        """The rows of ``options`` led by (or holding) ``lead``, one per effect
        on the state (the naturals taken, wild slots, class, table meld, cards
        barred) unless
        a cost/points trade-off keeps several (points either way under
        ``unless_points``, which fewer points may stay below); bigger melds
        first, so good incumbents come early and the bounds bite."""
        either_way = self.costs.unless_points > 0
        best: dict[tuple[object, ...], list[Row]] = {}
        order: list[tuple[object, ...]] = []
        for option in options:
            row = self._row(lead, option)
            key = (row.delta, row.wilds, row.cls, row.slot, row.barred)
            kept = best.get(key)
            if kept is None:
                best[key] = [row]
                order.append(key)
            elif not any(_covers(k, row, either_way) for k in kept):
                kept[:] = [k for k in kept if not _covers(row, k, either_way)]
                kept.append(row)
        rows = [row for key in order for row in best[key]]
        rows.sort(key=lambda row: (-len(row.option.naturals) if row.option else 0, row.wilds))
        return rows

    def _effect_rows(self, card: int, others: int) -> list[Row] | None:
        """Rows of the melds holding ``card`` with other naturals from the
        packed ``others``, from the shared effect tables -- or None when some
        meld's cost depends on what its wild slots stand for (or a table meld
        can be extended), which only the candidates tell."""
        costs = self.costs
        if costs.priced or not costs.uniform or self.table:
            return None
        key = effect_key(card, others, self.deal.rules, self.wild_cap, self.objective.pure_only)
        if key is None:
            return []
        known = self.rows.get(key)  # hands alike around the card share the rows
        if known is not None:
            return known
        wild_cost, wild_points = costs.uniform_entry[1], costs.uniform_entry[2]
        dual_fields = costs.dual_fields
        rows: list[Row] = []
        effects = effects_of(key, self.deadline)
        rooms: dict[tuple[int, int], int] = {}
        if self.spare_wilds_free:
            effects = fewest_wilds(effects, costs.pure_beats_impure)
        elif self.absorb_spare:
            rooms = spare_rooms(effects)
            effects = fewest_wilds(effects, False)
        for delta, wilds, cls in effects:
            dual_used = self.dual_in(delta) if delta & dual_fields else 0
            rows.append(Row(None, delta, wilds, cls, wilds * wild_cost, wilds * wild_points,
                            dual_used, 0, 0, rooms.get((delta, cls), wilds) - wilds))
        self.rows[key] = rows
        hold_rows(self.rows, 1 + len(rows))
        return rows

    def _row(self, lead: int, option: Candidate | Extension) -> Row:
        deal, objective, costs = self.deal, self.objective, self.costs
        rest = list(option.naturals)
        rest.remove(lead)
        cost = points = 0
        stand_in = costs.stand_in
        for i, rep in enumerate(option.represents if costs.priced else ()):
            low = option.low_ace and i == 0
            if option.natural_at[i]:
                cost += objective.meld_cost(rep, rep, deal, low)
                points += melded_points(rep, rep, deal, low)
            elif stand_in is not None:
                cost += objective.meld_cost(stand_in, rep, deal, low)
                points += melded_points(stand_in, rep, deal, low)
        if costs.uniform:
            cost += option.wilds * costs.uniform_entry[1]
            points += option.wilds * costs.uniform_entry[2]
        if isinstance(option, Extension):
            cls, slot, points = -1, 1 << option.table_index, 0
        else:
            cls, slot = class_of(option.kind, option.pure), 0
        barred = tuple(c for c in barred_fillers(option, deal) if c in costs.barred) \
            if costs.barred else ()
        return Row(
            option, pack(rest), option.wilds, cls, cost, points,
            sum(1 for c in rest if c in costs.dual_types),
            sum(costs.card_floor[c] for c in rest), slot, barred=barred,
        )
