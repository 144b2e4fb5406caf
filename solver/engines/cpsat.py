"""The CP-SAT engine: the same candidate melds as the search, solved as an
integer programme by OR-Tools CP-SAT, so that the two exact engines check
each other.

One model is built per objective pass (``solver.objective.passes_for``):

* ``x[m]`` -- how many copies of candidate ``m`` are melded (several decks
  allow the same meld twice; bounded by the copies of its naturals);
* per card type ``c`` of the hand: ``dead[c]`` (unmelded kept copies),
  ``disc[c]`` (copies discarded; one in all exactly when a discard is asked
  for) and, for wild-capable types, ``wild[c]`` (copies filling wild slots);
* conservation: naturals melded + wild + dead + disc == copies held, and the
  wild slots of the chosen melds == the wild cards spent on them (any wild
  card can fill any slot, so a shared budget is exact) -- save a slot that
  bars its own card (``solver.melds.barred_fillers``: a wild ace in the
  low-ace slot of its own run is natural there), which the other wild cards
  spent must fill;
* the pass limits (``Pass.limits``: at least / exactly / at most so many
  melds of a class) as linear constraints over the chosen melds, pure
  sequences only where the pass says so, a meld-points threshold, and no
  unmelded card when every card must be melded; in a lower tier
  (``Pass.unless``) one "missed" boolean per requirement item and threshold,
  at least one of them true;
* objective: the pass cost (melded naturals, wild cards melded, unmelded
  cards; all integers already scaled by ``TIE_SCALE``).

The variant's answer is the cheapest pass, an earlier pass winning ties, as in
the search engine.  Candidates that only differ in where their wild slots sit
(5 6 * vs * 5 6) are merged first: every constraint and the objective only see
a candidate's naturals, wild count, class, cost and points.

The deadline is checked while candidates are generated and the model is
built; CP-SAT gets what is left as its time limit (and a matching
deterministic limit), and a cancelled request stops its search.

The result is an ``EngineResult`` whose status says what CP-SAT proved:
``optimal`` only when every pass was solved to optimality (or proved unable
to beat the winner), ``feasible`` when an answer was found but not proved,
``timeout`` (everything left in hand) when no pass found anything in time.
No solver object leaves this module.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver.cards import JOKER, count_vector
from solver.deadline import Deadline, gc_paused
from solver.engines.base import INFEASIBLE, EngineResult, Instance, PlacedMeld, wild_count
from solver.melds import Candidate, all_candidates, barred_fillers, fill_wild_slots
from solver.objective import Pass, class_of, passes_for
from solver.results import Status
from solver.rules import Deal, melded_points

DEFAULT_TIME_LIMIT_S = 2.0
FIRST_PASS_WEIGHT = 3  # the declared (unrestricted) pass is the hard one
_MIN_PASS_TIME_S = 0.001

# A merged candidate: its meaning for the model is this key.
_CandidateKey = tuple[int, tuple[int, ...], int, tuple[int, ...]]
DETERMINISTIC_PER_SECOND = 0.5
"""CP-SAT deterministic time granted per second of wall time (the wall clock is
the backstop; on a quiet machine the deterministic limit ends first)."""


@dataclass(frozen=True, slots=True)
class CpSatConfig:
    """How CP-SAT runs: wall-clock budget for all passes, workers, seed, and
    the deterministic budget (seconds of work: ``None`` follows the wall
    clock) that ends it first on a quiet machine."""

    time_limit_s: float = DEFAULT_TIME_LIMIT_S
    num_workers: int = 1
    seed: int = 0
    work_s: float | None = None


@dataclass(frozen=True, slots=True)
class _PassOutcome:
    """What one pass produced: a proof state and, when found, an arrangement."""

    status: Status  # "optimal", "feasible", "timeout" or "infeasible"
    cost: int
    melds: tuple[PlacedMeld, ...] = ()
    deadwood: tuple[int, ...] = ()
    discard: int | None = None
    work_s: float = 0.0  # the deterministic time it used


def _stand_in(deal: Deal) -> int | None:
    """Any wild card, when a wild slot is worth the card it stands for."""
    if deal.rules.wild_meld_value == "own" or not deal.wild:
        return None
    return min(deal.wild)


def _cost_and_points(candidate: Candidate, objective: Pass, deal: Deal) -> tuple[int, int]:
    """Pass cost and meld points of the candidate's positions that do not
    depend on which wild card fills a slot (naturals; represented slots)."""
    stand_in = _stand_in(deal)
    cost = points = 0
    for i, rep in enumerate(candidate.represents):
        low = candidate.low_ace and i == 0
        card = rep if candidate.natural_at[i] else stand_in
        if card is None:
            continue
        cost += objective.meld_cost(card, rep, deal, low)
        points += melded_points(card, rep, deal, low)
    return cost, points


def _barred(candidate: Candidate, deal: Deal) -> tuple[int, ...]:
    """The cards the candidate's wild slots bar (``solver.melds.barred_fillers``)."""
    return tuple(sorted(c for c in barred_fillers(candidate, deal) if c >= 0))


