"""Play hints for games that show a player what to do (RULES.md section 7).

* ``discard_hint`` -- every distinct discard of a hand holding one card more
  than it keeps, ranked by the optimum of the cards kept (ties grouped).
* ``draw_hint`` -- take the discard-pile top (and its best discard) or draw
  blind: the **exact** expected optimum over the unseen cards (the deck minus
  the hand, the seen cards, the pile top and the cut card when it is known),
  as a fraction.
* ``layoffs_hint`` -- which hand cards extend which table melds (runs by
  several cards at once; wild cards with their meaning) and the best mix of
  new melds and layoffs under the variant's objective.
* ``pile_hint`` (``rummy500``, ``rommy``) -- for each depth of the discard
  pile, whether taking down to that card is legal (below the top, the deepest
  card taken must be melded or laid off at once), the ways to use it and the
  resulting net; ``rommy`` charges ``pile_penalty`` when no way exists.

The *optimum* of a hand is what ``solve`` optimises: the deadwood
(``min_deadwood``), the net (``max_net``, higher is better) or the uncapped
cascade count (Indian).  Each hint asks one ``solver.session.Session`` about
all of its hands, so they share the search's work.

>>> hint = discard_hint("2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D", "gin")
>>> [(card_name(o.discard), o.value, o.rank) for o in hint.options[:2]]
[('6S', 9, 1), ('5S', 10, 2)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from solver.cards import (
    NUM_CARD_TYPES,
    InvalidHandError,
    card_name,
    parse_card,
    parse_cards,
    sort_key,
    without,
)
from solver.deadline import Deadline, DeadlineExceeded, Ticker, gc_paused, play_deadline
from solver.engines.base import INFEASIBLE, wild_count
from solver.errors import is_list
from solver.geometry import GEOMETRY
from solver.layoffs import (
    Layoff,
    LayoffSearch,
    Play,
    TableMeld,
    check_table_size,
    combine,
    count_cards,
    extensions,
    objective_of,
    place,
    read_table,
    table_spot,
    wild_fillings,
)
from solver.melds import Extension, TableSpot, all_candidates, layoffs_led_by
from solver.objective import TIE_SCALE, Pass
from solver.results import Meld, Solution
from solver.rules import (
    MAX_DECK_CARDS,
    MAX_HAND_CARDS,
    Deal,
    check_copies,
    check_hand,
    deck_copies,
    make_deal,
    make_rules,
    refusal_by_knob,
)
from solver.session import Session

Better = Literal["lower", "higher"]
Recommendation = Literal["take_discard", "draw_blind", "either"]

MAX_SEEN_CARDS = MAX_DECK_CARDS
MAX_PILE_CARDS = MAX_DECK_CARDS
MAX_FITS_PER_CARD = 24
MAX_USES = 24


# ---------------------------------------------------------------------------
# Shared


def _deal(variant: str, wild_rank: str | None, rules: Mapping[str, Any] | None) -> Deal:
    return make_deal(make_rules(variant, rules), wild_rank)


def _hand(tokens: str | Iterable[object], deal: Deal, field: str = "hand", minimum: int = 0) -> list[int]:
    cards = parse_cards(tokens, field, MAX_HAND_CARDS)
    check_hand(cards, deal.rules, field)
    if len(cards) < minimum:
        raise InvalidHandError(f"{field} needs at least {minimum} card(s); got {len(cards)}",
                               code="hand_too_small", field=field)
    return cards


def better_of(deal: Deal) -> Better:
    """Whether a higher or a lower optimum is better under the variant."""
    return "higher" if deal.rules.objective == "max_net" else "lower"


def value_of(solution: Solution, deal: Deal) -> int:
    """The optimum ``solve`` reached: net (``max_net``), else deadwood or the
    uncapped cascade count."""
    if deal.rules.objective == "max_net":
        return solution.net_points
    return solution.deadwood_points


def _order_key(value: int | Fraction, declarable: bool, better: Better) -> tuple[int | Fraction, bool]:
    return (value if better == "lower" else -value, not declarable)


class _Hands:
    """The many related hands of one hint, asked of one ``Session`` of many
    hands (shared searches, the bitmask engine where it applies), all under
    the hint's deadline; a solve that runs out answers its best arrangement
    seen, or every card in hand, with ``optimal=False``."""

    def __init__(self, deal: Deal, wild_cap: int, deadline: Deadline) -> None:
        self.deal = deal
        self.session = Session(deal, deadline, "search", wild_cap=wild_cap)

    def solution(self, cards: Sequence[int], discard: bool) -> Solution:
        """``solve``'s answer for ``cards`` (go-out arrangement included)."""
        return self.session.solution(cards, discard)

    def hand_costs(self, hand: Sequence[int]) -> tuple[dict[Pass, int], dict[Pass, int]] | None:
        """The optimal cost of ``hand`` in every pass of the draws (points
        only), kept whole and with one card discarded; None out of time."""
        try:
            return (self.session.pass_costs(hand, False), self.session.pass_costs(hand, True))
        except DeadlineExceeded:
            return None

    def current_value(self, hand: Sequence[int],
                      costs: tuple[dict[Pass, int], dict[Pass, int]] | None) -> tuple[int, bool]:
        """(value, proved) of ``hand`` as it is: from the draws' pass costs
        when known, else from ``solve``'s answer."""
        if costs is None or self.session.bitmask_applies(hand, False):
            solution = self.solution(hand, False)
            return value_of(solution, self.deal), solution.optimal
        return self.points(min(costs[0].values())), True

    def points(self, cost: int) -> int:
        """The value a pass cost stands for (see ``value_of``)."""
        # Pass costs are points * TIE_SCALE (plus one per unmelded card, < TIE_SCALE,
        # in a tie-broken pass).
        points = cost // TIE_SCALE
        return -points if self.deal.rules.objective == "max_net" else points

    def draw_caps(self, costs: tuple[dict[Pass, int], dict[Pass, int]] | None,
                  ) -> Callable[[int], dict[Pass, int]] | None:
        """For the draws to a hand of pass ``costs`` (``hand_costs``): per
        pass, a cost each draw can surely reach -- discard the drawn card (the
        hand's own optimum), or keep it unmelded beside the hand's best
        discard -- to bound its searches."""
        if costs is None:
            return None
        kept, thrown = costs

        def caps(card: int) -> dict[Pass, int]:
            out = {}
            for objective, cost in kept.items():
                cap = cost
                if not objective.meld_all and thrown[objective] < INFEASIBLE:
                    cap = min(cap, thrown[objective] + objective.hand_cost(card, self.deal))
                out[objective] = cap
            return out

        return caps

    def draw_value(self, hand: Sequence[int], card: int,
                   caps: dict[Pass, int] | None = None) -> tuple[int, int | None, bool]:
        """(value, discard, proved) of ``hand`` (sorted) plus a drawn ``card``
        with a discard reaching the optimum, without building a ``Solution``."""
        cost, thrown, proved = self.session.draw_cost(hand, card, caps)
        if cost >= INFEASIBLE or not proved:
            solution = self.session.solution([*hand, card], True, go_out=False)
            return value_of(solution, self.deal), solution.discard, False
        return self.points(cost), thrown, True


