"""Every operation of the service, declared once.

An ``Operation`` is a request model (its fields, bounds and examples:
``api.shared.schemas``, ``api.shared.schemas_play``), the library call that answers it, its
response model and how its deadline is set.  Everything that serves an
operation is driven by this one declaration:

* HTTP: ``api.server.routes.operations`` makes a ``POST`` route per operation (path,
  operation id, request and response schemas, description);
* ``/v1/solve/stream`` and ``bulk`` (``api.bulk``): a line names the
  operation (``"op"``) and is checked by the same ``Operation.parse`` as the
  endpoint's body, so both give the same error items, byte for byte;
* the command line (``api.cli``): a subcommand per operation, its options made
  from the request model's fields;
* the solver processes (``api.pool.jobs``): ``Operation.execute`` runs the call.

Adding an operation is one entry in ``OPERATIONS`` plus its library function.

An operation's ``name`` is its one name: the HTTP operation id, the bulk
``"op"`` and the log label.  ``aliases`` are older bulk names, still read.

>>> operation = find("solve")
>>> operation.name, operation.path
('solve_hand', '/v1/solve')
>>> call = operation.parse({"variant": "gin", "hand": "AS 2S 3S"}, DEFAULT_SETTINGS)
>>> call.limit_ms, operation.execute(call.args, Deadline.after_ms(call.limit_ms))["deadwood_points"]
(1000, 0)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ValidationError

from api.shared import reports as report
from api.shared import schemas, schemas_advice, schemas_play, schemas_review
from api.shared.deprecation import deprecated_fields
from api.shared.errors import (
    ErrorItem,
    RequestRejected,
    from_exception,
    from_validation,
    item,
    solver_failure,
)
from api.shared.review_file import REVIEW_FILE
from api.shared.round_flags import ROUND_FLAGS
from api.shared.settings import Settings
from solver.deadline import Deadline
from solver.errors import InvalidRulesError
from solver.gin import gin_score, knock_check
from solver.hints import discard_hint, draw_hint, layoffs_hint, pile_hint
from solver.play import GAMES, advise
from solver.play.model import Request as PlayRequest
from solver.review import review_game, review_openspiel
from solver.round_scoring import score_round
from solver.rules import KNOB_NAMES, LEGACY_KNOBS
from solver.session import quick_path_for
from solver.solve import solve
from solver.validate import validate

Budget = Literal["solve", "play", "fixed"]
"""How a request's deadline is set: ``solve``: its ``time_limit_ms``, default
``default_time_limit_ms``, at most ``max_time_limit_ms``; ``play`` (a call
running many solves): default and at most ``request_budget_ms``; ``fixed``:
no ``time_limit_ms``, the call takes no deadline and runs within
``request_budget_ms``."""

DEFAULT_SETTINGS = Settings.model_construct()
"""The documented defaults (for callers that have no settings of their own)."""


class CliExtra(Protocol):
    """Command-line sugar an operation adds beyond its fields (``round``'s
    per-player flags): more options, folded into the request body."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the options."""

    def apply(self, args: argparse.Namespace, body: dict[str, Any]) -> None:
        """Fold the options given into ``body`` (``RequestRejected`` when they clash)."""


@dataclass(frozen=True, slots=True)
class CliCommand:
    """How the command line offers an operation (``api.cli.commands`` builds the parser).

    ``words`` is the command (``("hint", "draw")``); ``positional`` the field
    given as bare arguments (cards); ``options`` the option strings of fields
    not spelled ``--field-name``; ``defaults`` values the command line fills in
    when not given (the wire has no default for them); ``render`` writes the
    readable report of a result; ``examples`` appear in ``--help``."""

    words: tuple[str, ...]
    help: str
    render: Callable[[Any], str]
    positional: str | None = "hand"
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    examples: tuple[str, ...] = ()
    extra: CliExtra | None = None


