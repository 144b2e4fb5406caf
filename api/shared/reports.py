"""Human-readable reports for ``rummy-solver``: one ``format_*`` per result type.

Cards are written with suit symbols (``7♥``, ``10♠``, ``JK``); a wild card
standing for another card is written ``JK=8♥``.  Every report is a column of
``label  value`` lines, melds one per line, and ends with whether the answer
is proved optimal.  The text is stable (no colours, no timings) so scripts
and tests may compare it; ``--json`` is the form meant for programs.

>>> print(format_cards([0, 22, 52]))
A♠ 10♥ JK
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from fractions import Fraction

from solver.cards import JOKER, RANKS
from solver.gin import GinScore, KnockerChoice, KnockReport
from solver.hints import DiscardHint, DrawHint, Fit, LayoffHint, PileDepth, PileHint
from solver.layoffs import Layoff, Play
from solver.play.advice import Advice, Move
from solver.results import Meld, Solution, ValidationReport
from solver.review import Review
from solver.round_scoring import PlayerScore, RoundScore

LABEL_WIDTH = 16
WRAP_WIDTH = 100
SUIT_SYMBOLS = "♠♥♦♣"
ASCII_SUITS = str.maketrans({symbol: letter for symbol, letter in zip(SUIT_SYMBOLS, "SHDC",
                                                                    strict=True)})
"""``text.translate(ASCII_SUITS)`` writes the suits as letters (for a terminal
that cannot show the symbols)."""

_RANK_TEXT = tuple("10" if rank == "T" else rank for rank in RANKS)


# ---------------------------------------------------------------------------
# Cards and melds


def format_card(card: int) -> str:
    """``7♥``, ``10♠``, ``JK``."""
    if card == JOKER:
        return "JK"
    return _RANK_TEXT[card % 13] + SUIT_SYMBOLS[card // 13]


def format_cards(cards: Iterable[int]) -> str:
    """Cards separated by spaces; ``-`` for none."""
    return " ".join(format_card(c) for c in cards) or "-"


def format_played(cards: Sequence[int], represents: Sequence[int]) -> str:
    """Cards as played: a card standing for another is ``JK=8♥``."""
    return " ".join(
        format_card(c) if c == r else f"{format_card(c)}={format_card(r)}"
        for c, r in zip(cards, represents, strict=True)
    ) or "-"


def meld_lines(melds: Sequence[Meld]) -> list[str]:
    """One aligned line per meld: kind, cards (wilds marked), points, purity."""
    texts = [format_played(m.cards, m.represents) for m in melds]
    width = max((len(t) for t in texts), default=0)
    kind_width = max((len(m.kind) for m in melds), default=0)
    return [
        f"{m.kind:<{kind_width}}  {text:<{width}}  {m.points} pts" + (", pure" if m.pure else "")
        for m, text in zip(melds, texts, strict=True)
    ]


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def _block(label: str, lines: Sequence[str]) -> list[str]:
    """``label`` in the first column, ``lines`` aligned in the second (``-`` for none)."""
    lines = list(lines) or ["-"]
    pad = " " * LABEL_WIDTH
    head = f"{label:<{LABEL_WIDTH - 1}} " if label else pad
    return [head + lines[0], *(pad + line for line in lines[1:])]


def _wrapped(label: str, text: str) -> list[str]:
    """A long sentence wrapped into the value column."""
    return _block(label, textwrap.wrap(text, WRAP_WIDTH - LABEL_WIDTH) or [""])


def _optimal(optimal: bool) -> list[str]:
    return _block("optimal", ["yes" if optimal else "no: time ran out, this is the best found"])


def _report(*blocks: list[str]) -> str:
    return "\n".join(line.rstrip() for block in blocks for line in block)


# ---------------------------------------------------------------------------
# solve and validate


def format_solution(solution: Solution) -> str:
    """The report of ``rummy-solver solve``."""
    blocks = [
        _block("variant", [solution.variant]),
        _block("melds", meld_lines(solution.melds)),
        _block("deadwood", [format_cards(solution.deadwood)]),
    ]
    if solution.discard is not None:
        blocks.append(_block("discard", [format_card(solution.discard)]))
    blocks += [
        _block("points", [f"deadwood {solution.deadwood_points}, melded {solution.meld_points}, "
                          f"net {solution.net_points}, penalty {solution.penalty_points}"]),
        _block("declarable", [_yes_no(solution.declarable)]),
    ]
    if solution.can_open is not None:
        blocks.append(_block("can open", [_yes_no(solution.can_open)]))
    if solution.go_out is not None:
        go_out = solution.go_out
        head = f"melded {go_out.meld_points}, net {go_out.net_points}"
        if go_out.discard is not None:
            head += f", discarding {format_card(go_out.discard)}"
        if not go_out.optimal:
            head += " (best found, not proved)"
        blocks.append(_block("go out", [head, *meld_lines(go_out.melds)]))
    status = f"{solution.status} ({solution.engine})"
    if not solution.optimal:
        status += ": the best found, not proved optimal"
    blocks.append(_block("status", [status]))
    return _report(*blocks)


def format_validation(report: ValidationReport) -> str:
    """The report of ``rummy-solver validate``."""
    melds = []
    for index, meld in enumerate(report.melds):
        melds.append(f"{index}  " + ("not a meld: its cards count as deadwood" if meld is None
                                    else meld_lines([meld])[0]))
    problems = [f"{p.code}: {p.message}" for p in report.problems]
    return _report(
        _block("variant", [report.variant]),
        _block("valid", [_yes_no(report.valid)]),
        _block("declarable", [_yes_no(report.declarable)]),
        _block("problems", problems),
        _block("melds", melds),
        _block("points", [f"deadwood {report.deadwood_points}, melded {report.meld_points}, "
                          f"net {report.net_points}, penalty {report.penalty_points}"]),
    )


# ---------------------------------------------------------------------------
# Gin


def _arrangement(melds: Sequence[Meld], deadwood: Sequence[int], points: int) -> list[str]:
    return [*meld_lines(melds), f"deadwood {format_cards(deadwood)} ({points})"]


def format_knock(report: KnockReport) -> str:
    """The report of ``rummy-solver knock``."""
    options: list[str] = []
    for option in report.options:
        what = "keep all" if option.discard is None else f"discard {format_card(option.discard)}"
        options.append(f"{what}: deadwood {option.deadwood_points}" + (", gin" if option.gin else ""))
        options += ["  " + line for line in _arrangement(option.melds, option.deadwood,
                                                          option.deadwood_points)]
    if not options:
        options = [f"none: the least deadwood is {report.min_deadwood}"]
    blocks = [
        _block("knock limit", [f"{report.knock_limit} ({report.limit_source})"]),
        _block("can knock", [_yes_no(report.can_knock)]),
        _block("gin", [_yes_no(report.gin)]),
        _block("big gin", [_yes_no(report.big_gin)]),
        _block("min deadwood", [str(report.min_deadwood)]),
        _block("options", options),
    ]
    if report.big_gin:
        blocks.append(_block("big gin melds", meld_lines(report.big_gin_melds)))
    blocks.append(_optimal(report.optimal))
    return _report(*blocks)


def _outcome(choice: KnockerChoice) -> str:
    return f"{choice.outcome.replace('_', ' ')}: the {choice.winner} scores {choice.points}"


def format_gin_score(score: GinScore) -> str:
    """The report of ``rummy-solver score``."""
    chosen = score.chosen
    knocker = _arrangement(chosen.melds, chosen.deadwood, chosen.deadwood_points)
    if chosen.discard is not None:
        knocker.insert(0, f"discard {format_card(chosen.discard)}")
    return _report(
        _block("outcome", [_outcome(chosen)]),
        _block("knock limit", [f"{score.knock_limit} ({score.limit_source})"]),
        _block("knocker", knocker),
        _block("defender", play_lines(chosen.defender, net=False)),
        _wrapped("explanation", score.explanation),
        _block("considered", [f"{score.considered} knocker arrangement(s)"]),
        _optimal(score.optimal),
    )


# ---------------------------------------------------------------------------
# Plays with layoffs (gin defence, layoff and pile hints)


def layoff_line(layoff: Layoff) -> str:
    """``lay off 4♥ 8♥ onto #0: 4♥ 5♥ 6♥ 7♥ 8♥ (12 pts)``."""
    return (f"lay off {format_played(layoff.cards, layoff.represents)} onto #{layoff.table_index}: "
            f"{format_played(layoff.extended.cards, layoff.extended.represents)} "
            f"({layoff.points} pts)")