# ---------------------------------------------------------------------------
# Discard hint


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One discard: the optimum of the cards kept; equal ``rank`` = a tie."""

    discard: int
    rank: int
    value: int
    solution: Solution

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {"discard": card_name(self.discard), "rank": self.rank, "value": self.value,
                "solution": self.solution.to_dict()}


@dataclass(frozen=True, slots=True)
class DiscardHint:
    """Every distinct discard, best first; ``groups`` lists tied discards."""

    variant: str
    better: Better
    options: tuple[DiscardOption, ...]
    optimal: bool

    @property
    def groups(self) -> list[list[int]]:
        """Discards grouped by rank (ties together), best group first."""
        out: list[list[int]] = []
        previous_rank = None
        for option in self.options:
            if option.rank == previous_rank:
                out[-1].append(option.discard)
            else:
                out.append([option.discard])
            previous_rank = option.rank
        return out

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "variant": self.variant,
            "better": self.better,
            "options": [o.to_dict() for o in self.options],
            "groups": [[card_name(c) for c in g] for g in self.groups],
            "optimal": self.optimal,
        }


def discard_hint(
    hand: str | Iterable[object],
    variant: str,
    *,
    wild_rank: str | None = None,
    rules: Mapping[str, Any] | None = None,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> DiscardHint:
    """Rank every distinct discard of ``hand`` (one card more than is kept) by
    the optimum of the cards kept; tied discards share a rank.

    The whole hint runs by ``time_limit_ms`` (default: the request budget,
    ``RUMMY_SOLVER_REQUEST_BUDGET_MS``) or ``deadline``; an option solved
    past it is the best found and says ``optimal=False``.  The same holds
    for every hint below.  The discards share one search: what one discard
    learns about the rest of the hand, the others reuse.
    """
    until = play_deadline(time_limit_ms, deadline)
    deal = _deal(variant, wild_rank, rules)
    cards = _hand(hand, deal, minimum=1)
    better = better_of(deal)
    hands = _Hands(deal, wild_count(cards, deal), until)
    rows = []
    with gc_paused():  # once for the whole hint: many small searches
        # Highest cards first: the later searches then find more of their
        # states solved (measured: 5% fewer states at the 99th percentile).
        for discard in sorted(set(cards), reverse=True):
            solution = hands.solution(without(cards, discard), False)
            value = value_of(solution, deal)
            rows.append((_order_key(value, solution.declarable, better), discard, value, solution))
    rows.sort(key=lambda row: (row[0], sort_key(row[1])))
    options: list[DiscardOption] = []
    rank = 0
    for position, (key, discard, value, solution) in enumerate(rows):
        if position == 0 or key != rows[position - 1][0]:
            rank = position + 1
        options.append(DiscardOption(discard, rank, value, solution))
    return DiscardHint(deal.rules.name, better, tuple(options),
                       all(o.solution.optimal for o in options))


# ---------------------------------------------------------------------------
# Draw hint


@dataclass(frozen=True, slots=True)
class DrawOutcome:
    """Drawing ``card`` (``copies`` of it unseen): the optimum after the best discard."""

    card: int
    copies: int
    value: int
    discard: int | None

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {"card": card_name(self.card), "copies": self.copies, "value": self.value,
                "discard": None if self.discard is None else card_name(self.discard)}


@dataclass(frozen=True, slots=True)
class DrawHint:
    """Take the pile top or draw blind.

    ``take`` is the optimum (with its best discard) after taking
    ``discard_top``; ``expected`` the exact mean optimum of a blind draw over
    the ``unseen`` cards, each physical card equally likely.
    """

    variant: str
    better: Better
    current_value: int
    discard_top: int
    take: Solution
    take_value: int
    expected: Fraction
    unseen: int
    outcomes: tuple[DrawOutcome, ...]
    recommendation: Recommendation
    reason: str
    optimal: bool

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names; the expectation as a float and exactly."""
        return {
            "variant": self.variant,
            "better": self.better,
            "current_value": self.current_value,
            "discard_top": card_name(self.discard_top),
            "take": {"value": self.take_value, "solution": self.take.to_dict()},
            "blind": {
                "expected_value": float(self.expected),
                "expected_exact": f"{self.expected.numerator}/{self.expected.denominator}",
                "unseen": self.unseen,
                "outcomes": [o.to_dict() for o in self.outcomes],
            },
            "recommendation": self.recommendation,
            "reason": self.reason,
            "optimal": self.optimal,
        }