@dataclass(frozen=True, slots=True)
class Call:
    """A checked request: the operation, the library call's arguments (plain,
    picklable data) and its time limit in ms."""

    op: str
    args: dict[str, Any]
    limit_ms: int
    deprecated: tuple[str, ...] = ()
    """The deprecated fields the request set (``api.shared.deprecation``)."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation (see the module docstring)."""

    name: str
    path: str
    tag: str
    description: str
    request: type[schemas.OperationRequest]
    response: type[BaseModel]
    call: Callable[..., Any]
    budget: Budget
    cli: CliCommand | None = None
    aliases: tuple[str, ...] = ()
    needs_settings: bool = False
    """The call also takes ``settings`` (a batch checks each item's limits)."""
    in_lines: bool = True
    """A line of a stream or bulk file may ask for it (a batch may not: lines are its own)."""
    quick: Callable[[Mapping[str, Any]], Any] | None = None
    """A cost hint: the answer of a call that costs microseconds (the HTTP
    worker answers it itself, no solver process), or None for every other call."""
    reword: Callable[[object, ErrorItem], ErrorItem] | None = None
    """Says a validation error of the request model in the library's more
    precise words, given the decoded request (advice: an unknown knob in
    those of the game the request is about)."""

    def parse(self, data: object, settings: Settings) -> Call:
        """Check a decoded request against the model and ``settings``;
        ``RequestRejected`` (``loc`` from the top of the request) when bad."""
        try:
            request = self.request.model_validate(
                data, from_attributes=True, context=schemas.validation_context(settings))
        except ValidationError as exc:
            rejected = from_validation(exc.errors(include_url=False))
            if self.reword is not None:
                rejected = RequestRejected([self.reword(data, i) for i in rejected.items])
            raise rejected from None
        return Call(self.name, request.library_args(),
                    self.limit_ms(getattr(request, "time_limit_ms", None), settings),
                    deprecated_fields(data, self.request))

    def limit_ms(self, requested: int | None, settings: Settings) -> int:
        """The request's time limit: what it asked for (already checked), or
        the default of its budget."""
        if requested is not None and self.budget != "fixed":
            return requested
        return settings.default_time_limit_ms if self.budget == "solve" else \
            settings.request_budget_ms

    def run(self, args: Mapping[str, Any], deadline: Deadline,
            settings: Settings = DEFAULT_SETTINGS) -> Any:
        """The library's answer (a result with ``to_dict()``, or a dict); its
        input errors as ``RequestRejected`` (the command line renders the
        answer, the other front ends take ``execute``'s wire data)."""
        extra: dict[str, Any] = {}
        if self.budget != "fixed":
            extra["deadline"] = deadline
        if self.needs_settings:
            extra["settings"] = settings
        try:
            return self.call(**args, **extra)
        except ValueError as exc:
            if isinstance(exc, RequestRejected):
                raise
            raise RequestRejected([from_exception(exc)]) from None

    def execute(self, args: Mapping[str, Any], deadline: Deadline,
                settings: Settings = DEFAULT_SETTINGS) -> dict[str, Any]:
        """The answer as wire data; the library's input errors as ``RequestRejected``."""
        result = self.run(args, deadline, settings)
        data: dict[str, Any] = result if isinstance(result, dict) else result.to_dict()
        return data


def solve_items(requests: list[Any], deadline: Deadline,
                settings: Settings) -> dict[str, Any]:
    """``solve_batch``: each item checked and solved as a ``solve_hand`` request,
    in order, under the batch's one deadline (each item's own time limit cuts
    its solve shorter); a bad item, or one reached after the deadline, gets
    an error in its slot: ``{"error": {"type", "loc", "msg"}}`` with ``loc``
    as in an error answer (``["body", "requests", index, ...]``)."""
    solve_op = OPERATIONS["solve_hand"]
    results: list[dict[str, Any]] = []
    for index, request in enumerate(requests):
        started = time.perf_counter()
        prefix = ("body", "requests", index)
        try:
            # The deadline first: past it, checking each of a thousand items
            # would itself take the batch well past its deadline.
            if deadline.expired():
                raise RequestRejected.one(
                    "batch_budget_exceeded", (), "not solved: the batch reached its deadline (its "
                    "time_limit_ms, else RUMMY_SOLVER_REQUEST_BUDGET_MS, counted from its "
                    "arrival) on earlier requests")
            call = solve_op.parse(request, settings)
            answer = solve_op.execute(call.args, deadline.within_ms(call.limit_ms))
        except RequestRejected as exc:
            results.append({"error": exc.prefixed(prefix)[0]})
            continue
        except Exception as exc:  # not the item's fault: its slot says so, the batch goes on
            results.append({"error": item("solver_error", prefix,
                                          solver_failure(exc, "a batch item"))})
            continue
        answer["elapsed_ms"] = round((time.perf_counter() - started) * 1000.0, 3)
        results.append(answer)
    return {"results": results}


