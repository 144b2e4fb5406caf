"""``review(record)``: every decision of a recorded game judged against the advisor's best.

For each decision of each player (``seats``: some of them), the review
builds what that player knew then -- its cards and the public history up to
the decision (``solver.review.table.request_for``) -- and asks the advisor
(``solver.play.advise``) to value every legal move on the same deals.  The
move played is then compared with the recommended one on those deals: its
**loss** is the paired gap (``MoveValue.gap``, with its standard error), in
the units the advisor ranked by (the hand's points, or with a gin match
score the chance to win the match), so the luck of the deals cancels out.
A decision gets a **label** (``best``, ``good``, ``inaccuracy``,
``mistake``, ``blunder``; ``solver.review.params``) only beyond the noise:
an error needs a gap of more than ``z`` standard errors *and* more than the
label's threshold; ``sure`` says how likely the label is right (the normal
chance that the true gap is past the threshold it claims).

**Luck** (``docs/REVIEW.md``, ``solver.review.luck``): the value of each
card a player drew from the stock against what the draw was worth before
it was seen (the advisor's best value at the next decision less the
draw's value), and the value of the deal (the player's value at its first
decision), each less its mean over self-play (the luck baseline); a
hand's result then splits into the players' losses (skill), their luck
and a rest (the hidden cards turned up at the end, the estimates' noise),
given with its noise.

Per player (``PlayerReview``): points lost per decision, accuracy,
performance rating, the labels, the losses by phase (``first_upcard``,
``draw``, ``discard``, ``knock`` timing, ``drop``, ``lay_down`` timing,
``layoff``), its three worst decisions with the better move in words, how
often it played the advisor's best where the moves differ by more than the
noise (engine agreement: a signal, never a verdict), and its luck.

The review is anytime: at the deadline it answers the decisions reviewed
so far, in the order they were played, with ``complete`` false.  The same
record, seats, level and seed give the same review (each decision's deals
come from the seed and the decision's number), unless the deadline cuts it.
"""

from __future__ import annotations

import inspect
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.cards import card_name
from solver.deadline import Deadline, DeadlineExceeded, play_deadline, time_ran_out
from solver.errors import InvalidOptionError, InvalidStateError, is_list, plain_int, shown
from solver.play import GAMES
from solver.play.advice import Advice, Move, MoveValue
from solver.play.gin.scoring import knock_points
from solver.play.gin.state import MATCH_TARGET
from solver.play.public import names
from solver.play.search import Level, mean_and_error
from solver.play.words import (
    DECLARE,
    DISCARD,
    DRAW,
    DRAW_STOCK,
    DROP,
    FIRST_UPCARD,
    GO_OUT,
    KNOCK,
    LAY_OFF,
    LAYOFF,
    PASS,
    TAKE_DISCARD,
    WALL,
)
from solver.review.luck import LuckBaseline, baseline_for, position_of
from solver.review.openspiel import from_openspiel
from solver.review.params import (
    ERRORS,
    LABELS,
    REVIEW_LEVEL,
    REVIEW_PARAMS,
    ReviewParams,
    Units,
)
from solver.review.record import Record
from solver.review.table import Decision, Walked, request_for, walk
from solver.rules import make_rules

PHASES = ("first_upcard", "draw", "discard", "knock", "drop", "lay_down", "layoff")
"""The kinds of decision the losses are summed by."""
WORST = 3
"""The worst decisions each player's summary names."""
WRITE_MARGIN_S = 0.02
WRITE_SHARE = 0.05
"""The review stops judging ``WRITE_MARGIN_S`` (or ``WRITE_SHARE`` of the time
it was given) before its deadline, to sum up and write the answer."""
_TAKES_CONSIDER = "consider" in inspect.signature(GAMES["gin"].advise).parameters
"""Whether the advisor values a move it does not list when asked (``consider``)."""