def unseen_counts(deal: Deal, known: Iterable[int]) -> list[int]:
    """Copies of each card type not among ``known`` (the full deck minus them)."""
    left = deck_copies(deal.rules)
    for card in known:
        left[card] -= 1
    return left


def draw_hint(
    hand: str | Iterable[object],
    discard_top: str,
    variant: str,
    *,
    seen: str | Iterable[object] | None = None,
    wild_rank: str | None = None,
    rules: Mapping[str, Any] | None = None,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> DrawHint:
    """Compare taking ``discard_top`` with the exact expected optimum of a
    blind draw; ``seen`` are other cards known not to be in the stock (the
    cut card, when ``wild_rank`` names it, is known without them).

    Every possible draw (each distinct unseen card type, weighted by its
    copies) is solved in one shared search."""
    until = play_deadline(time_limit_ms, deadline)
    deal = _deal(variant, wild_rank, rules)
    cards = _hand(hand, deal)
    if len(cards) + 1 > MAX_HAND_CARDS:
        raise InvalidHandError(
            f"hand has {len(cards)} cards; with the drawn card at most {MAX_HAND_CARDS} are allowed",
            code="hand_too_large", field="hand",
        )
    top = parse_card(discard_top, field="discard_top")
    seen_cards = [] if seen is None else parse_cards(seen, "seen")
    if len(seen_cards) > MAX_SEEN_CARDS:
        raise InvalidHandError(f"seen has {len(seen_cards)} cards; at most {MAX_SEEN_CARDS}",
                               code="too_many_cards", field="seen")
    # the cut card, when known, lies face up under the stock: no draw brings it
    cut = [] if deal.known_cut is None else [deal.known_cut]
    check_copies([("wild_rank", cut), ("hand", cards), ("discard_top", [top]),
                  ("seen", seen_cards)], deal.rules)
    left = unseen_counts(deal, [*cut, *cards, top, *seen_cards])
    unseen = sum(left)
    if unseen == 0:
        raise InvalidHandError("no card is left unseen: a blind draw is impossible",
                               code="no_unseen_cards", field="seen")
    better = better_of(deal)
    hands = _Hands(deal, wild_count(cards, deal) + 1, until)
    outcomes: list[DrawOutcome] = []
    total = 0
    with gc_paused():  # once for the whole hint: many small searches
        costs = hands.hand_costs(cards)
        current_value, optimal = hands.current_value(cards, costs)
        take = _take(hands, cards, top, better)
        optimal = optimal and take.optimal
        caps = hands.draw_caps(costs)
        # Costliest draws first: their searches have the loosest bounds, and
        # what they prove about the hand's sub-hands settles the later ones.
        held = sorted(cards)
        for card in sorted((c for c in range(NUM_CARD_TYPES) if left[c] > 0),
                           key=lambda c: (-deal.points[c], c)):
            value, thrown, proved = hands.draw_value(held, card,
                                                     None if caps is None else caps(card))
            optimal = optimal and proved
            total += left[card] * value
            outcomes.append(DrawOutcome(card, left[card], value, thrown))
        outcomes.sort(key=lambda outcome: outcome.card)
    take_value = value_of(take, deal)
    expected = Fraction(total, unseen)
    take_key = take_value if better == "lower" else -take_value
    blind_key = expected if better == "lower" else -expected
    words = "deadwood" if deal.rules.objective == "min_deadwood" else (
        "net" if better == "higher" else "count")
    if take_key < blind_key:
        recommendation: Recommendation = "take_discard"
        reason = (f"taking {card_name(top)} gives {words} {take_value}; a blind draw gives "
                  f"{float(expected):.3f} on average over {unseen} unseen cards")
    elif take_key > blind_key:
        recommendation = "draw_blind"
        reason = (f"a blind draw gives {words} {float(expected):.3f} on average over {unseen} "
                  f"unseen cards; taking {card_name(top)} gives {take_value}")
    else:
        recommendation = "either"
        reason = f"both give {words} {take_value} (blind: on average over {unseen} unseen cards)"
    return DrawHint(
        variant=deal.rules.name, better=better, current_value=current_value,
        discard_top=top, take=take, take_value=take_value, expected=expected, unseen=unseen,
        outcomes=tuple(outcomes), recommendation=recommendation, reason=reason, optimal=optimal,
    )


def _take(hands: _Hands, cards: list[int], top: int, better: Better) -> Solution:
    """The optimum after taking ``top`` from the discard pile: the best
    discard of the cards held then, except ``top`` itself (the published rules
    forbid throwing back the card just taken; another copy of it held in the
    hand may go)."""
    take = hands.solution([*cards, top], True)
    if take.discard != top or not cards or top in cards:
        return take  # a copy of top in the hand may be the one discarded
    held = [*cards, top]
    # the search of the hand with the top card decided first, never discarded
    thrown = hands.session.discard_keeping(cards, top)
    # The search pools a drawn wild card with the hand's wild cards, and the
    # discard it walks out of the pool may be that very card: then solve each
    # discard instead (a wild top is rarely thrown, so this stays cheap).
    if thrown is None or thrown == top:  # (also: one deck without wild cards)
        options = []
        for discard in sorted(set(cards), key=sort_key):
            kept = hands.solution(without(held, discard), False)
            value = value_of(kept, hands.deal)
            options.append((_order_key(value, kept.declarable, better), sort_key(discard),
                            discard))
        thrown = min(options)[2]
    return dataclasses.replace(hands.solution(without(held, thrown), False), discard=thrown)


# ---------------------------------------------------------------------------
# Layoffs hint


@dataclass(frozen=True, slots=True)
class Fit:
    """A hand card can extend table meld ``table_index`` at ``end`` (``low``,
    ``high`` or ``set``), standing for ``represents``, once the ``via`` hand
    cards fill the gap between it and the meld."""

    table_index: int
    end: Literal["low", "high", "set"]
    represents: int
    via: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {"table_index": self.table_index, "end": self.end,
                "represents": card_name(self.represents), "via": [card_name(c) for c in self.via]}


@dataclass(frozen=True, slots=True)
class LayoffHint:
    """Per hand card the table melds it can extend, and the best play.

    ``fits_complete`` is false when the deadline cut the listing short;
    ``best.optimal`` says whether the best play was proved."""

    variant: str
    table: tuple[Meld, ...]
    fits: tuple[tuple[int, tuple[Fit, ...]], ...]
    fits_complete: bool
    best: Play
    better: Better
    value: int

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "variant": self.variant,
            "table": [m.to_dict() for m in self.table],
            "fits": [{"card": card_name(card), "extends": [f.to_dict() for f in fits]}
                     for card, fits in self.fits],
            "fits_complete": self.fits_complete,
            "best": self.best.to_dict(),
            "better": self.better,
            "value": self.value,
            "optimal": self.fits_complete and self.best.optimal,
        }