def solve_quick(args: Mapping[str, Any]) -> Any:
    """``solve_hand``'s answer when the library's quick path covers the call
    (``solver.quick``: a few microseconds), else None: the call needs the
    general solver.  Whether it covers it is the library's one decision
    (``solver.session.quick_path_for``: a gin or basic hand, no wild card,
    rules equal to the preset's, engine ``auto`` or ``search``), the same that
    ``solve()`` makes, so both answer the same calls the same way."""
    hand = args.get("hand")
    if not isinstance(hand, list | str):
        return None
    try:
        path = quick_path_for(args.get("variant", ""), args.get("rules"), args.get("wild_rank"),
                              args.get("engine", "auto"))
    except Exception:  # rules the library refuses: the general path answers with its error
        return None
    if path is None:
        return None
    return path.solve(hand.replace(",", " ").split() if isinstance(hand, str) else hand,
                      bool(args.get("discard", False)))


def game_knob_words(data: object, error: ErrorItem) -> ErrorItem:
    """An unknown knob of an advice request in its game's words: the knobs
    that game takes (``Game.check_rules``: "did you mean 'knock_limit'?"
    among them), not every knob of every preset, which is what the request
    model knows.  Any other item, or a request whose game is not one, as it is."""
    loc = error["loc"]
    game = data.get("game") if isinstance(data, Mapping) else None
    if (error["type"] != "invalid_rules" or len(loc) != 2 or loc[0] != "rules"
            or not isinstance(loc[1], str) or loc[1] in KNOB_NAMES or loc[1] in LEGACY_KNOBS
            or not isinstance(game, str) or game not in GAMES):
        return error
    try:  # the loc's knob name is bounded already (errors.from_validation)
        GAMES[game].check_rules(PlayRequest(hand=None, upcard=None, rules={loc[1]: None}))
    except InvalidRulesError as exc:
        return {**from_exception(exc), "loc": loc}
    return error


def _examples(*lines: str) -> tuple[str, ...]:
    return tuple(f"rummy-solver {line}" for line in lines)