def _candidate_key(candidate: Candidate, deal: Deal) -> _CandidateKey:
    return (class_of(candidate.kind, candidate.pure), candidate.naturals, candidate.wilds,
            _barred(candidate, deal))


class _PassModel:
    """The CP-SAT model of one pass over one instance."""

    def __init__(
        self,
        instance: Instance,
        objective: Pass,
        candidates: Sequence[Candidate],
        deadline: Deadline | None = None,
    ) -> None:
        self.deadline = deadline
        self.instance = instance
        self.objective = objective
        self.deal = instance.deal
        self.counts = count_vector(instance.cards)
        self.types = sorted(set(instance.cards))
        self.wild_types = [c for c in self.types if c in self.deal.wild]
        self.total_wilds = sum(self.counts[c] for c in self.wild_types)
        self.candidates, self.natural_costs, self.points = self._select(candidates)
        self.model = cp_model.CpModel()
        self.x: list[Any] = []
        self.dead: dict[int, Any] = {}
        self.disc: dict[int, Any] = {}
        self.wild: dict[int, Any] = {}
        self.cost_expr: Any = 0
        self._add_variables()
        self._check()
        self._add_constraints()
        self._check()
        self._add_objective()
        self._check()

    # -- candidates ---------------------------------------------------------
    def _select(self, candidates: Sequence[Candidate]) -> tuple[list[Candidate], list[int], list[int]]:
        """The pass's usable candidates, one per key, keeping the cheapest
        reading (and, under a points threshold, every reading no other beats
        on both cost and points -- or on cost with the same points, in a
        lower tier whose melds must stay below ``unless_points``)."""
        objective = self.objective
        if objective.max_melds == 0:
            return [], [], []
        threshold = objective.points_cap > 0
        either_way = objective.unless_points > 0
        best: dict[_CandidateKey, list[tuple[int, int, Candidate]]] = {}
        for step, cand in enumerate(candidates):
            self._tick(step)
            if objective.pure_only and not cand.pure:
                continue
            if cand.wilds > self.total_wilds:
                continue
            key = _candidate_key(cand, self.deal)
            cost, points = _cost_and_points(cand, objective, self.deal)
            if not threshold:
                points = 0
            kept = best.setdefault(key, [])
            if any(c <= cost and (p == points if either_way else p >= points)
                   for c, p, _ in kept):
                continue
            kept[:] = [(c, p, k) for c, p, k in kept
                       if not (cost <= c and (points == p if either_way else points >= p))]
            kept.append((cost, points, cand))
        chosen = [entry for entries in best.values() for entry in entries]
        return ([cand for _, _, cand in chosen], [cost for cost, _, _ in chosen],
                [points for _, points, _ in chosen])

    def _copies_bound(self, cand: Candidate) -> int:
        """How many times the candidate can be melded at once."""
        uses = Counter(cand.naturals)
        bound = min(self.counts[c] // k for c, k in uses.items())
        if cand.wilds:
            bound = min(bound, self.total_wilds // cand.wilds)
        if self.objective.max_melds is not None:
            bound = min(bound, self.objective.max_melds)
        return bound

    # -- model ----------------------------------------------------------------
    def _check(self) -> None:
        """Check the deadline between the phases of building the model: each
        sums an expression over every candidate, without a check inside."""
        if self.deadline is not None:
            self.deadline.check()

    def _tick(self, step: int) -> None:
        """Check the deadline every 256 steps of a loop that grows with the model."""
        if step & 255 == 255 and self.deadline is not None:
            self.deadline.check()

    def _add_variables(self) -> None:
        model = self.model
        for m, cand in enumerate(self.candidates):
            self._tick(m)
            self.x.append(model.new_int_var(0, self._copies_bound(cand), f"x{m}"))
        discard_cap = 1 if self.instance.discard else 0
        for c in self.types:
            held = self.counts[c]
            self.dead[c] = model.new_int_var(0, held, f"dead{c}")
            self.disc[c] = model.new_int_var(0, min(held, discard_cap), f"disc{c}")
            if c in self.deal.wild:
                self.wild[c] = model.new_int_var(0, held, f"wild{c}")

    def _add_constraints(self) -> None:
        model = self.model
        objective = self.objective
        melded: dict[int, list[tuple[int, Any]]] = {c: [] for c in self.types}
        for m, (var, cand) in enumerate(zip(self.x, self.candidates, strict=True)):
            self._tick(m)
            for c, k in Counter(cand.naturals).items():
                melded[c].append((k, var))
        for c in self.types:
            terms = [k * var for k, var in melded[c]]
            terms += [self.dead[c], self.disc[c]]
            if c in self.wild:
                terms.append(self.wild[c])
            model.add(sum(terms) == self.counts[c])
        model.add(sum(self.disc.values()) == (1 if self.instance.discard else 0))
        slots = [cand.wilds * var for var, cand in zip(self.x, self.candidates, strict=True)
                 if cand.wilds]
        model.add(sum(slots) == sum(self.wild.values()))
        barring: dict[int, list[Any]] = {}
        for var, cand in zip(self.x, self.candidates, strict=True):
            for card in _barred(cand, self.deal):
                barring.setdefault(card, []).append(var)
        for card, uses in barring.items():
            model.add(sum(uses) <= sum(var for c, var in self.wild.items() if c != card))
        for limit in objective.limits:
            self._check()
            counted = sum(var for var, cand in zip(self.x, self.candidates, strict=True)
                          if limit.counts(cand.kind, cand.pure))
            if limit.op == "at_least":
                model.add(counted >= limit.count)
            elif limit.op == "exactly":
                model.add(counted == limit.count)
            else:
                model.add(counted <= limit.count)
        if objective.min_points:
            model.add(self._meld_points() >= objective.min_points)
        if objective.unless is not None:
            self._add_unless(objective)
        if objective.meld_all:
            for var in self.dead.values():
                model.add(var == 0)

    def _meld_points(self) -> Any:
        """What the chosen melds are worth (towards a points threshold)."""
        own = [self.deal.meld_points[c] * var for c, var in self.wild.items()] \
            if self.deal.rules.wild_meld_value == "own" else []
        return sum(p * var for p, var in zip(self.points, self.x, strict=True) if p) + sum(own)

    def _add_unless(self, objective: Pass) -> None:
        """A lower tier: the melds miss one of ``unless`` or its points."""
        model = self.model
        missed = []
        for limit in objective.unless or ():
            counted = sum(var for var, cand in zip(self.x, self.candidates, strict=True)
                          if limit.counts(cand.kind, cand.pure))
            miss = model.new_bool_var(f"misses_{limit.kind}")
            if limit.op == "at_least":
                model.add(counted < limit.count).only_enforce_if(miss)
            elif limit.op == "exactly":
                model.add(counted != limit.count).only_enforce_if(miss)
            else:
                model.add(counted > limit.count).only_enforce_if(miss)
            missed.append(miss)
        if objective.unless_points:
            miss = model.new_bool_var("misses_points")
            model.add(self._meld_points() < objective.unless_points).only_enforce_if(miss)
            missed.append(miss)
        model.add_bool_or(missed)

    def _add_objective(self) -> None:
        objective, deal = self.objective, self.deal
        terms: list[Any] = [cost * var for cost, var in zip(self.natural_costs, self.x, strict=True)
                            if cost]
        for c in self.types:
            terms.append(objective.hand_cost(c, deal) * self.dead[c])
            if c in self.wild:
                wild_cost = objective.meld_cost(c, -1, deal, False)
                if wild_cost:
                    terms.append(wild_cost * self.wild[c])
        self.cost_expr = sum(terms)
        self.model.minimize(self.cost_expr)

    def add_upper_bound(self, bound: int) -> None:
        """Only arrangements costing at most ``bound`` are wanted."""
        self.model.add(self.cost_expr <= bound)

    def add_hint(self, hint: EngineResult) -> None:
        """Hint CP-SAT with another engine's arrangement (it may be partial)."""
        index = {_candidate_key(c, self.deal): m for m, c in enumerate(self.candidates)}
        uses = [0] * len(self.candidates)
        for placed in hint.melds:
            m = index.get(_candidate_key(placed.candidate, self.deal))
            if m is not None:
                uses[m] += 1
        for var, value in zip(self.x, uses, strict=True):
            self.model.add_hint(var, value)
        wilds = Counter(c for placed in hint.melds for c in placed.wild_cards)
        dead = Counter(hint.deadwood)
        for c in self.types:
            self.model.add_hint(self.dead[c], min(dead[c], self.counts[c]))
            self.model.add_hint(self.disc[c], 1 if hint.discard == c else 0)
            if c in self.wild:
                self.model.add_hint(self.wild[c], min(wilds[c], self.counts[c]))

    def size(self) -> dict[str, int]:
        """Merged candidates, variables, constraints and their linear terms."""
        proto = self.model.proto
        return {
            "candidates": len(self.candidates),
            "variables": len(proto.variables),
            "constraints": len(proto.constraints),
            "linear_terms": sum(len(ct.linear.vars) for ct in proto.constraints),
        }

    # -- solve --------------------------------------------------------------
    def solve(self, time_limit_s: float, config: CpSatConfig,
              deadline: Deadline | None = None, work_s: float | None = None) -> _PassOutcome:
        """Run CP-SAT within ``time_limit_s`` (and ``work_s`` of deterministic
        work, by default what the wall time buys) and read the arrangement back."""
        solver = cp_model.CpSolver()
        limit = max(time_limit_s, _MIN_PASS_TIME_S)
        solver.parameters.max_time_in_seconds = limit
        solver.parameters.max_deterministic_time = max(
            (limit if work_s is None else work_s) * DETERMINISTIC_PER_SECOND, 0.001)
        solver.parameters.num_workers = config.num_workers
        solver.parameters.random_seed = config.seed
        watcher = _CancelWatcher(solver, deadline) if deadline is not None and \
            deadline.at != math.inf else None
        try:
            code = solver.solve(self.model)
        finally:
            if watcher is not None:
                watcher.stop()
        used = solver.response_proto.deterministic_time / DETERMINISTIC_PER_SECOND
        if code == cp_model.INFEASIBLE:
            return _PassOutcome("infeasible", INFEASIBLE, work_s=used)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            # UNKNOWN (time out) and, defensively, MODEL_INVALID.
            return _PassOutcome("timeout", INFEASIBLE, work_s=used)
        status: Status = "optimal" if code == cp_model.OPTIMAL else "feasible"
        return dataclasses.replace(self._read(solver, status), work_s=used)

    def _read(self, solver: Any, status: Status) -> _PassOutcome:
        """The arrangement in the solver's incumbent (values are plain ints)."""
        value = solver.value
        wild_cards: list[int] = []
        for c, var in self.wild.items():
            wild_cards += [c] * int(value(var))
        # Any wild card can fill any slot (save one that bars it); printed
        # jokers go first, for a stable answer.
        wild_cards.sort(key=lambda c: (c != JOKER, c))
        chosen: list[Candidate] = []
        cost = 0
        for var, cand, natural_cost in zip(self.x, self.candidates, self.natural_costs,
                                           strict=True):
            for _ in range(int(value(var))):
                chosen.append(cand)
                cost += natural_cost
        melds = [PlacedMeld(cand, wilds) for cand, wilds in
                 zip(chosen, fill_wild_slots(chosen, wild_cards, self.deal), strict=True)]
        deadwood: list[int] = []
        discard: int | None = None
        for c in self.types:
            dead = int(value(self.dead[c]))
            deadwood += [c] * dead
            cost += dead * self.objective.hand_cost(c, self.deal)
            if int(value(self.disc[c])):
                discard = c
        for c in wild_cards:
            cost += self.objective.meld_cost(c, -1, self.deal, False)
        return _PassOutcome(status, cost, tuple(melds), tuple(sorted(deadwood)), discard)


class _CancelWatcher:
    """Stops a CP-SAT search within ~20 ms of its request being cancelled or
    its deadline passing (the time limit alone lets presolve on a large model
    run past it)."""

    def __init__(self, solver: Any, deadline: Deadline) -> None:
        self.solver = solver
        self.deadline = deadline
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done.wait(0.02):
            if self.deadline.expired():
                self.solver.stop_search()
                return

    def stop(self) -> None:
        self.done.set()
        self.thread.join()


def _pass_time_limit(passes: Sequence[Pass], index: int, remaining_s: float) -> float:
    """This pass's share of the remaining budget (unused time rolls over)."""
    weights = [FIRST_PASS_WEIGHT if i == 0 else 1 for i in range(len(passes))]
    return remaining_s * weights[index] / sum(weights[index:])


def _fallback(instance: Instance, objective: Pass, status: Status) -> EngineResult:
    """Nothing melded: every card in the deadwood, the costliest one discarded."""
    cards = list(instance.cards)
    discard = None
    if instance.discard:
        discard = max(cards, key=lambda c: (objective.hand_cost(c, instance.deal), c))
        cards.remove(discard)
    cost = sum(objective.hand_cost(c, instance.deal) for c in cards)
    return EngineResult((), tuple(cards), discard, cost, objective.name, status, False)


def _candidates_for(instance: Instance, deadline: Deadline | None = None) -> list[Candidate]:
    counts = count_vector(instance.cards)
    return all_candidates(counts, instance.deal, wild_count(instance.cards, instance.deal), deadline)


def solve_cpsat(
    instance: Instance,
    time_limit_s: float = DEFAULT_TIME_LIMIT_S,
    num_workers: int = 1,
    seed: int = 0,
    hint: EngineResult | None = None,
    deadline: Deadline | None = None,
    passes: Sequence[Pass] | None = None,
    work_s: float | None = None,
) -> EngineResult:
    """Solve ``instance`` with CP-SAT, one model per objective pass.

    ``time_limit_s`` bounds the whole call (split across the passes, the
    first getting the largest share) and so does ``deadline``; ``work_s``
    is a deterministic budget split the same way (so the same request gives
    the same answer on a quiet machine; by default the wall time); ``hint`` (e.g.
    the search engine's best arrangement) is given to the pass it came from
    and the answer is never worse than it.  Never raises on a solver status:
    see the module docstring for the mapping.  Raises ``DeadlineExceeded``
    when the deadline passes while the model is still being built.
    """
    config = CpSatConfig(time_limit_s, num_workers, seed, work_s)
    started = time.perf_counter()
    if deadline is not None:
        config = CpSatConfig(min(time_limit_s, max(0.0, deadline.remaining_s())), num_workers,
                             seed, work_s)
    passes = passes_for(instance.deal) if passes is None else tuple(passes)
    with gc_paused():
        return _solve_passes(instance, passes, config, started, hint, deadline)


def _solve_passes(instance: Instance, passes: Sequence[Pass], config: CpSatConfig,
                  started: float, hint: EngineResult | None,
                  deadline: Deadline | None) -> EngineResult:
    candidates = _candidates_for(instance, deadline)
    best: _PassOutcome | None = None
    best_name = ""
    proved = True
    work_left = config.work_s
    for index, objective in enumerate(passes):
        if deadline is not None:
            deadline.check()
        pass_model = _PassModel(instance, objective, candidates, deadline)
        if best is not None:
            pass_model.add_upper_bound(best.cost - 1)  # ties go to the earlier pass
        if hint is not None and hint.pass_name == objective.name:
            pass_model.add_hint(hint)
        remaining = config.time_limit_s - (time.perf_counter() - started)
        work = None if work_left is None else _pass_time_limit(passes, index, work_left)
        outcome = pass_model.solve(_pass_time_limit(passes, index, remaining), config, deadline,
                                   work)
        if work_left is not None:
            work_left = max(0.0, work_left - outcome.work_s)
        if outcome.status in ("timeout", "feasible"):
            proved = False
        if outcome.status in ("optimal", "feasible") and (best is None or outcome.cost < best.cost):
            best, best_name = outcome, objective.name
    if hint is not None and hint.cost < INFEASIBLE and (best is None or hint.cost < best.cost):
        return EngineResult(hint.melds, hint.deadwood, hint.discard, hint.cost, hint.pass_name,
                            "feasible", False)
    if best is None:
        if proved:
            return EngineResult((), tuple(instance.cards), None, INFEASIBLE, "none",
                                "infeasible", True)
        return _fallback(instance, passes[-1], "timeout")
    final: Status = "optimal" if proved else "feasible"
    return EngineResult(best.melds, best.deadwood, best.discard, best.cost, best_name,
                        final, proved)


def model_size(instance: Instance) -> dict[str, int]:
    """Size of the CP-SAT model of the first (declared) pass of ``instance``."""
    objective = passes_for(instance.deal)[0]
    return _PassModel(instance, objective, _candidates_for(instance)).size()