def _parse_table(table: Sequence[object]) -> list[list[int]]:
    if not is_list(table):
        raise InvalidHandError("table must be a list of melds, each a list of cards",
                               code="invalid_table", field="table")
    check_table_size(table)  # before any meld is read
    melds = []
    for i, meld in enumerate(table):
        if not isinstance(meld, str | Sequence):
            raise InvalidHandError(f"table[{i}] must be a list of cards",
                                   code="invalid_table", field=f"table[{i}]")
        melds.append(parse_cards(meld, f"table[{i}]"))
    return melds


def fits_of(
    cards: Sequence[int], table: Sequence[TableMeld], deal: Deal,
    deadline: Deadline | None = None,
) -> tuple[list[tuple[int, tuple[Fit, ...]]], bool]:
    """For each distinct hand card, every table meld end it can reach, and
    whether the listing is complete (the deadline may cut it short).

    Derived from the engine's layoff generator (``layoffs_led_by``): an
    extension on one side of a run reaches its far end with the cards before
    it as ``via``; a set takes one more card; a wild card also reaches each
    end alone."""
    counts = count_cards(cards)
    wild_types = [c for c in sorted(set(cards)) if c in deal.wild]
    wild_cap = sum(counts[w] for w in deal.wild)
    found: dict[int, dict[tuple[object, ...], Fit]] = {c: {} for c in set(cards)}
    ticker = Ticker(deadline, 16)
    complete = True
    try:
        for tm in table:
            spot = table_spot(tm, deal)
            for lead in sorted(set(cards)):
                for ext in layoffs_led_by(lead, counts, deal, [spot], wild_cap):
                    ticker.tick()
                    for fit_card, fit in _outermost(ext, tm, counts, wild_types, deal):
                        key = (fit.table_index, fit.end, fit.represents, tuple(sorted(fit.via)))
                        found[fit_card].setdefault(key, fit)
            for wild in wild_types:
                for fit in _lone_wild_fits(tm, spot, wild, counts, deal):
                    key = (fit.table_index, fit.end, fit.represents, tuple(sorted(fit.via)))
                    found[wild].setdefault(key, fit)
    except DeadlineExceeded:
        complete = False
    out = []
    for card in sorted(set(cards), key=sort_key):
        fits = sorted(found[card].values(), key=lambda f: (len(f.via), f.table_index, f.end,
                                                           sort_key(f.represents)))
        out.append((card, tuple(fits[:MAX_FITS_PER_CARD])))
    return out, complete


