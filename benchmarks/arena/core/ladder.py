"""Bot levels as a ladder (issue 37, part 4): every player of a round robin
rated on one scale, with intervals, what each level is for, and whether
neighbouring levels are distinct steps.  Game-agnostic: the results come in
as ``Pairing``s (``benchmarks.arena.core.round_robin`` plays them).

* **The fit** is Bradley-Terry: player ``i`` wins a hand against ``j`` with
  probability ``p_i / (p_i + p_j)``.  A tie (gin's wall, equal points)
  counts half a win to each side.  Fitted by Newton's method on the
  log-likelihood of the strengths' logarithms.
* **The prior**: each player also has one virtual tie against a virtual
  player of fixed strength 1.  It keeps every rating finite (a player that
  never loses gets a high rating, not an infinite one) and pulls ratings
  towards the middle by about one hand's worth; it also fixes the scale's
  origin, so the fit needs no normalising step.
* **The scale** is Elo's: ``400 · log10(p)``, so 400 points apart is 10 to 1
  and a hand's chance is ``1 / (1 + 10 ** ((R_j - R_i) / 400))``.  The
  anchor (``random`` unless told; None: the players' mean) is set at 0;
  moving it shifts every rating and changes no difference.
* **Intervals** (95 %) come from the bootstrap: the units (gin's mirrored
  pairs of hands, the other games' deals) of every pairing are resampled
  with replacement, the ladder refitted, and the 2.5 and 97.5 percentiles
  taken.  Pairings of the same length share each resample's unit indices:
  a round robin plays every pairing on the same deals, so a deal's luck
  moves its pairings together.  A rating's interval is that of its
  difference from the anchor; a step's interval (a player against the next
  one down) is taken directly from the resamples' differences.  The
  resamples come from a seeded generator: the same results and seed give
  the same intervals.
* **What a level is for**: the fitted chance of each reference player
  (``random``, ``greedy``, ``advisor_novice``) to win a hand against it,
  ties half: "``random`` wins 3 % of hands against it".
* ``by_units`` counts a unit as one game instead, won on its points: for
  gin, where a player can win fewer hands but by more, that rates the
  points rather than the hands.
* **Distinct steps**: neighbours on the ladder are distinct when the
  interval of their difference lies above 0.
* **The points scale** beside it: in a game scored in points a level can
  win as many hands as another and win them by more (gin's undercuts and
  gins), which hands won do not see.  Each player also gets a points
  rating, fitted by weighted least squares so that two players' ratings
  differ by the mean margin per game of one over the other (the weights:
  their games), anchored like the Elo.  The margin is half the difference
  of their points: in a zero-sum game at two players (gin, Indian rummy,
  basic rummy) what one wins from the other; its intervals and steps come from
  the same resamples.  A step on the points scale is the rating of the
  ladder's neighbour subtracted, so it is negative where the two scales
  order a pair differently.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.speed.markdown import markdown_table

ELO = 400.0 / math.log(10.0)
"""Elo points per unit of the natural-log strength."""
ANCHOR = "random"
REFERENCES = ("random", "greedy", "advisor_novice")
"""The players whose chances against each level say what the level is for."""
REPLICATES = 1000
"""Bootstrap resamples of a ladder's intervals."""
BOOTSTRAP_SEED = 0
PRIOR_TIES = 1.0
"""Virtual ties of each player against a virtual player of strength 1."""

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of a pairing (gin: a mirrored pair of hands; the other games:
    a deal, every rotation): its games' wins and ties and each side's points
    summed over its games."""

    a_wins: int
    b_wins: int
    ties: int
    a_points: float
    b_points: float

    @property
    def games(self) -> int:
        """The games (hands) of the unit."""
        return self.a_wins + self.b_wins + self.ties

    @property
    def a_score(self) -> float:
        """A's wins, ties counting half."""
        return self.a_wins + self.ties / 2


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players' results, unit by unit."""

    a: str
    b: str
    units: tuple[Unit, ...]

    def totals(self) -> Unit:
        """The pairing's units summed."""
        return Unit(sum(u.a_wins for u in self.units), sum(u.b_wins for u in self.units),
                    sum(u.ties for u in self.units), sum(u.a_points for u in self.units),
                    sum(u.b_points for u in self.units))