def play_lines(play: Play, net: bool = True) -> list[str]:
    """New melds, layoffs and the cards kept, then the points (``net``: as a net)."""
    lines = [*meld_lines(play.melds), *(layoff_line(lay) for lay in play.layoffs),
             f"deadwood {format_cards(play.deadwood)} ({play.deadwood_points})"]
    if net:
        lines.append(f"net {play.net_points} = melded {play.meld_points} + laid off "
                     f"{play.layoff_points} - deadwood {play.deadwood_points}")
    if not play.optimal:
        lines.append("(the best found, not proved optimal)")
    return lines


def table_lines(table: Sequence[Meld]) -> list[str]:
    """The table melds, numbered as layoffs refer to them."""
    return [f"#{index}  {line}" for index, line in enumerate(meld_lines(table))]


def _fit_text(card: int, fit: Fit) -> str:
    text = format_played([card], [fit.represents]) + f" -> #{fit.table_index} {fit.end}"
    return text + (f" via {format_cards(fit.via)}" if fit.via else "")


def format_layoffs(hint: LayoffHint) -> str:
    """The report of ``rummy-solver layoffs``."""
    fits = [_fit_text(card, fit) for card, card_fits in hint.fits for fit in card_fits]
    if not hint.fits_complete:
        fits.append("(time ran out: the list may be incomplete)")
    return _report(
        _block("variant", [f"{hint.variant} ({hint.better} is better)"]),
        _block("table", table_lines(hint.table)),
        _block("fits", fits),
        _block("best", [f"value {hint.value}", *play_lines(hint.best)]),
        _optimal(hint.fits_complete and hint.best.optimal),
    )