def _outermost(ext: Extension, tm: TableMeld, counts: Sequence[int], wild_types: Sequence[int],
               deal: Deal) -> list[tuple[int, Fit]]:
    """The card at the far end of a one-sided extension, with the cards laid
    before it (outward from the meld) as ``via``."""
    if tm.kind == "set":
        if len(ext.naturals) == 1 and not ext.wilds:
            return [(ext.naturals[0], Fit(tm.index, "set", ext.naturals[0], ()))]
        return []
    if all(q < tm.low for q in ext.coords):
        end: Literal["low", "high"] = "low"
        order = list(range(len(ext.coords)))[::-1]  # outward: from the meld down
    elif all(q > tm.high for q in ext.coords):
        end, order = "high", list(range(len(ext.coords)))
    else:
        return []
    left = list(counts)
    for card in ext.naturals:
        left[card] -= 1
    far = order[-1]
    # A wild card at the far end: each kind of wild card held reaches it, the
    # other wild slots filled from the wild cards left.
    heads: list[tuple[int, ...]] = [()] if ext.natural_at[far] else [
        (w,) for w in wild_types if left[w] > 0]
    out: list[tuple[int, Fit]] = []
    for head in heads:
        rest = list(left)
        for w in head:
            rest[w] -= 1
        fillings = wild_fillings(ext.wilds - len(head), rest, deal,
                                 limit=len(wild_types) if head else 1)
        for filling in fillings:
            wilds = [*head, *filling]  # popped from the end: the far slot, last, gets head
            placed = [ext.represents[i] if ext.natural_at[i] else wilds.pop() for i in order]
            out.append((placed[-1], Fit(tm.index, end, ext.represents[far], tuple(placed[:-1]))))
    return out