@dataclass(frozen=True, slots=True)
class Fit:
    """Bradley-Terry ratings on the Elo scale, the anchor at 0 (None: the mean)."""

    players: tuple[str, ...]
    ratings: tuple[float, ...]
    anchor: str | None

    def rating(self, player: str) -> float:
        """``player``'s rating."""
        return self.ratings[self.players.index(player)]

    def chance(self, player: str, against: str) -> float:
        """The fitted chance of ``player`` to win a hand against ``against`` (ties half)."""
        return win_chance(self.rating(player) - self.rating(against))


def win_chance(difference: float) -> float:
    """A hand's expected score of the side ``difference`` Elo points above the other."""
    exponent = -difference / ELO
    return 0.0 if exponent > 700 else 1.0 / (1.0 + math.exp(exponent))


def by_units(pairings: Iterable[Pairing]) -> list[Pairing]:
    """``pairings`` with each unit counted as one game, won by the side with
    more points over the unit (gin: over the mirrored pair; equal: a tie):
    a win then weighs the margin as the points do, and the deal's luck is
    out of it.  A unit's points become its points per game (a unit keeps
    the points per hand of the ladder's table)."""
    return [Pairing(p.a, p.b, tuple(
        Unit(int(u.a_points > u.b_points), int(u.b_points > u.a_points),
             int(u.a_points == u.b_points), u.a_points / max(1, u.games),
             u.b_points / max(1, u.games)) for u in p.units))
        for p in pairings]


def players_of(pairings: Iterable[Pairing]) -> tuple[str, ...]:
    """Every player of ``pairings``, in order of first appearance."""
    return tuple(dict.fromkeys(name for p in pairings for name in (p.a, p.b)))


def fit_margins(margins: FloatArray, games: FloatArray) -> FloatArray:
    """The points ratings, mean 0, whose differences best fit the margins
    (``margins[i, j]``: half of i's points less j's, summed over their games, an
    antisymmetric table; ``games`` symmetric): the weighted least squares
    of ``r_i - r_j = margins[i, j] / games[i, j]``, weights ``games``.  A
    player without games gets 0."""
    laplacian = np.diag(games.sum(axis=1)) - games
    solution, *_ = np.linalg.lstsq(laplacian, margins.sum(axis=1), rcond=None)
    ratings: FloatArray = solution - solution.mean()
    return ratings


def _margin_table(pairings: Sequence[Pairing], players: Sequence[str]) -> FloatArray:
    index = {name: i for i, name in enumerate(players)}
    margins = np.zeros((len(players), len(players)))
    for pairing in pairings:
        i, j = index[pairing.a], index[pairing.b]
        total = pairing.totals()
        margins[i, j] += (total.a_points - total.b_points) / 2
        margins[j, i] -= (total.a_points - total.b_points) / 2
    return margins


def _shifted(ratings: FloatArray, players: Sequence[str], anchor: str | None) -> FloatArray:
    zero = float(ratings[list(players).index(anchor)]) if anchor is not None else 0.0
    shifted: FloatArray = ratings - zero
    return shifted


def fit_points(pairings: Sequence[Pairing], anchor: str | None = ANCHOR,
               players: Sequence[str] | None = None) -> tuple[float, ...]:
    """The points ratings of ``players`` (``fit_margins``), ``anchor`` at 0."""
    players = tuple(players) if players is not None else players_of(pairings)
    _check_anchor(players, anchor)
    _, games = _tables(pairings, players)
    ratings = _shifted(fit_margins(_margin_table(pairings, players), games), players, anchor)
    return tuple(float(r) for r in ratings)