# -- one decision -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Judged:
    """One decision reviewed (see the module docstring).  ``loss`` and
    ``loss_error`` are in ``units``; ``points_lost`` in the hand's points
    (the paired gap, or with a match score the difference of the means;
    negative when the deals favoured the move played, within the noise);
    ``value`` the best move's expected points and ``played_value`` the
    played move's (None: not valued)."""

    number: int
    """The decision's place among the record's decisions (from 0)."""
    decision: Decision
    phase: str
    kind: str
    played: Move
    best: Move
    moves: int
    forced: bool
    units: Units
    loss: float | None
    loss_error: float | None
    points_lost: float | None
    win_change: float | None
    match_win_change: float | None
    label: str | None
    sure: float | None
    confidence: str
    decisive: bool
    value: float
    value_error: float | None
    played_value: float | None
    played_error: float | None
    reason: str
    why_not: str | None = None
    """Why the played move has no figures (the advisor refuses it)."""
    value_exact: bool = False
    """``value`` is exact, not estimated on deals (an Indian drop's cost)."""

    @property
    def seat(self) -> int:
        """The player's seat."""
        return self.decision.seat

    @property
    def agreed(self) -> bool:
        """The move played is the advisor's best."""
        return self.loss == 0.0 and self.label == "best"

    def to_dict(self, record: Record) -> dict[str, Any]:
        """Wire form."""
        decision = self.decision
        return {
            "number": self.number, "seat": decision.seat,
            "player": record.players[decision.seat],
            "events": [decision.first, decision.last], "phase": self.phase, "kind": self.kind,
            "hand": [card_name(c) for c in decision.hand],
            "played": self.played.to_dict(), "best": self.best.to_dict(),
            "moves": self.moves, "forced": self.forced, "label": self.label,
            "sure": _round(self.sure, 3), "units": self.units,
            "loss": _round(self.loss, 4), "loss_error": _round(self.loss_error, 4),
            "points_lost": _round(self.points_lost, 3),
            "win_change": _round(self.win_change, 4),
            "match_win_change": _round(self.match_win_change, 4),
            "confidence": self.confidence, "decisive": self.decisive,
            "value": _round(self.value, 3), "played_value": _round(self.played_value, 3),
            "drawn": None if decision.drawn is None else card_name(decision.drawn),
            "reason": self.reason,
        }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def move_key(move: Move) -> tuple[object, ...]:
    """What makes two moves the same move for a review: a knock or a
    declaration by its throw (the melds shown are its arrangement), a gin
    reply by the deadwood it keeps, a lay-down turn by what it lays and
    throws (in any order), any other by its action and card."""
    action = move.action
    if action in (KNOCK, DECLARE):
        return action, move.card
    if action == LAY_OFF:
        return action, tuple(sorted(move.deadwood))
    if action in (DISCARD, GO_OUT) and (move.melds or move.layoffs):
        layoffs: dict[int, list[int]] = {}
        for lay in move.layoffs:
            layoffs.setdefault(lay.target, []).extend(lay.cards)
        return (action, move.card, tuple(sorted(tuple(sorted(m)) for m in move.melds)),
                tuple((t, tuple(sorted(c))) for t, c in sorted(layoffs.items())))
    if action == DISCARD:
        return action, move.card, (), ()
    return action, move.card


def decision_seed(seed: int, number: int) -> int:
    """The advisor's seed for decision ``number`` of a review with ``seed``
    (spread, so that a review and the games it reviews seldom share deals).

    >>> decision_seed(0, 0) != decision_seed(0, 1) != decision_seed(1, 0)
    True
    """
    return (seed * 1_000_003 + number * 7_919 + 104_729) % (2**31 - 1)


CHECK_OFFSET = 15_485_863
"""Added to a decision's seed for the deals of its check (``ReviewParams.check_deals``),
so that they are fresh, not the search's."""