def _lone_wild_fits(tm: TableMeld, spot: TableSpot, wild: int, counts: Sequence[int],
                    deal: Deal) -> list[Fit]:
    """Where wild card ``wild`` extends table meld ``tm`` with no natural
    card: alone (a set's missing suit, a run's next card at either end), or
    at the far end of a run's end reached through other wild cards held
    (``via``, each distinct filling), as far as the run may grow."""
    room = spot.absorb_room(deal.rules)
    if room < 1:
        return []
    if tm.kind == "set":
        suits = [c // 13 for c in tm.meld.represents]
        missing = next((s for s in range(4) if s not in suits), suits[0])
        return [Fit(tm.index, "set", tm.meld.represents[0] % 13 + 13 * missing, ())]
    lowest, highest = GEOMETRY[deal.rules.ace].span(tm.low, tm.high)
    others = list(counts)
    others[wild] -= 1
    kinds = sum(1 for w in deal.wild if others[w] > 0)
    held = 1 + sum(others[w] for w in deal.wild)
    fits = []
    ends: tuple[tuple[Literal["low", "high"], int, int, int], ...] = (
        ("low", tm.low, tm.low - lowest, -1), ("high", tm.high, highest - tm.high, 1))
    for end, start, reach, step in ends:
        for far in range(1, min(reach, room, held) + 1):
            for via in wild_fillings(far - 1, others, deal, limit=max(1, kinds)):
                fits.append(Fit(tm.index, end, tm.suit_base + (start + step * far) % 13, via))
    return fits


def layoffs_hint(
    hand: str | Iterable[object],
    table: Sequence[object],
    variant: str,
    *,
    wild_rank: str | None = None,
    rules: Mapping[str, Any] | None = None,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> LayoffHint:
    """Which hand cards extend which ``table`` melds (each a list of cards in
    meld order), and the best mix of new melds and layoffs (only layoffs
    under ``new_melds_after_opening=false``).

    The best play gets three quarters of the time left, the listing the rest;
    each part says whether the deadline cut it short."""
    until = play_deadline(time_limit_ms, deadline)
    deal = _deal(variant, wild_rank, rules)
    objective_of(deal.rules)
    cards = _hand(hand, deal)
    table_cards = _parse_table(table)
    check_copies([("hand", cards), *((f"table[{i}]", m) for i, m in enumerate(table_cards))],
                 deal.rules)
    table_melds = read_table(table_cards, deal)
    search = LayoffSearch(deal, table_melds, until.within_ms(until.remaining_ms() * 0.75))
    _, best = search.best(cards)
    value = best.deadwood_points if deal.rules.objective == "min_deadwood" else best.net_points
    fits, complete = fits_of(cards, table_melds, deal, until)
    return LayoffHint(
        variant=deal.rules.name,
        table=tuple(tm.meld for tm in table_melds),
        fits=tuple(fits),
        fits_complete=complete,
        best=best,
        better=better_of(deal),
        value=value,
    )


# ---------------------------------------------------------------------------
# Pile pickup hint


@dataclass(frozen=True, slots=True)
class PileUse:
    """A way to use the deepest card taken: a new meld holding it, or a
    layoff of it (with any cards chained before it) onto table meld
    ``table_index``; ``net`` is the best net of the turn when it is used so."""

    kind: Literal["meld", "layoff"]
    meld: Meld
    table_index: int | None
    cards: tuple[int, ...]
    net: int

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {"kind": self.kind, "meld": self.meld.to_dict(), "table_index": self.table_index,
                "cards": [card_name(c) for c in self.cards], "net": self.net}


@dataclass(frozen=True, slots=True)
class PileDepth:
    """Taking the top ``depth`` cards of the discard pile.

    ``must_use``: the deepest card taken must be melded or laid off at once
    (every depth below the top).  ``legal`` false: it cannot be
    (``pile_pickup="must_meld"``: rummy500).  ``penalty``: the charge when
    the best play leaves it unused (``meld_or_penalty``: rommy; also when a
    use exists but every use nets less than paying).  ``net`` is the best net
    after melding and laying off (penalty included), ``best`` that play.
    ``evaluated`` false when the hand would exceed the card limit or the
    deadline came first; ``complete`` false when the deadline cut the
    depth short (its uses and net are then the best found).
    """

    depth: int
    taken: tuple[int, ...]
    deepest: int
    must_use: bool
    evaluated: bool
    legal: bool
    penalty: int
    uses: tuple[PileUse, ...]
    best: Play | None
    net: int | None
    complete: bool = True

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "depth": self.depth,
            "taken": [card_name(c) for c in self.taken],
            "deepest": card_name(self.deepest),
            "must_use": self.must_use,
            "evaluated": self.evaluated,
            "legal": self.legal,
            "penalty": self.penalty,
            "uses": [u.to_dict() for u in self.uses],
            "best": None if self.best is None else self.best.to_dict(),
            "net": self.net,
            "complete": self.complete,
        }


@dataclass(frozen=True, slots=True)
class PileHint:
    """Every depth of the pile, top first; ``current`` is the hand's best play
    without taking anything; ``optimal`` false when the deadline cut
    anything short."""

    variant: str
    table: tuple[Meld, ...]
    current: Play
    depths: tuple[PileDepth, ...]
    best_depth: int | None
    optimal: bool = True

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "variant": self.variant,
            "table": [m.to_dict() for m in self.table],
            "current": self.current.to_dict(),
            "depths": [d.to_dict() for d in self.depths],
            "best_depth": self.best_depth,
            "optimal": self.optimal,
        }