def _tables(pairings: Sequence[Pairing], players: Sequence[str]) -> tuple[FloatArray, FloatArray]:
    """``scores[i, j]``: i's wins against j, ties half; ``games[i, j]``: their games."""
    index = {name: i for i, name in enumerate(players)}
    scores = np.zeros((len(players), len(players)))
    games = np.zeros_like(scores)
    for pairing in pairings:
        i, j = index[pairing.a], index[pairing.b]
        total = pairing.totals()
        scores[i, j] += total.a_score
        scores[j, i] += total.games - total.a_score
        games[i, j] += total.games
        games[j, i] += total.games
    return scores, games


def _log_sigmoid(x: FloatArray) -> FloatArray:
    return -np.logaddexp(0.0, -x)


def _likelihood(theta: FloatArray, scores: FloatArray) -> float:
    prior = PRIOR_TIES / 2 * (_log_sigmoid(theta) + _log_sigmoid(-theta))
    return float((scores * _log_sigmoid(theta[:, None] - theta[None, :])).sum() + prior.sum())


def fit_strengths(scores: FloatArray, games: FloatArray, *, tolerance: float = 1e-10,
                  max_steps: int = 200) -> FloatArray:
    """The natural-log strengths maximising the Bradley-Terry likelihood of
    ``scores`` (``scores[i, j]``: i's wins against j, ties half; ``games``
    symmetric) with the virtual ties (``PRIOR_TIES``), by Newton's method
    with step halving (the log-likelihood is strictly concave)."""
    theta = np.zeros(scores.shape[0])
    current = _likelihood(theta, scores)
    for _ in range(max_steps):
        beats = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
        middle = 1.0 / (1.0 + np.exp(-theta))
        gradient = (scores - games * beats).sum(axis=1) + PRIOR_TIES * (0.5 - middle)
        weights = games * beats * (1.0 - beats)
        hessian = weights - np.diag(weights.sum(axis=1) + PRIOR_TIES * middle * (1.0 - middle))
        step = -np.linalg.solve(hessian, gradient)
        size = 1.0
        while True:
            trial = theta + size * step
            found = _likelihood(trial, scores)
            if found >= current - 1e-12 or size < 1e-6:
                break
            size /= 2
        theta, current = trial, found
        if float(np.abs(size * step).max()) < tolerance:
            break
    return theta


def _anchored(theta: FloatArray, players: Sequence[str], anchor: str | None) -> FloatArray:
    elo: FloatArray = ELO * theta
    zero = float(elo[list(players).index(anchor)]) if anchor is not None else float(elo.mean())
    return elo - zero


def _check_anchor(players: Sequence[str], anchor: str | None) -> None:
    if anchor is not None and anchor not in players:
        raise ValueError(f"the anchor {anchor!r} played no pairing; players: "
                         f"{', '.join(players)}")


def fit(pairings: Sequence[Pairing], anchor: str | None = ANCHOR,
        players: Sequence[str] | None = None) -> Fit:
    """The Bradley-Terry ratings of ``pairings`` on the Elo scale, ``anchor``
    at 0 (None: the players' mean at 0)."""
    players = tuple(players) if players is not None else players_of(pairings)
    _check_anchor(players, anchor)
    scores, games = _tables(pairings, players)
    ratings = _anchored(fit_strengths(scores, games), players, anchor)
    return Fit(players, tuple(float(r) for r in ratings), anchor)


def bootstrap(pairings: Sequence[Pairing], players: Sequence[str], anchor: str | None,
              replicates: int = REPLICATES, seed: int = BOOTSTRAP_SEED) -> FloatArray:
    """``replicates`` refits (rows; a column per player, anchored) of
    ``pairings`` with their units resampled with replacement; pairings of
    the same length draw the same unit indices in a resample."""
    return bootstrap_both(pairings, players, anchor, replicates, seed)[0]