def _depth_line(depth: PileDepth, best_depth: int | None) -> str:
    taken = f"{depth.depth:>2}  take {format_cards(depth.taken)}"
    if not depth.evaluated:
        what = "not evaluated" + ("" if depth.complete else ": time ran out")
    elif not depth.legal:
        what = f"illegal: {format_card(depth.deepest)} cannot be melded or laid off at once"
    elif depth.penalty:
        why = "every use of it nets less" if depth.uses else "it cannot be used at once"
        what = (f"net {depth.net}: {format_card(depth.deepest)} is left unused ({why}), "
                f"the pile penalty {depth.penalty} is paid")
    else:
        what = f"net {depth.net}"
        if depth.must_use:
            what += f", melds or lays off {format_card(depth.deepest)}"
    best = "  <- best" if depth.depth == best_depth else ""
    return f"{taken}: {what}{best}"


def format_pile(hint: PileHint) -> str:
    """The report of ``rummy-solver pile``."""
    blocks = [
        _block("variant", [hint.variant]),
        _block("table", table_lines(hint.table)),
        _block("now", play_lines(hint.current)),
        _block("depths", [_depth_line(d, hint.best_depth) for d in hint.depths]),
    ]
    best = next((d for d in hint.depths if d.depth == hint.best_depth), None)
    if best is not None and best.best is not None:
        blocks.append(_block(f"best (depth {best.depth})", play_lines(best.best)))
    blocks.append(_optimal(hint.optimal))
    return _report(*blocks)


# ---------------------------------------------------------------------------
# Discard and draw hints


def _value(value: int | Fraction) -> str:
    return str(value) if isinstance(value, int) else f"{float(value):.3f}"