def forced_uses(
    search: LayoffSearch, cards: tuple[int, ...], card: int, deal: Deal, ticker: Ticker,
    found: list[tuple[PileUse, Play]],
) -> None:
    """Every way to use ``card`` from ``cards`` at once, with the best play
    around it, appended to ``found`` (``ticker`` raises ``DeadlineExceeded``
    past the deadline, leaving the ways found so far): a layoff, or a new
    meld unless the rules allow only layoffs (``new_melds_after_opening``)."""
    counts = count_cards(cards)
    for tm in search.table:
        for layoff in extensions(tm, counts, deal):
            ticker.tick()
            if card not in layoff.cards:
                continue
            _, rest = search.best(_minus(cards, layoff.used), skip=(tm.index,))
            play = _merge(deal, rest, layoff=layoff)
            found.append((PileUse("layoff", layoff.extended, tm.index, layoff.cards,
                                  play.net_points), play))
    if not search.melds_allowed:  # new_melds_after_opening=false: only layoffs
        return
    wild_cap = sum(counts[w] for w in deal.wild)
    for candidate in all_candidates(counts, deal, wild_cap, search.deadline):
        natural = card in candidate.naturals
        if not natural and not (card in deal.wild and candidate.wilds):
            continue
        left = list(counts)
        for c in candidate.naturals:
            left[c] -= 1
        for filling in wild_fillings(candidate.wilds, left, deal):
            ticker.tick()
            if not natural and card not in filling:
                continue
            meld = place(candidate, filling, deal)
            used = [*candidate.naturals, *filling]
            _, rest = search.best(_minus(cards, used))
            play = _merge(deal, rest, meld=meld)
            found.append((PileUse("meld", meld, None, tuple(meld.cards), play.net_points), play))


def _minus(cards: tuple[int, ...], used: Iterable[int]) -> tuple[int, ...]:
    left = list(cards)
    for c in used:
        left.remove(c)
    return tuple(left)


def _merge(deal: Deal, rest: Play, *, layoff: Layoff | None = None, meld: Meld | None = None) -> Play:
    melds = (*rest.melds, meld) if meld is not None else rest.melds
    layoffs = (*rest.layoffs, layoff) if layoff is not None else rest.layoffs
    return combine(deal, melds, layoffs, rest.deadwood, rest.optimal)