OPERATIONS: dict[str, Operation] = {op.name: op for op in (
    Operation(
        "solve_hand", "/v1/solve", "solve",
        "Split a hand into melds and deadwood optimally under a variant's rules.",
        schemas.SolveRequest, schemas.SolveResponse, solve, "solve",
        CliCommand(("solve",), "the optimal melds of one hand", report.format_solution,
                   defaults={"variant": "gin"}, examples=_examples(
                       'solve --variant gin "AS 2S 3S 7H 7D 7C KD QH 4C 9S"',
                       "solve --variant indian13 --wild-rank 9 AH 2H 3H 4S 5S 9D 7S KC KD KS 5D 6D 7D",
                       'solve --variant basic --discard --rules \'{"min_run_length": 4}\' '
                       '"4H 5H 6H 7H 9C TC JC QC KS 2D 3S"')),
        aliases=("solve",), quick=solve_quick),
    Operation(
        "solve_batch", "/v1/solve/batch", "solve",
        "Solve many hands in one call; each slot holds a solution or an error.",
        schemas.BatchRequest, schemas.BatchResponse, solve_items, "play", needs_settings=True,
        in_lines=False),
    Operation(
        "validate_hand", "/v1/validate", "validate",
        "Report every problem with declared melds and deadwood, and their points.",
        schemas.ValidateRequest, schemas.ValidateResponse, validate, "fixed",
        CliCommand(("validate",), "check a declared arrangement and score it",
                   report.format_validation, positional=None,
                   options={"melds": ("--meld",)}, defaults={"variant": "gin"},
                   examples=_examples('validate --variant gin --meld "AS 2S 3S" --meld "7H 7D 7C" '
                                      '--deadwood "KD QH 4C 9S"')),
        aliases=("validate",)),
    Operation(
        "gin_knock", "/v1/gin/knock", "gin",
        "Whether a gin hand may knock, go gin or big gin, and every discard that allows a knock.",
        schemas_play.KnockRequest, schemas_play.KnockResponse, knock_check, "play",
        CliCommand(("knock",), "gin: may this hand knock? (10 cards, or 11: every discard)",
                   report.format_knock, examples=_examples(
                       'knock "2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D" --upcard 4D')),
        aliases=("knock",)),
    Operation(
        "gin_score", "/v1/gin/score", "gin",
        "Score a knock: the defender's best melds and layoffs, the knocker's best arrangement "
        "against them (minimax), the outcome and the points.",
        schemas_play.GinScoreRequest, schemas_play.GinScoreResponse, gin_score, "play",
        CliCommand(("score",), "gin: score a knock (the defender lays off optimally)",
                   report.format_gin_score, positional=None, examples=_examples(
                       'score --knocker "5H 4H 4D 3H 6H 3C 4C 6C 2C 5C" '
                       '--defender "6D 3S 7S TD 9D 4S 9H 8D 7H TS"'))),
    Operation(
        "hint_discard", "/v1/hints/discard", "hints",
        "Every distinct discard ranked by the optimum of the cards kept, ties grouped.",
        schemas_play.DiscardHintRequest, schemas_play.DiscardHintResponse, discard_hint, "play",
        CliCommand(("hint", "discard"), "rank every discard of a hand holding one card too many",
                   report.format_discard_hint, defaults={"variant": "gin"},
                   examples=_examples('hint discard "AS 2S 3S 7H 7D 7C 8C 9C TC KH QD"')),
        aliases=("discard_hint",)),
    Operation(
        "hint_draw", "/v1/hints/draw", "hints",
        "Take the discard-pile top or draw blind: the optimum with the top card against the "
        "exact expected optimum over the unseen cards.",
        schemas_play.DrawHintRequest, schemas_play.DrawHintResponse, draw_hint, "play",
        CliCommand(("hint", "draw"), "take the discard-pile top or draw blind (exact expectation)",
                   report.format_draw_hint, options={"discard_top": ("--top", "--discard-top")},
                   defaults={"variant": "gin"}, examples=_examples(
                       'hint draw "AS 2S 3S 7H 7D 7C KD QH 4C 9S" --top 4S --seen 9H')),
        aliases=("draw_hint",)),
    Operation(
        "hint_layoffs", "/v1/layoffs", "hints",
        "Which hand cards extend which table melds, and the best mix of new melds and layoffs.",
        schemas_play.LayoffsRequest, schemas_play.LayoffsResponse, layoffs_hint, "play",
        CliCommand(("layoffs",), "which cards extend the table melds, and the best play",
                   report.format_layoffs, defaults={"variant": "gin"}, examples=_examples(
                       'layoffs --variant rummy500 "8H 9H 4H JK 8C QC 2D" --table "5H 6H 7H" '
                       '--table "7S 7D 7C"')),
        aliases=("layoffs",)),
    Operation(
        "hint_pile", "/v1/hints/pile", "hints",
        "For each depth of the discard pile (under the variant's pile_pickup rule: rummy500, "
        "rommy), whether taking down to it is legal, the ways to use the deepest card and the "
        "resulting net.",
        schemas_play.PileHintRequest, schemas_play.PileHintResponse, pile_hint, "play",
        CliCommand(("pile",), "rummy500/rommy: what taking the discard pile to each depth is worth",
                   report.format_pile, options={"discard_pile": ("--pile", "--discard-pile")},
                   defaults={"variant": "rummy500"}, examples=_examples(
                       'pile "8H 9H 4H 2D 8C" --table "5H 6H 7H" --pile "KS 3C 8D 8S QD"')),
        aliases=("pile",)),
    Operation(
        "score_round", "/v1/score/round", "scoring",
        "Round scoring by the variant's round_scoring rule: collect (basic), net (rummy500, "
        "rommy), indian (indian13, indian21), hand_penalty (contract, kalooki).",
        schemas_play.RoundScoreRequest, schemas_play.RoundScoreResponse, score_round, "play",
        CliCommand(("round",), "points of a finished round for every player", report.format_round,
                   positional=None, extra=ROUND_FLAGS, examples=_examples(
                       'round --variant basic --player "" --player "KD QH 4C" --went-out 0',
                       'round --variant rummy500 --players \'[{"hand": "", "melded": [["AS", "2S", '
                       '"3S"]], "went_out": true}, {"hand": "KD QH", "melded": [["7H", "7D", "7C"]]}]\'')),
        aliases=("round",)),
    Operation(
        "advise", "/v1/advise", "advice",
        "The move a strong player would make: every legal move of the player to act, ranked, "
        "with its expected points, the chance of winning the hand (and the match), whether "
        "the figures are exact or estimated, and reasons. The request is the public state of "
        "the hand (a state that cannot arise is a 422 saying why). Games: gin, indian13 and "
        "indian21 (the cut card in wild_rank, 2 to 6 players; at the start of a turn: drop, "
        "take the pile top or draw; after drawing: discard or declare), rummy500 (2 to 8 "
        "players, two decks from 5; at the start of a turn: the stock or the pile down to a "
        "card; after drawing: what to lay down and lay off, and the throw or going out), "
        "rommy (the same for 2 to 6 players, with Rommy's points, its 50-point pile penalty "
        "and a throw that ends every turn) and basic (2 to 6 players, the pile's top card "
        "only, the player going out collects the others' hands, doubled for a rummy).",
        schemas_advice.AdviseRequest, schemas_advice.AdviceResponse, advise, "play",
        CliCommand(("advise",), "the best move of a hand's decision, every legal move ranked",
                   report.format_advice, examples=_examples(
                       'advise --upcard 4S "AS 2S 3S 7H 7D 7C KD QH 4C 9S"',
                       'advise --upcard 4S --history \'[{"player": 0, "action": "take_discard", '
                       '"card": "4S"}]\' "AS 2S 3S 4S 7H 7D 7C KD QH 4C 9S"',
                       'advise --me 1 --upcard 4S --level expert --score \'{"me": 40, "opponent": '
                       '65}\' --history \'[{"player": 0, "action": "pass"}, {"player": 1, '
                       '"action": "pass"}, {"player": 0, "action": "draw_stock"}, {"player": 0, '
                       '"action": "discard", "card": "9H"}]\' "2C 3C 4C 8D 8S 8H JH QH KS 5D"',
                       'advise --game indian13 --wild-rank 7H --players 2 --me 1 --dealer 0 '
                       '--upcard 8C "AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D"',
                       'advise --game rummy500 --players 3 --me 1 --dealer 0 --upcard 8C '
                       '"AH 2H 3H 9S 9D KC 5C"',
                       'advise --game rummy500 --players 6 --me 1 --dealer 0 --upcard 8C '
                       '--rules \'{"joker_points": 25, "ace": "low"}\' "7H 7H 8H 8H 9H 9H 5C"',
                       'advise --game rommy --players 5 --me 1 --dealer 0 --upcard 8C '
                       '"AH 2H 3H 9S 9D KC 5C"',
                       'advise --game basic --players 4 --me 1 --dealer 0 --upcard 8C '
                       '"AH 2H 3H 9S 9D KC 5C"'),
                   defaults={"game": "gin"}),
        reword=game_knob_words),
    Operation(
        "review_game", "/v1/review", "review",
        "Review a recorded game: every decision of every player (or of the seats asked for) "
        "valued by the advisor from what that player knew, the move played against the best "
        "on the same deals -- the points lost, the change in the chance to win, a label "
        "(best, good, inaccuracy, mistake, blunder) given only beyond the noise and how sure "
        "it is -- and per player the points lost per decision, an accuracy, a performance "
        "rating, the losses by phase, the three worst decisions with the better move, how "
        "often it played the advisor's best where that was clear (engine agreement: a "
        "signal, never a verdict) and its luck (the deal and each stock draw against their "
        "expectation). The record is the deal, every event in advise's history words with "
        "the cards drawn, and an id per seat; one that cannot have happened is a 422 whose "
        "loc names the event. Anytime: at the deadline the decisions reviewed so far "
        "(complete: false). docs/REVIEW.md defines every figure.",
        schemas_review.ReviewRequest, schemas_review.ReviewResponse, review_game, "play",
        CliCommand(("review",), "review a recorded game: every decision against the advisor's "
                   "best", report.format_review, positional=None, extra=REVIEW_FILE,
                   examples=_examples("review docs/examples/gin-hand.json",
                                      "review docs/examples/gin-hand.json --seats '[1]' "
                                      "--level novice --seed 3"))),
    Operation(
        "review_openspiel", "/v1/review/openspiel", "review",
        "Review an OpenSpiel gin_rummy game given as its action history (state.history(), "
        "chance actions included; OpenSpiel's default parameters): read as a recorded gin "
        "hand, OpenSpiel's player 0 as seat 0, and reviewed as POST /v1/review reviews a "
        "record, with the same answer. A history OpenSpiel could not have played is a 422 "
        "invalid_openspiel_history whose loc names the action at fault.",
        schemas_review.OpenSpielReviewRequest, schemas_review.ReviewResponse, review_openspiel,
        "play",
        CliCommand(("review-openspiel",), "review an OpenSpiel gin_rummy game from its action "
                   "history", report.format_review, positional=None,
                   examples=_examples(
                       "review-openspiel --history '[37, 12, 35, 23, 31, 3, 48, 38, 15, 46, 17, "
                       "22, 41, 16, 28, 40, 5, 24, 18, 13, 7, 54, 54, 53, 27, 31, 52, 41, 53, 25, "
                       "23, 52, 55, 17, 141, 84, 54, 54, 119, 54]' --players ann bob "
                       "--level novice"))),
)}

_BY_ALIAS: dict[str, Operation] = {alias: op for op in OPERATIONS.values() for alias in op.aliases}


def find(name: object) -> Operation | None:
    """The operation called ``name`` (its name or an older alias), or None."""
    if not isinstance(name, str):
        return None
    return OPERATIONS.get(name) or _BY_ALIAS.get(name)


def line_names() -> tuple[str, ...]:
    """The operations a stream or bulk line may ask for, in declaration order."""
    return tuple(name for name, op in OPERATIONS.items() if op.in_lines)