def format_discard_hint(hint: DiscardHint) -> str:
    """The report of ``rummy-solver hint discard``: ties on one line, best first."""
    rows: list[tuple[str, str, str]] = []
    for group in hint.groups:
        first = next(o for o in hint.options if o.discard == group[0])
        note = "  declarable" if first.solution.declarable else ""
        rows.append((str(first.rank), format_cards(group), f"{first.value}{note}"))
    width = max((len(row[1]) for row in rows), default=0)
    lines = [f"{'rank':<5} {'discard':<{width}}  value"]
    lines += [f"{rank:<5} {cards:<{width}}  {value}" for rank, cards, value in rows]
    blocks = [
        _block("variant", [f"{hint.variant} ({hint.better} is better)"]),
        _block("discards", lines),
    ]
    if hint.options:
        best = hint.options[0]
        blocks.append(_block(f"best: {format_card(best.discard)}", solution_lines(best.solution)))
    blocks.append(_optimal(hint.optimal))
    return _report(*blocks)


def solution_lines(solution: Solution) -> list[str]:
    """A solution's melds and deadwood in a few lines (inside another report)."""
    lines = [*meld_lines(solution.melds), f"deadwood {format_cards(solution.deadwood)}"]
    if solution.discard is not None:
        lines.append(f"discard {format_card(solution.discard)}")
    return lines


_ADVICE = {"take_discard": "take the discard", "draw_blind": "draw blind", "either": "either"}


def format_draw_hint(hint: DrawHint) -> str:
    """The report of ``rummy-solver hint draw``."""
    take = [str(hint.take_value), *solution_lines(hint.take)]
    blind = f"{_value(hint.expected)} on average ({hint.expected.numerator}/" \
            f"{hint.expected.denominator}) over {hint.unseen} unseen card(s)"
    return _report(
        _block("variant", [f"{hint.variant} ({hint.better} is better)"]),
        _block("now", [str(hint.current_value)]),
        _block(f"take {format_card(hint.discard_top)}", take),
        _block("draw blind", [blind]),
        _wrapped("recommendation", f"{_ADVICE[hint.recommendation]}: {hint.reason}"),
        _optimal(hint.optimal),
    )


# ---------------------------------------------------------------------------
# Round scoring


def _player_lines(player: PlayerScore, role_width: int) -> list[str]:
    head = (f"{player.index:<2} {player.role:<{role_width}}  {_signed(player.points):>5}  "
            f"{player.explanation}")
    return [head, *("   " + line for line in meld_lines(player.melds))]


def format_round(score: RoundScore) -> str:
    """The report of ``rummy-solver round``: each player's role, points and why,
    with the melds it was scored on."""
    role_width = max((len(p.role) for p in score.players), default=0)
    players = [line for player in score.players for line in _player_lines(player, role_width)]
    return _report(
        _block("variant", [score.variant]),
        _block("winner", ["-" if score.winner is None else f"player {score.winner}"]),
        _block("points", [" ".join(_signed(p) for p in score.points)]),
        _block("players", players),
        _wrapped("explanation", score.explanation),
    )


__all__ = [
    "ASCII_SUITS",
    "format_card",
    "format_cards",
    "format_discard_hint",
    "format_draw_hint",
    "format_gin_score",
    "format_knock",
    "format_layoffs",
    "format_pile",
    "format_played",
    "format_round",
    "format_solution",
    "format_validation",
    "layoff_line",
    "meld_lines",
    "play_lines",
    "solution_lines",
    "table_lines",
]


def _move_text(move: Move) -> str:
    """A move in words: ``discard K♦``, ``knock with Q♦ showing A♠ 2♠ 3♠ | ...``."""
    verbs = {"take_discard": "take", "draw_stock": "draw from the stock", "pass": "pass",
             "discard": "discard", "knock": "knock, discarding", "lay_off": "reply"}
    text = verbs.get(move.action, move.action)
    if move.card is not None:
        text += f" {format_card(move.card)}"
    if move.action in ("knock", "lay_off"):
        shown = " | ".join(format_cards(m) for m in move.melds) or "no melds"
        text += f": melds {shown}"
        if move.layoffs:
            text += "; lay off " + ", ".join(
                f"{format_cards(lay.cards)} onto #{lay.target}" for lay in move.layoffs)
        if move.deadwood:
            text += f"; deadwood {format_cards(move.deadwood)}"
    return text