def bootstrap_both(pairings: Sequence[Pairing], players: Sequence[str], anchor: str | None,
                   replicates: int = REPLICATES,
                   seed: int = BOOTSTRAP_SEED) -> tuple[FloatArray, FloatArray]:
    """``bootstrap``'s Elo refits and, from the same resamples, the points
    ratings' (``fit_margins``, anchored)."""
    _check_anchor(players, anchor)
    index = {name: i for i, name in enumerate(players)}
    rng = np.random.default_rng(seed)
    lengths = sorted({len(p.units) for p in pairings if p.units})
    draws = {n: rng.integers(0, n, size=(replicates, n)) for n in lengths}
    scores = np.zeros((replicates, len(players), len(players)))
    games = np.zeros_like(scores)
    margins = np.zeros_like(scores)
    for pairing in pairings:
        if not pairing.units:
            continue
        i, j = index[pairing.a], index[pairing.b]
        a_score = np.array([u.a_score for u in pairing.units])
        count = np.array([float(u.games) for u in pairing.units])
        lead = np.array([(u.a_points - u.b_points) / 2 for u in pairing.units])
        drawn = draws[len(pairing.units)]
        a_total, games_total = a_score[drawn].sum(axis=1), count[drawn].sum(axis=1)
        lead_total = lead[drawn].sum(axis=1)
        scores[:, i, j] += a_total
        scores[:, j, i] += games_total - a_total
        games[:, i, j] += games_total
        games[:, j, i] += games_total
        margins[:, i, j] += lead_total
        margins[:, j, i] -= lead_total
    elo = np.empty((replicates, len(players)))
    points = np.empty((replicates, len(players)))
    for row in range(replicates):
        elo[row] = _anchored(fit_strengths(scores[row], games[row]), players, anchor)
        points[row] = _shifted(fit_margins(margins[row], games[row]), players, anchor)
    return elo, points


@dataclass(frozen=True, slots=True)
class Step:
    """A player's lead over the next player down the ladder."""

    below: str
    difference: float
    low: float
    high: float
    points_difference: float = math.nan
    """The same step on the points scale (points per game)."""
    points_low: float = math.nan
    points_high: float = math.nan

    @property
    def distinct(self) -> bool:
        """Whether the difference's interval lies above 0."""
        return self.low > 0

    @property
    def points_distinct(self) -> bool:
        """Whether the points step's interval lies above 0."""
        return self.points_low > 0


@dataclass(frozen=True, slots=True)
class Rung:
    """One player's place on the ladder."""

    player: str
    rating: float
    low: float
    high: float
    games: int
    points: float
    """Its mean points per game over the round robin."""
    chances: tuple[tuple[str, float], ...]
    """Each reference player's fitted chance to win a game against it (ties half)."""
    purpose: str
    """The chances in words."""
    step: Step | None
    """To the next player down (None: the last)."""
    points_rating: float = math.nan
    """Its points rating (``fit_points``): points per game above the anchor."""
    points_low: float = math.nan
    points_high: float = math.nan