def pile_hint(
    hand: str | Iterable[object],
    table: Sequence[object],
    discard_pile: str | Iterable[object],
    variant: str,
    *,
    wild_rank: str | None = None,
    rules: Mapping[str, Any] | None = None,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> PileHint:
    """Evaluate taking the discard pile (given bottom to top) down to each
    depth, under the variant's ``pile_pickup`` rule."""
    until = play_deadline(time_limit_ms, deadline)
    deal = _deal(variant, wild_rank, rules)
    objective_of(deal.rules, "pile pickup")
    rule = deal.rules.pile_pickup
    if rule == "none":
        raise refusal_by_knob(
            deal.rules, "pile_pickup",
            f"variant {deal.rules.name!r} does not take from the discard pile below its top "
            "(knob pile_pickup is none; rummy500 and rommy do)",
            "nothing is taken from below the discard pile's top (must_meld and meld_or_penalty "
            "take from it)")
    cards = _hand(hand, deal)
    table_cards = _parse_table(table)
    pile = parse_cards(discard_pile, "discard_pile")
    if not pile:
        raise InvalidHandError("discard_pile is empty: nothing to take",
                               code="empty_pile", field="discard_pile")
    if len(pile) > MAX_PILE_CARDS:
        raise InvalidHandError(f"discard_pile has {len(pile)} cards; at most {MAX_PILE_CARDS}",
                               code="too_many_cards", field="discard_pile")
    check_copies([("hand", cards), *((f"table[{i}]", m) for i, m in enumerate(table_cards)),
                  ("discard_pile", pile)], deal.rules)
    table_melds = read_table(table_cards, deal)
    search = LayoffSearch(deal, table_melds, until)
    ticker = Ticker(until, 8)
    _, current = search.best(cards)
    penalty_points = deal.rules.pile_penalty
    depths: list[PileDepth] = []
    for depth in range(1, len(pile) + 1):
        taken = tuple(reversed(pile[len(pile) - depth:]))  # top first
        deepest = taken[-1]
        must_use = depth > 1
        held = tuple(sorted([*cards, *taken]))
        if len(held) > MAX_HAND_CARDS or until.expired():
            depths.append(PileDepth(depth, taken, deepest, must_use, False, False, 0, (), None, None,
                                    complete=len(held) > MAX_HAND_CARDS))
            continue
        if not must_use:
            _, play = search.best(held)
            depths.append(PileDepth(depth, taken, deepest, False, True, True, 0, (), play,
                                    play.net_points, play.optimal))
            continue
        ways: list[tuple[PileUse, Play]] = []
        complete = True
        try:
            forced_uses(search, held, deepest, deal, ticker, ways)
        except DeadlineExceeded:
            complete = False
        ways.sort(key=lambda way: (-way[0].net, way[0].kind, way[0].meld.represents))
        complete = complete and all(play.optimal for _, play in ways)
        uses = tuple(use for use, _ in ways[:MAX_USES])
        if ways:
            play = ways[0][1]
            if rule == "meld_or_penalty":
                # not using the card is allowed too, at the penalty's cost: it can
                # pay when every use breaks up better melds
                _, free = search.best(held)
                if free.net_points - penalty_points > play.net_points:
                    depths.append(PileDepth(depth, taken, deepest, True, True, True,
                                            penalty_points, uses, free,
                                            free.net_points - penalty_points,
                                            complete and free.optimal))
                    continue
            depths.append(PileDepth(depth, taken, deepest, True, True, True, 0, uses, play,
                                    play.net_points, complete))
        elif not complete:
            depths.append(PileDepth(depth, taken, deepest, True, False, False, 0, (), None, None,
                                    complete=False))
        elif rule == "meld_or_penalty":
            _, play = search.best(held)
            depths.append(PileDepth(depth, taken, deepest, True, True, True, penalty_points, (),
                                    play, play.net_points - penalty_points, play.optimal))
        else:
            depths.append(PileDepth(depth, taken, deepest, True, True, False, 0, (), None, None))
    scored = [d for d in depths if d.net is not None]
    best_depth = max(scored, key=lambda d: (d.net or 0, -d.depth)).depth if scored else None
    optimal = current.optimal and all(d.complete for d in depths)
    return PileHint(deal.rules.name, tuple(tm.meld for tm in table_melds), current,
                    tuple(depths), best_depth, optimal)


__all__ = [
    "DiscardHint",
    "DiscardOption",
    "DrawHint",
    "DrawOutcome",
    "Fit",
    "LayoffHint",
    "PileDepth",
    "PileHint",
    "PileUse",
    "discard_hint",
    "draw_hint",
    "layoffs_hint",
    "pile_hint",
    "unseen_counts",
    "value_of",
]