def _normal(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _sure(gap: float, error: float | None, threshold: float, above: bool) -> float:
    """The chance that the true gap is past ``threshold`` (``above``) or below it."""
    if not error:
        return 1.0 if (gap >= threshold) == above else 0.0
    z = (gap - threshold) / error
    return _normal(z if above else -z)


def label_of(gap: float, error: float | None, game: str, units: Units,
             params: ReviewParams = REVIEW_PARAMS) -> tuple[str, float]:
    """The label of a move ``gap`` behind the best (``error``: its paired
    standard error) and how sure it is (see the module docstring).

    >>> label, sure = label_of(3.0, 0.5, "gin", "points")
    >>> label, round(sure, 2)
    ('mistake', 0.88)
    >>> label_of(3.0, 2.0, "gin", "points")[0]
    'good'
    """
    first = params.threshold(game, units, "inaccuracy")
    beyond = gap > params.z * (error or 0.0)
    if not beyond or gap < first:
        return "good", _sure(gap, error, first, above=False)
    label = next(name for name in reversed(ERRORS)
                 if gap >= params.threshold(game, units, name))
    return label, _sure(gap, error, params.threshold(game, units, label), above=True)


def _kind(game: str, phase: str, played: Move, best: Move) -> str:
    """Which kind of decision it is, for the losses by phase."""
    actions = {played.action, best.action}
    if phase == FIRST_UPCARD:
        return "first_upcard"
    if phase == LAYOFF:
        return "layoff"
    if game == "gin" and (phase == WALL or KNOCK in actions):
        return "knock"
    if DROP in actions:
        return "drop"
    if phase == DRAW:
        return "draw"
    if phase == "play":
        same_lay = move_key(Move(DISCARD, None, played.melds, (), played.layoffs))[2:] == \
            move_key(Move(DISCARD, None, best.melds, (), best.layoffs))[2:]
        return "discard" if same_lay and played.action == best.action else "lay_down"
    return "discard"


def describe(move: Move) -> str:
    """A move in the words a player uses.

    >>> describe(Move("take_discard", card=38)), describe(Move("knock", card=8))
    ('take KD from the pile', 'knock, throwing 9S')
    """
    action, card = move.action, move.card
    shown = "" if card is None else card_name(card)
    laid = [names(m) for m in move.melds] + [f"{names(lay.cards)} onto meld {lay.target}"
                                               for lay in move.layoffs]
    if action == TAKE_DISCARD:
        return f"take {shown} from the pile"
    if action == DRAW_STOCK:
        return "draw from the stock"
    if action == PASS:
        return "pass"
    if action == DROP:
        return "drop"
    if action == KNOCK:
        return f"knock, throwing {shown}"
    if action == DECLARE:
        return f"declare, throwing {shown}"
    if action == LAY_OFF:
        kept = names(move.deadwood) if move.deadwood else "nothing"
        off = ", ".join(f"{names(lay.cards)}" for lay in move.layoffs)
        return f"lay off {off}, keeping {kept} unmelded" if off else \
            f"lay off nothing, keeping {kept} unmelded"
    if action == GO_OUT:
        return "go out: lay " + "; ".join(laid)
    if laid:
        return f"lay {'; '.join(laid)}, then throw {shown}"
    return f"throw {shown}"


def _reason(game: str, played: Move, best: MoveValue, mine: MoveValue | None,
            loss: float | None, error: float | None, units: Units,
            wrong_show: bool = False) -> str:
    """Why the best move is better, in words (the advisor's reasons of both;
    ``wrong_show``: the move played is a declaration that is not a valid show)."""
    if mine is not None and move_key(played) == move_key(best.move):
        return f"{describe(played)}: the advisor's choice too ({'; '.join(best.reasons[:2])})"
    yours = describe(played)
    if wrong_show:
        yours = yours.replace("declare", "declare a show that is not valid", 1)
    if loss is not None and loss <= 0 and units == "points":
        return (f"{describe(best.move)} is the advisor's choice, but {yours} did as "
                f"well on the same deals ({-loss:+.1f} points"
                + ("" if error is None else f" ± {error:.1f}") + ")")
    amount = "" if loss is None else (
        f" by {loss:.1f} points" if units == "points" else
        f" by {100 * loss:.1f} points of match-winning chance")
    noise = "" if error is None or loss is None else (
        f" (± {error:.1f})" if units == "points" else f" (± {100 * error:.1f})")
    text = f"{describe(best.move)} was better than {yours}{amount}{noise}"
    text += f": {'; '.join(best.reasons[:2])}"
    if mine is not None and mine.reasons:
        text += f"; yours: {'; '.join(mine.reasons[:2])}"
    return text


class _Judge:
    """Reviews the decisions of one record (see ``review``)."""

    def __init__(self, record: Record, walked: Walked, level: Level, seed: int,
                 params: ReviewParams, deadline: Deadline) -> None:
        self.record = record
        self.walked = walked
        self.game = record.game
        self.level = level
        self.seed = seed
        self.params = params
        self.deadline = deadline
        self.advisor_params = params.advisor_params(self.game)
        self.check_deals = params.check_deals(self.game)
        """The deals of a decision's check (0 once the game's model says it
        compares moves only in its search: its review keeps the search's gaps)."""
        self.rules = make_rules(self.game, record.rules) if self.game == "gin" else None

    def position(self, decision: Decision) -> Any:
        """The game model's position at ``decision`` (the record's fields and
        knobs were checked when it was read), replayed by the deadline
        (``DeadlineExceeded``)."""
        return GAMES[self.game].position(request_for(self.record, decision.seat, decision.hand,
                                                     decision.first), self.deadline)

    def advise(self, decision: Decision, number: int, consider: bool) -> Advice:
        """The advisor's answer at ``decision`` (the game's model called as
        ``solver.play.advise`` calls it, with the review's level)."""
        model = GAMES[self.game]
        position = self.position(decision)
        extra: dict[str, Any] = {"consider": [decision.move]} if consider else {}
        return model.advise(position, self.advisor_params, self.level,
                            decision_seed(self.seed, number), self.deadline, **extra)

    def judge(self, number: int, decision: Decision) -> Judged | None:
        """The decision reviewed; None when the deadline cut it short (its
        position's replay or its advice)."""
        try:
            return self._judge(number, decision)
        except DeadlineExceeded:
            return None

    def _judge(self, number: int, decision: Decision) -> Judged | None:
        why_not = None
        consider = _TAKES_CONSIDER
        try:
            advice = self.advise(decision, number, consider)
        except InvalidStateError as refused:
            if not consider:
                raise
            why_not = f"the advisor does not value it: {refused.message}"
            advice = self.advise(decision, number, False)
        if not advice.complete:
            return None
        played = decision.move
        key = move_key(played)
        # a wrong show is not the valid show its throw names (the advisor's, by that card)
        mine = None if self._wrong_show(decision) else next(
            (m for m in advice.moves if move_key(m.move) == key), None)
        best = advice.recommended
        units: Units = "match" if getattr(advice, "ranked_by", "expected_points") == \
            "match_win_probability" else "points"
        loss, error, points = self._loss(decision, advice, mine, units)
        # a move not listed but valued exactly (``_unlisted``: a gin reply, a wrong show):
        # its value is the best's less the points it gives away, and it is valued after all
        exact = None if mine is not None or points is None else best.expected_points - points
        if exact is not None:
            why_not = None
            units = "points"  # its loss is in points, even where the advisor ranks by the match
        win = None if mine is None else mine.win_probability - best.win_probability
        if self.check_deals and mine is not None and mine is not best and units == "points":
            try:
                checked = self._check(number, decision, best.move, mine.move, self.check_deals)
            except NotImplementedError:  # Game.compare: the game keeps the search's gaps
                self.check_deals = 0
            else:
                if checked is None:
                    return None
                loss, error, win = checked
                points = loss
        if mine is None and why_not is None and loss is None:
            why_not = "the advisor does not list this move (it values the moves it lists)"
        # one move listed is no choice but at a gin reply (the advisor lists the best only)
        forced = len(advice.moves) == 1 and mine is not None and advice.phase != LAYOFF
        if mine is not None and mine is best:
            label: str | None = "best"
            sure: float | None = 1.0
            loss, error, points = 0.0, 0.0, 0.0
        elif loss is None:
            label, sure = None, None
        else:
            label, sure = label_of(loss, error, self.game, units, self.params)
        match = None if mine is None or mine.match_win_probability is None \
            or best.match_win_probability is None \
            else mine.match_win_probability - best.match_win_probability
        reason = _reason(self.game, played, best, mine, loss, error, units,
                         self._wrong_show(decision))
        if why_not is not None:
            reason = f"{describe(played)}: {why_not}"
        return Judged(
            number, decision, advice.phase, _kind(self.game, advice.phase, played, best.move),
            played, best.move, len(advice.moves), forced, units, loss, error, points, win, match,
            label, sure,
            getattr(mine, "confidence", "rough") if mine else "none" if exact is None else "exact",
            self._decisive(advice, units), best.expected_points, best.standard_error,
            exact if mine is None else mine.expected_points,
            None if mine is None else mine.standard_error, reason, why_not, best.exact)

    def _check(self, number: int, decision: Decision, best: Move, played: Move, deals: int
               ) -> tuple[float, float | None, float] | None:
        """The played move's gap behind the best on ``deals`` fresh deals,
        both played on every one (``Game.compare``): its paired standard
        error and the change in the chance to win; None when the deadline
        cut the deals short.  The search's own gap leans its way: the move it
        ranks first is the one its deals favoured most, and a move it dropped
        early was dropped on the deals that looked worst for it."""
        tallies = GAMES[self.game].compare(
            self.position(decision), self.advisor_params,
            (decision_seed(self.seed, number) + CHECK_OFFSET) % (2**31 - 1), self.deadline,
            [best, played], deals)
        if tallies is None:
            return None
        ahead, behind_it = tallies
        gap, error = mean_and_error([a - b for a, b in zip(ahead.points, behind_it.points,
                                                           strict=True)])
        win = (sum(behind_it.wins) - sum(ahead.wins)) / len(ahead.wins)
        return gap, error, win

    def _loss(self, decision: Decision, advice: Advice, mine: MoveValue | None,
              units: Units) -> tuple[float | None, float | None, float | None]:
        """The played move's gap behind the best (in ``units``), its error,
        and the points it gives away."""
        best = advice.recommended
        if mine is None:
            return self._unlisted(decision, advice)
        gap = getattr(mine, "gap", None)
        gap_error = getattr(mine, "gap_error", None)
        if gap is None:  # no deal in common: the difference of the means, unpaired
            worth = _worth(best, units) - _worth(mine, units)
            errors = [e for e in (best.standard_error, mine.standard_error) if e is not None]
            gap = worth
            gap_error = math.sqrt(sum(e * e for e in errors)) if units == "points" else None
        # signed: a played move the deals favoured (within the noise) counts
        # negative, so the noise averages out instead of piling up as loss
        points = gap if units == "points" else best.expected_points - mine.expected_points
        return gap, gap_error, points

    def _unlisted(self, decision: Decision, advice: Advice
                  ) -> tuple[float | None, float | None, float | None]:
        """A move the advisor did not list but whose value is exact: a gin
        reply to a shown knock, an Indian declaration that is not a valid show."""
        played = decision.move
        best = advice.recommended
        if played.action == LAY_OFF and self.rules is not None and best.exact:
            knock = next(s for s in reversed(self.record.steps[:decision.first])
                         if s.action == KNOCK).event
            knocker = sum(_gin_points(c, self.record) for c in knock.deadwood or ())
            mine = sum(_gin_points(c, self.record) for c in played.deadwood)
            value = -float(knock_points(self.rules, knocker, mine))
            loss = best.expected_points - value
            return loss, 0.0, loss
        if self._wrong_show(decision):
            value = -float(make_rules(self.game, self.record.rules).wrong_declaration)
            loss = best.expected_points - value
            return loss, best.standard_error, loss
        return None, None, None

    def _wrong_show(self, decision: Decision) -> bool:
        """Whether ``decision`` is an Indian declaration that is not a valid
        show (the record's last event, scored as a wrong declaration)."""
        return decision.move.action == DECLARE and self.walked.ending == "wrong_declaration" \
            and decision is self.walked.decisions[-1]

    def _decisive(self, advice: Advice, units: Units) -> bool:
        """Whether the best move is ahead of every other by more than the
        noise and ``agreement_floor`` units (a decision engine agreement counts)."""
        if len(advice.moves) < 2:
            return False
        floor = self.params.agreement_floor * self.params.scale(self.game, units)
        for other in advice.moves[1:]:
            gap = getattr(other, "gap", None)
            error = getattr(other, "gap_error", None)
            if gap is None or gap < floor or gap <= self.params.z * (error or 0.0):
                return False
        return True


def _gin_points(card: int, record: Record) -> int:
    from solver.gin import gin_deal

    return int(gin_deal(record.rules).points[card])


def _worth(value: MoveValue, units: Units) -> float:
    if units == "match" and value.match_win_probability is not None:
        return value.match_win_probability
    return value.expected_points


# -- a player -----------------------------------------------------------------------------------
@dataclass(slots=True)
class Totals:
    """What a player's decisions add up to (over one game or many: ``add``)."""

    hands: int = 0
    decisions: int = 0
    """Unforced decisions valued."""
    forced: int = 0
    unvalued: int = 0
    points_lost: float = 0.0
    units_lost: float = 0.0
    accuracy: float = 0.0
    """The sum of the decisions' accuracies."""
    labels: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABELS, 0))
    phases: dict[str, list[float]] = field(default_factory=dict)
    """Per kind of decision: [decisions, points lost]."""
    decisive: int = 0
    agreed: int = 0
    deal_luck: float = 0.0
    draw_luck: float = 0.0
    draws: int = 0
    net_luck: float = 0.0
    """Its luck less the other players' mean (hands with every seat reviewed)."""
    net_hands: int = 0
    result: float = 0.0
    results: int = 0

    def add(self, other: Totals) -> None:
        """Add ``other``'s figures to these."""
        for name in ("hands", "decisions", "forced", "unvalued", "points_lost", "units_lost",
                     "accuracy", "decisive", "agreed", "deal_luck", "draw_luck", "draws",
                     "net_luck", "net_hands", "result", "results"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for label, count in other.labels.items():
            self.labels[label] = self.labels.get(label, 0) + count
        for kind, (decided, lost) in other.phases.items():
            mine = self.phases.setdefault(kind, [0.0, 0.0])
            mine[0] += decided
            mine[1] += lost

    def to_dict(self) -> dict[str, Any]:
        """Wire form: the sums (to six decimals, so that ``from_dict`` reads
        back the same figures), and the figures made from them."""
        lost, units, accuracy = (round(v, 6) for v in (self.points_lost, self.units_lost,
                                                         self.accuracy))
        deal, draws = round(self.deal_luck, 6), round(self.draw_luck, 6)
        decided = self.decisions
        phases = {kind: (int(count), round(points, 6)) for kind, (count, points) in
                  sorted(self.phases.items(), key=lambda kv: PHASES.index(kv[0]))}
        return {
            "hands": self.hands, "decisions": decided, "forced": self.forced,
            "unvalued": self.unvalued, "points_lost": lost,
            "points_lost_per_decision": _round(lost / decided if decided else None, 4),
            "accuracy": _round(accuracy / decided if decided else None, 2),
            "rating": _round(1000.0 * units / decided if decided else None, 2),
            "labels": dict(self.labels),
            "by_phase": {kind: {"decisions": count, "points_lost": points,
                                "per_decision": round(points / count, 4) if count else None}
                         for kind, (count, points) in phases.items()},
            "agreement": {"decisive": self.decisive, "agreed": self.agreed,
                          "rate": _round(self.agreed / self.decisive if self.decisive
                                         else None, 4)},
            "luck": {"deal": deal, "draws": draws, "stock_draws": self.draws,
                     "total": round(deal + draws, 6),
                     "net": round(self.net_luck, 6) if self.net_hands else None},
            "result": round(self.result, 6) if self.results else None,
            "sums": {"units_lost": units, "accuracy": accuracy, "results": self.results,
                     "net_hands": self.net_hands},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Totals:
        """The totals ``to_dict`` wrote (to add up reviews across games)."""
        sums = data["sums"]
        luck = data["luck"]
        return cls(
            hands=int(data["hands"]), decisions=int(data["decisions"]),
            forced=int(data["forced"]), unvalued=int(data["unvalued"]),
            points_lost=float(data["points_lost"]), units_lost=float(sums["units_lost"]),
            accuracy=float(sums["accuracy"]), labels=dict(data["labels"]),
            phases={kind: [float(v["decisions"]), float(v["points_lost"])]
                    for kind, v in data["by_phase"].items()},
            decisive=int(data["agreement"]["decisive"]),
            agreed=int(data["agreement"]["agreed"]), deal_luck=float(luck["deal"]),
            draw_luck=float(luck["draws"]), draws=int(luck["stock_draws"]),
            net_luck=float(luck["net"] or 0.0), net_hands=int(sums["net_hands"]),
            result=float(data["result"] or 0.0), results=int(sums["results"]))


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One player's review of one game (see the module docstring)."""

    seat: int
    player: str
    totals: Totals
    worst: tuple[Judged, ...]
    luck_error: float
    skill_error: float

    def to_dict(self, record: Record) -> dict[str, Any]:
        """Wire form."""
        return {"seat": self.seat, "player": self.player, **self.totals.to_dict(),
                "worst": [{"number": j.number, "events": [j.decision.first, j.decision.last],
                           "kind": j.kind, "label": j.label,
                           "points_lost": _round(j.points_lost, 3), "played": j.played.to_dict(),
                           "best": j.best.to_dict(), "reason": j.reason} for j in self.worst],
                "errors": {"skill": round(self.skill_error, 3),
                           "luck": round(self.luck_error, 3)}}


@dataclass(frozen=True, slots=True)
class Split:
    """A hand's result split for one seat: its position's edge (the luck
    baseline's mean result of the position; 0 without a baseline), its net
    skill (its points lost against the others' mean), its net luck, the
    rest, and the noise of the estimates behind them."""

    seat: int
    result: float
    edge: float
    skill: float
    luck: float
    rest: float
    noise: float

    def to_dict(self) -> dict[str, Any]:
        """Wire form: the terms to three decimals, the rest what the written
        terms leave (so that result = edge + skill + luck + rest as written)."""
        result, edge, skill, luck = (round(v, 3) for v in (self.result, self.edge, self.skill,
                                                             self.luck))
        return {"seat": self.seat, "result": result, "edge": edge, "skill": skill, "luck": luck,
                "rest": round(result - edge - skill - luck, 3), "noise": round(self.noise, 3)}


@dataclass(frozen=True, slots=True)
class Review:
    """A recorded game reviewed (see the module docstring)."""

    record: Record
    level: str
    seed: int
    decisions: tuple[Judged, ...]
    players: tuple[PlayerReview, ...]
    split: tuple[Split, ...]
    ending: str
    result: tuple[float, ...] | None
    complete: bool
    total: int
    """Decisions of the seats asked for (``decisions`` holds the ones reviewed)."""
    luck_baseline: LuckBaseline | None = None
    """What the players' luck was measured against (None: 0, no baseline measured)."""

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        record = self.record
        return {
            "game": record.game, "level": self.level, "seed": self.seed,
            "complete": self.complete, "reviewed": len(self.decisions), "total": self.total,
            "ending": self.ending,
            "result": None if self.result is None else [round(r, 3) for r in self.result],
            "luck_baseline": None if self.luck_baseline is None else self.luck_baseline.to_dict(),
            "players": [p.to_dict(record) for p in self.players],
            "split": [s.to_dict() for s in self.split],
            "decisions": [j.to_dict(record) for j in self.decisions],
        }


def review(record: Record | Mapping[str, Any], *, seats: Sequence[int] | None = None,
           level: str | None = None, seed: int = 0, deadline: Deadline | None = None,
           time_limit_ms: int | None = None,
           params: ReviewParams | None = REVIEW_PARAMS) -> Review:
    """Review every decision of ``record`` (a ``Record`` or its wire form)
    by the players in ``seats`` (default: all); see the module docstring.
    ``level`` is ``review`` (the default: the game's review level,
    ``ReviewParams.levels``) or one of the advisor's; the review stops by ``deadline`` (or
    ``time_limit_ms``) with the decisions reviewed so far (``time_limit_too_small`` when
    it runs out before the record is walked)."""
    if params is None:
        params = REVIEW_PARAMS
    elif not isinstance(params, ReviewParams):
        raise TypeError(f"params of a review are a ReviewParams; got {type(params).__name__}")
    until = play_deadline(time_limit_ms, deadline)  # a time limit counts from the call:
    try:  # reading the record too (a megabyte of events takes 100 ms)
        record = Record.of(record, until)
    except DeadlineExceeded:
        raise time_ran_out("the record was read") from None
    try:
        walked = walk(record, deadline=until)  # the record checked like a state, once
    except DeadlineExceeded:
        raise time_ran_out(f"the record's {len(record.steps)} events were walked") from None
    chosen = _seats(seats, record)
    names_ = (REVIEW_LEVEL, *GAMES[record.game].levels)
    if level is not None and level not in names_:
        raise InvalidOptionError("level", f"unknown level {shown(level)}; choose one of "
                                          f"{', '.join(names_)}", code="invalid_level")
    looking = params.level(record.game, level)
    given_seed = plain_int(seed)
    if given_seed is None:
        raise InvalidOptionError("seed", f"seed must be an integer; got {shown(seed)}",
                                 code="invalid_seed")
    seed = given_seed
    if math.isfinite(until.remaining_s()):  # Deadline.never(): no time to keep back
        # the decisions stop early enough to leave time to write the answer
        keep = max(WRITE_MARGIN_S, WRITE_SHARE * until.remaining_s())
        until = until.within_ms(max(0.0, until.remaining_ms() - 1000.0 * keep))
    judge = _Judge(record, walked, looking, seed, params, until)
    wanted = [(n, d) for n, d in enumerate(walked.decisions) if d.seat in chosen]
    judged: list[Judged] = []
    complete = True
    for number, decision in wanted:
        if until.expired():
            complete = False
            break
        found = judge.judge(number, decision)
        if found is None:
            complete = False
            break
        judged.append(found)
    baseline = baseline_for(record.game, looking.name, record.seats, record.rules,
                            record.oklahoma)
    players = tuple(_player(record, seat, judged, walked, complete, params, baseline)
                    for seat in chosen)
    if complete and len(chosen) == record.seats:
        _net_luck(players)
    split = _split(record, players, walked, complete, chosen, baseline)
    return Review(record, looking.name, seed, tuple(judged), players, split, walked.ending,
                  walked.result, complete, len(wanted), baseline)


def _seats(seats: Sequence[int] | None, record: Record) -> tuple[int, ...]:
    if seats is None:
        return tuple(range(record.seats))
    if not is_list(seats):
        raise InvalidStateError(f"seats must be a list of seats from 0 to {record.seats - 1}; "
                                f"got {type(seats).__name__}", code="invalid_state",
                                loc=("seats",))
    if not seats:  # as the API's schema: None is every seat, an empty list none to review
        raise InvalidStateError("seats must name a seat at least (leave it out for every "
                                "seat)", code="invalid_state", loc=("seats",))
    chosen = []
    for index, given in enumerate(seats):
        seat = plain_int(given)
        if seat is None or not 0 <= seat < record.seats:
            raise InvalidStateError(f"seats[{index}] must be a seat from 0 to "
                                    f"{record.seats - 1}; got {shown(given)}", code="invalid_state",
                                    loc=("seats", index))
        if seat not in chosen:
            chosen.append(seat)
    return tuple(sorted(chosen))


def _player(record: Record, seat: int, judged: Sequence[Judged], walked: Walked,
            complete: bool, params: ReviewParams, baseline: LuckBaseline | None
            ) -> PlayerReview:
    mine = [j for j in judged if j.seat == seat]
    totals = Totals(hands=1)
    skill_error = 0.0
    for j in mine:
        if j.forced:
            totals.forced += 1
            continue
        if j.loss is None or j.label is None:
            totals.unvalued += 1
            continue
        totals.decisions += 1
        scale = params.scale(record.game, j.units)
        totals.points_lost += j.points_lost or 0.0
        totals.units_lost += j.loss / scale
        totals.accuracy += 100.0 * math.exp(-max(0.0, j.loss) / (params.accuracy_scale * scale))
        totals.labels[j.label] += 1
        phase = totals.phases.setdefault(j.kind, [0.0, 0.0])
        phase[0] += 1
        phase[1] += j.points_lost or 0.0
        if j.decisive:
            totals.decisive += 1
            totals.agreed += int(j.label == "best")
        skill_error += _points_error(j) ** 2
    luck, luck_error, draws = _luck(mine, 0.0 if baseline is None else baseline.per_draw)
    if mine:
        expected = 0.0 if baseline is None else baseline.expected_deal(
            position_of(seat=seat, dealer=record.dealer, seats=record.seats),
            mine[0].value_exact)
        totals.deal_luck = mine[0].value - expected
    totals.draw_luck, totals.draws = luck, draws
    luck_error = math.sqrt(luck_error + (mine[0].value_error or 0.0) ** 2) if mine else 0.0
    if complete and walked.result is not None:
        totals.result, totals.results = walked.result[seat], 1
    worst = sorted((j for j in mine if j.label in ERRORS), key=lambda j: -(j.loss or 0.0))
    return PlayerReview(seat, record.players[seat], totals, tuple(worst[:WORST]), luck_error,
                        math.sqrt(skill_error))


def _points_error(j: Judged) -> float:
    """The standard error of a decision's ``points_lost``: its loss's where the
    loss is in points; with a match score (the loss in the chance to win the
    match, the points lost the difference of the two moves' means) the two
    means' errors together."""
    if j.units == "points" or j.label == "best":
        return j.loss_error or 0.0
    return math.sqrt((j.value_error or 0.0) ** 2 + (j.played_error or 0.0) ** 2)


def _net_luck(players: Sequence[PlayerReview]) -> None:
    """Each player's net luck: its stock draws' luck less the others' mean,
    and its deal's luck counted once, as ``(n - 1) / n`` of its deal luck
    less the others' mean (``net_deal``).  Both differences leave out a bias
    common to every seat (one the luck baseline left, or every bias where
    none was measured).  A seat that never came to a decision is given, as
    its deal luck, what the others leave (``dealt_luck``)."""
    deals = dealt_luck([p.totals.deal_luck if _decided(p.totals) else None for p in players])
    draws = [p.totals.draw_luck for p in players]
    for player, deal in zip(players, deals, strict=True):
        player.totals.deal_luck = deal  # a seat that never decided: what the others leave
    for seat, player in enumerate(players):
        player.totals.net_luck = net_deal(deals, seat) + less_the_others(draws, seat)
        player.totals.net_hands = 1


def less_the_others(values: Sequence[float], seat: int) -> float:
    """``seat``'s value less the other seats' mean: a seat's net figure.

    >>> less_the_others([3.0, 1.0, -1.0], 0)
    3.0
    """
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - sum(others) / len(others)


def _decided(totals: Totals) -> bool:
    """Whether the seat came to a decision (its deal luck was read there)."""
    return totals.decisions + totals.forced + totals.unvalued > 0


def dealt_luck(deals: Sequence[float | None]) -> list[float]:
    """Each seat's deal luck, a seat that never came to a decision (None:
    the hand ended first, as when the player before it dropped at once)
    given what the others leave, shared among such seats: the deal's
    values sum to about 0 (``net_deal``).

    >>> dealt_luck([-10.0, -10.0, None]), dealt_luck([4.0, None]), dealt_luck([None, None])
    ([-10.0, -10.0, 20.0], [4.0, -4.0], [0.0, 0.0])
    """
    unknown = sum(d is None for d in deals)
    left = -sum(d for d in deals if d is not None) / unknown if unknown else 0.0
    return [left if d is None else d for d in deals]


def net_deal(deals: Sequence[float], seat: int) -> float:
    """The share of a hand's result ``seat``'s deal accounts for, from each
    seat's deal luck (its value at its first decision less its position's
    baseline): ``(n - 1) / n`` of its deal luck less the others' mean.

    The deal moves every seat's value at once and the results sum to 0
    (each game's result is zero-sum), so the deal's values sum to about 0
    too, and a seat's own deal luck is that share of its difference from
    the others' mean: the deal counted once, not as one seat's luck plus
    the others' bad luck, which is the same cards read again (with two
    players, twice).  A draw, an error, is one seat's event: its effect
    on the others is the whole of it, shared out, and it counts in full.

    >>> net_deal([6.0, -6.0], 0), net_deal([-10.0, -10.0, 20.0], 2)
    (6.0, 20.0)
    """
    n = len(deals)
    return (n - 1) / n * less_the_others(deals, seat)


def _luck(mine: Sequence[Judged], per_draw: float) -> tuple[float, float, int]:
    """The luck of a player's stock draws: each draw's card against the
    draw's value (the best value at its next decision less the draw's
    value, less ``per_draw``: the baseline), their variance, and the draws
    counted."""
    total = variance = 0.0
    count = 0
    for j, after in itertools.pairwise(mine):
        if j.decision.drawn is None or j.played_value is None \
                or after.decision.first != j.decision.last + 1:
            continue
        total += after.value - j.played_value - per_draw
        variance += (after.value_error or 0.0) ** 2 + (j.played_error or 0.0) ** 2
        count += 1
    return total, variance, count


def _split(record: Record, players: Sequence[PlayerReview], walked: Walked, complete: bool,
           chosen: Iterable[int], baseline: LuckBaseline | None) -> tuple[Split, ...]:
    """Each seat's result as its position's edge + net skill + net luck
    (``_net_luck``'s) + rest (every seat reviewed, the hand over)."""
    if not complete or walked.result is None or tuple(chosen) != tuple(range(record.seats)):
        return ()
    n = record.seats
    skill = [-p.totals.points_lost for p in players]
    out = []
    for seat in range(n):
        others = [s for s in range(n) if s != seat]
        net_skill = less_the_others(skill, seat)
        net_luck = players[seat].totals.net_luck  # _net_luck's, every seat reviewed
        variance = players[seat].skill_error ** 2 + players[seat].luck_error ** 2 + sum(
            (players[s].skill_error ** 2 + players[s].luck_error ** 2) / len(others) ** 2
            for s in others)
        result = walked.result[seat]
        edge = 0.0 if baseline is None else \
            baseline.edge(position_of(seat=seat, dealer=record.dealer, seats=n))
        out.append(Split(seat, result, edge, net_skill, net_luck,
                         result - edge - net_skill - net_luck, math.sqrt(variance)))
    return tuple(out)




def review_game(*, game: str, players: Sequence[str], deal: Mapping[str, Any],
                events: Sequence[Mapping[str, Any]], dealer: int | None = None,
                score: Sequence[int] | None = None, target: int | None = None,
                rules: Mapping[str, Any] | None = None, oklahoma: bool = False,
                result: Sequence[float] | None = None, seats: Sequence[int] | None = None,
                level: str | None = None, seed: int = 0, deadline: Deadline | None = None,
                time_limit_ms: int | None = None) -> Review:
    """``review`` of the record given field by field (its wire form): the
    library call of ``POST /v1/review``, ``rummy-solver review`` and a bulk
    line."""
    fields = {"game": game, "players": players, "dealer": dealer, "deal": deal,
              "events": events, "score": score, "target": target, "rules": rules,
              "oklahoma": oklahoma, "result": result}
    return review({name: value for name, value in fields.items() if value is not None},
                  seats=seats, level=level, seed=seed, deadline=deadline,
                  time_limit_ms=time_limit_ms)


def review_openspiel(*, history: Sequence[int], players: Sequence[str] | None = None,
                     score: Sequence[int] | None = None, target: int | None = None,
                     seats: Sequence[int] | None = None, level: str | None = None,
                     seed: int = 0, deadline: Deadline | None = None,
                     time_limit_ms: int | None = None) -> Review:
    """``review`` of an OpenSpiel ``gin_rummy`` action history read as a
    record (``solver.review.openspiel.from_openspiel``: OpenSpiel's default
    parameters; ``players`` the seats' ids, OpenSpiel's player 0 first;
    ``score`` and ``target`` the match): the library call of ``POST
    /v1/review/openspiel``, ``rummy-solver review-openspiel`` and a bulk line."""
    until = play_deadline(time_limit_ms, deadline)  # reading the history counts too
    record = from_openspiel(history, ("player 0", "player 1") if players is None else players,
                            score, MATCH_TARGET if target is None else target)
    return review(record, seats=seats, level=level, seed=seed, deadline=until)


__all__ = ["CHECK_OFFSET", "PHASES", "WORST", "Judged", "PlayerReview", "Review", "Split",
           "Totals", "decision_seed", "describe", "label_of", "move_key", "review", "review_game",
           "review_openspiel"]