@dataclass(frozen=True, slots=True)
class Ladder:
    """The players from the highest rating down, and how it was fitted."""

    rungs: tuple[Rung, ...]
    anchor: str | None
    references: tuple[str, ...]
    replicates: int
    seed: int
    games_word: str
    """What the chances count: ``hands``, ``games``, ``rounds``."""
    order_by: str = "elo"
    """The scale the rungs are ordered by, and the steps taken along: ``elo`` or ``points``."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        data = asdict(self)
        for rung, row in zip(self.rungs, data["rungs"], strict=True):
            row["chances"] = dict(rung.chances)
            if rung.step is not None:
                row["step"]["distinct"] = rung.step.distinct
                row["step"]["points_distinct"] = rung.step.points_distinct
        return data

    def distinct_steps(self) -> int:
        """How many neighbours are distinct steps."""
        return sum(1 for rung in self.rungs if rung.step is not None and rung.step.distinct)

    def distinct_points_steps(self) -> int:
        """How many neighbours are distinct steps on the points scale."""
        return sum(1 for rung in self.rungs
                   if rung.step is not None and rung.step.points_distinct)


def percent(chance: float) -> str:
    """``12 %`` (``<1 %`` and ``>99 %`` at the ends)."""
    if chance < 0.005:
        return "<1 %"
    if chance > 0.995:
        return ">99 %"
    return f"{100 * chance:.0f} %"


def purpose_words(player: str, chances: Sequence[tuple[str, float]], games_word: str,
                  margins: Sequence[tuple[str, float]] = ()) -> str:
    """What a level is for: "`random` wins 3 %, `greedy` 21 % of hands against it"
    and, with ``margins`` (each reference's points per game against it, from
    the points scale), "; `greedy` gives up 6.9 points a hand to it"."""
    others = [(name, chance) for name, chance in chances if name != player]
    if not others:
        return ""
    parts = [f"`{name}` {'wins ' if k == 0 else ''}{percent(chance)}"
             for k, (name, chance) in enumerate(others)]
    words = f"{', '.join(parts)} of {games_word} against it"
    lost = [(name, margin) for name, margin in margins if name != player and not math.isnan(margin)]
    if lost:
        each = games_word.rstrip("s")
        words += "; by points, " + ", ".join(
            f"`{name}` {'loses' if margin < 0 else 'gains'} {abs(margin):.1f} a {each}"
            for name, margin in lost)
    return words


def _points(pairings: Sequence[Pairing], player: str) -> tuple[int, float]:
    games, points = 0, 0.0
    for pairing in pairings:
        total = pairing.totals()
        if player in (pairing.a, pairing.b):
            games += total.games
            points += total.a_points if player == pairing.a else total.b_points
    return games, points / games if games else math.nan


def build_ladder(pairings: Sequence[Pairing], *, anchor: str | None = ANCHOR,
                 references: Sequence[str] = REFERENCES, replicates: int = REPLICATES,
                 seed: int = BOOTSTRAP_SEED, games_word: str = "hands",
                 order_by: str = "elo") -> Ladder:
    """The ladder of ``pairings``' players: fitted ratings, bootstrap
    intervals (``replicates`` resamples from ``seed``), points per game,
    the chances of the ``references`` that played, and each step down, the
    players ordered by ``order_by`` (``elo`` or ``points``)."""
    if order_by not in ("elo", "points"):
        raise ValueError(f"order_by is elo or points, not {order_by!r}")
    players = players_of(pairings)
    found = fit(pairings, anchor, players)
    points_ratings = fit_points(pairings, anchor, players)
    samples, points_samples = bootstrap_both(pairings, players, anchor, replicates, seed)
    primary = found.ratings if order_by == "elo" else points_ratings
    order = sorted(range(len(players)), key=lambda i: -primary[i])
    present = [name for name in references if name in players]
    rungs = []
    for place, i in enumerate(order):
        player = players[i]
        chances = tuple((ref, found.chance(ref, player)) for ref in present)
        margins = tuple((ref, points_ratings[players.index(ref)] - points_ratings[i])
                        for ref in present)
        step = None
        if place + 1 < len(order):
            j = order[place + 1]
            lead = samples[:, i] - samples[:, j]
            margin = points_samples[:, i] - points_samples[:, j]
            step = Step(players[j], found.ratings[i] - found.ratings[j],
                        float(np.percentile(lead, 2.5)), float(np.percentile(lead, 97.5)),
                        points_ratings[i] - points_ratings[j],
                        float(np.percentile(margin, 2.5)), float(np.percentile(margin, 97.5)))
        games, points = _points(pairings, player)
        rungs.append(Rung(player, found.ratings[i], float(np.percentile(samples[:, i], 2.5)),
                          float(np.percentile(samples[:, i], 97.5)), games, points, chances,
                          purpose_words(player, chances, games_word, margins), step,
                          points_ratings[i], float(np.percentile(points_samples[:, i], 2.5)),
                          float(np.percentile(points_samples[:, i], 97.5))))
    return Ladder(tuple(rungs), anchor, tuple(present), replicates, seed, games_word, order_by)


def _elo_text(value: float) -> str:
    return f"{value:+.0f}" if round(value) else "0"


def render_ladder(ladder: Ladder, pairings: Sequence[Pairing], *, title: str,
                  points_word: str = "hand", detail: str = "") -> str:
    """The Markdown of a ladder: the table (rank, player, Elo with its
    interval, points per ``points_word``, each reference's chance against
    it, the step to the next player down), what each level is for, and each
    pairing's score; ``detail`` (the run's sizes) follows the title."""
    anchor = f"`{ladder.anchor}` at 0" if ladder.anchor else "the players' mean at 0"
    lines = [f"### {title}", "", *([detail, ""] if detail else []),
             f"Bradley-Terry ratings on the Elo scale, {anchor}, a tie half a win; 95 % "
             f"intervals from {ladder.replicates:,} bootstrap resamples of the units (seed "
             f"{ladder.seed}); the players ordered by their "
             f"{'Elo' if ladder.order_by == 'elo' else 'points rating'}, each step to the next "
             f"one down on both scales. A reference column is that player's fitted chance to win one "
             f"of the {ladder.games_word} against the row's player; a step is distinct when "
             "the interval of the difference to the next player down lies above 0. The "
             f"points rating: points per {points_word} above the anchor, its differences "
             "fitted to the pairings' mean margins (same resamples).", ""]
    header = ["rank", "player", "Elo (95 % CI)", f"points per {points_word}",
              *(f"{name} wins" for name in ladder.references), "step to next (95 % CI)",
              "points rating (95 % CI)", "points step (95 % CI)"]
    rows = []
    for rank, rung in enumerate(ladder.rungs, 1):
        if rung.player == ladder.anchor:
            elo = "0 (anchor)"
        else:
            elo = f"{_elo_text(rung.rating)} ({_elo_text(rung.low)} to {_elo_text(rung.high)})"
        chances = [("-" if name == rung.player else percent(chance))
                   for name, chance in rung.chances]
        if rung.step is None:
            step = points_step = "-"
        else:
            s = rung.step
            step = (f"{_elo_text(s.difference)} ({_elo_text(s.low)} to {_elo_text(s.high)}) "
                    f"{'distinct' if s.distinct else 'not distinct'}")
            points_step = (f"{s.points_difference:+.1f} ({s.points_low:+.1f} to "
                           f"{s.points_high:+.1f}) "
                           f"{'distinct' if s.points_distinct else 'not distinct'}")
        points_rating = ("0 (anchor)" if rung.player == ladder.anchor else
                         f"{rung.points_rating:+.1f} ({rung.points_low:+.1f} to "
                         f"{rung.points_high:+.1f})")
        rows.append([rank, rung.player, elo, f"{rung.points:+.2f}", *chances, step,
                     points_rating, points_step])
    steps = max(0, len(ladder.rungs) - 1)
    lines += [markdown_table(header, rows), "",
              f"{ladder.distinct_steps()} of {steps} steps are distinct on the Elo scale, "
              f"{ladder.distinct_points_steps()} on the points scale.",
              "", "What each level is for:", ""]
    lines += [f"* `{rung.player}`: {rung.purpose or '-'}." for rung in ladder.rungs]
    lines += ["", f"Each pairing ({ladder.games_word} won by each side, ties; points per "
                  f"{points_word} of each side):", ""]
    rows = []
    for pairing in pairings:
        total = pairing.totals()
        games = max(1, total.games)
        rows.append([f"{pairing.a} - {pairing.b}", len(pairing.units), total.games,
                     f"{total.a_wins} - {total.b_wins}", total.ties,
                     f"{total.a_points / games:+.2f} / {total.b_points / games:+.2f}"])
    lines.append(markdown_table(["pairing", "units", ladder.games_word, "won", "ties",
                                 "points"], rows))
    return "\n".join(lines).rstrip() + "\n"