def format_advice(advice: Advice) -> str:
    """The report of ``rummy-solver advise``: every move ranked, best first."""
    rows = []
    for index, value in enumerate(advice.moves, 1):
        error = "" if value.standard_error is None else f" ±{value.standard_error:.1f}"
        match = "" if value.match_win_probability is None else \
            f", match {value.match_win_probability:.0%}"
        rough = " (rough)" if value.confidence == "rough" else ""
        rows.append(f"{index:>2}. {_move_text(value.move)}: {value.expected_points:+.1f}{error} "
                    f"points, wins {value.win_probability:.0%}{match}{rough}")
    best = advice.recommended
    figures = "exact" if best.exact else f"estimated over {best.samples} simulated deals"
    blocks = [
        _block("game", [f"{advice.game}, {advice.phase.replace('_', ' ')}"]),
        _block("best", [_move_text(best.move), *best.reasons]),
        _block("moves", rows),
        _wrapped("ranking", advice.ranking or "-"),
        _block("figures", [figures + ("" if advice.complete else " (cut short by the deadline)"),
                           f"level {advice.level}, seed {advice.seed}"]),
    ]
    return _report(*blocks)


def _figure(value: float | None, text: str = "{:.1f}") -> str:
    return "-" if value is None else text.format(value)


def format_review(review: Review) -> str:
    """The report of ``rummy-solver review``: each player's figures, its worst
    decisions, then every decision reviewed with its label."""
    data = review.to_dict()
    result = "-" if data["result"] is None else " ".join(f"{r:+g}" for r in data["result"])
    against = "the self-play baseline" if data["luck_baseline"] else \
        "0 (no baseline measured: compare players by net luck)"
    blocks = [_block("game", [f"{data['game']}, ended: {data['ending'].replace('_', ' ')}, "
                              f"result {result}", f"luck measured against {against}"])]
    for player in data["players"]:
        labels = ", ".join(f"{count} {label}" for label, count in player["labels"].items()
                           if count)
        agreement = player["agreement"]
        lines = [
            f"{player['decisions']} decisions ({player['forced']} forced), "
            f"{_figure(player['points_lost_per_decision'], '{:.2f}')} points lost per decision, "
            f"accuracy {_figure(player['accuracy'])}, rating {_figure(player['rating'], '{:.0f}')}",
            labels or "no decision",
            f"engine agreement {agreement['agreed']} of {agreement['decisive']} clear decisions"
            + ("" if agreement["rate"] is None else f" ({agreement['rate']:.0%})"),
            f"luck {player['luck']['total']:+.1f} (deal {player['luck']['deal']:+.1f}, "
            f"{player['luck']['stock_draws']} stock draws {player['luck']['draws']:+.1f})",
            *(f"worst: {worst['reason']}" for worst in player["worst"]),
        ]
        blocks.append(_block(f"{player['player']} (seat {player['seat']})", lines))
    for split in data["split"]:
        # to one decimal each, the rest what the terms shown leave: the line adds up as shown
        result, edge, skill, luck = (round(split[k], 1) for k in ("result", "edge", "skill",
                                                                   "luck"))
        blocks.append(_block(f"seat {split['seat']} split",
                             [f"result {result:+.1f} = edge {edge:+.1f} + skill {skill:+.1f} + "
                              f"luck {luck:+.1f} + rest {result - edge - skill - luck:+.1f} "
                              f"(noise ±{split['noise']:.1f})"]))
    rows = []
    for decision in review.decisions:
        label = decision.label or "not valued"
        # signed: a move the deals favoured over the best lost minus points (it gained)
        lost = "" if not decision.points_lost else f" {-decision.points_lost:+.1f}"
        rows.append(f"{decision.number:>3}. {review.record.players[decision.seat]}: "
                    f"{_move_text(decision.played)} [{label}{lost}]"
                    + ("" if decision.label in ("best", None) else
                       f" best: {_move_text(decision.best)}"))
    blocks.append(_block("decisions", rows))
    cut = "" if review.complete else f" (cut short by the deadline: {data['reviewed']} of " \
                                     f"{data['total']} decisions)"
    blocks.append(_block("figures", [f"level {review.level}, seed {review.seed}{cut}"]))
    return _report(*blocks)
