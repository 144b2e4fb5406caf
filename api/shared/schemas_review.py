"""Request and response models of ``POST /v1/review``: a recorded game reviewed.

The request is a recorded game (``solver.review.record``: the game, the
players' ids, the dealer, the deal, every event with the cards drawn, gin's
match score) plus what to review (``seats``, ``level``, ``seed``) and the
deadline; a record that cannot have happened is a 422 whose ``loc`` names
the event or the part of the deal.  The response mirrors
``solver.review.Review.to_dict()``.  Same conventions as
``api.shared.schemas``: strict, unknown fields refused, every list bounded
(a record of ``MAX_EVENTS`` events, eight seats, 21-card hands).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from api.shared.examples import REQUESTS, example
from api.shared.schemas import (
    RULES_FIELD,
    TIME_LIMIT_DOC,
    CardToken,
    OperationRequest,
    PlayTimeLimit,
    RulesOverride,
    WildRank,
    choice_type,
)
from api.shared.schemas_advice import (
    MAX_GROUPS,
    MAX_MELD,
    MAX_PILE,
    MAX_PLAYERS,
    MAX_TABLE_MELD,
    ActionIn,
    GameIn,
    MeldCards,
    MoveOut,
    Seat,
)
from solver.play import LEVELS
from solver.play.events import MAX_EVENTS
from solver.review.openspiel import LAST_ACTION, MAX_ACTIONS
from solver.review.params import LABELS, REVIEW_LEVEL
from solver.review.record import MATCH_TARGET, MAX_PLAYER_ID
from solver.review.review import PHASES

MAX_HAND = 21
"""The largest hand dealt (indian21)."""

ReviewLevel = enum.Enum("ReviewLevel", {name: name for name in  # type: ignore[misc]
                                        (REVIEW_LEVEL, *LEVELS)}, type=str)
ReviewLevel.__doc__ = (
    "How hard the advisor looks at each decision: review (the default: each game's own "
    "review level, between the advisor's novice and standard, so that a gin hand is reviewed "
    "in about a second and an Indian deal in three on one core) or one of the advisor's "
    "levels (novice, standard, expert)")
if TYPE_CHECKING:
    ReviewLevelIn = Any
else:
    ReviewLevelIn = choice_type(ReviewLevel, "level", "invalid_level")

PlayerId = Annotated[str, StringConstraints(min_length=1, max_length=MAX_PLAYER_ID)]
Hand = Annotated[list[CardToken], Field(max_length=MAX_HAND)]


def _request(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": list(examples)})


def _response(*examples: Any) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": [e for e in examples if e]})


def _level() -> Any:
    return Field(default=REVIEW_LEVEL, description=ReviewLevel.__doc__)


def _seed(what: str) -> Any:
    return Field(default=0, ge=0, le=2**31 - 1,
                 description=f"the same {what}, seats, level and seed give the same review")


def _time_limit() -> Any:
    return Field(default=None, description=TIME_LIMIT_DOC + "; when it runs out the answer "
                                           "holds the decisions reviewed so far (complete: "
                                           "false)")


class DealIn(BaseModel):
    """The deal: every seat's cards, the upcard, the cut card, the stock's order."""

    model_config = _request({"hands": [["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S",
                                        "KD"],
                                       ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H",
                                        "KC"]], "upcard": "QC"})

    hands: Annotated[list[Hand], Field(min_length=2, max_length=MAX_PLAYERS)] = Field(
        description="each seat's dealt cards, seat 0 first")
    upcard: CardToken = Field(description="the card turned up after the deal (the first card "
                                          "of the discard pile)")
    wild_rank: WildRank | None = Field(default=None, description="Indian rummy (required): "
                                                                 "the cut card, as advise "
                                                                 "takes it")
    stock: Annotated[list[CardToken], Field(max_length=MAX_PILE)] | None = Field(
        default=None, description="the stock's cards in the order they are drawn, top first "
                                  "(optional: then a draw_stock event may leave out drawn)")


class LayoffIn(BaseModel):
    """Cards a gin defender laid off onto one of the knocker's melds."""

    model_config = _request({"target": 0, "cards": ["4S"]})

    target: int = Field(ge=0, le=MAX_TABLE_MELD, description="the knocker's meld, in the "
                                                             "order the knock shows them")
    cards: Annotated[list[CardToken], Field(min_length=1, max_length=MAX_MELD)]


class RecordEventIn(BaseModel):
    """One action of the game, in order: a public history event, and what only the table saw."""

    model_config = _request({"player": 0, "action": "draw_stock", "drawn": "QC"},
                            {"player": 1, "action": "discard", "card": "KD"},
                            {"player": 0, "action": "lay_off",
                             "melds": [["7H", "7D", "7C"]], "deadwood": ["KD", "2C"]})

    player: Seat = Field(description="the seat that acted")
    action: ActionIn
    card: CardToken | None = Field(default=None, description="the card taken or thrown")
    melds: list[MeldCards] | None = Field(
        default=None, max_length=MAX_GROUPS,
        description="knock and declare: the melds shown; meld: the melds laid down; lay_off "
                    "(the lay-down games): the target meld afterwards; lay_off (gin: the "
                    "defender's reply to a knock): its own melds")
    deadwood: list[CardToken] | None = Field(
        default=None, max_length=MAX_MELD,
        description="knock: the unmelded cards shown; a gin reply: the cards it keeps "
                    "unmelded (the rest of its hand was laid off)")
    target: int | None = Field(default=None, ge=0, le=MAX_TABLE_MELD,
                               description="lay_off (the lay-down games): the table meld")
    drawn: CardToken | None = Field(default=None, description="draw_stock: the card drawn "
                                                              "(not public)")
    layoffs: Annotated[list[LayoffIn], Field(max_length=MAX_MELD)] | None = Field(
        default=None, description="a gin reply: where its laid-off cards went (optional)")


class ReviewRequest(OperationRequest):
    """A recorded game and what to review of it."""

    model_config = _request(*REQUESTS["review_game"])

    game: GameIn = Field(description="gin, indian13, indian21, rummy500, rommy or basic")
    players: Annotated[list[PlayerId], Field(min_length=2, max_length=MAX_PLAYERS)] = Field(
        description="an id per seat (the same id across records sums up one player)")
    dealer: Seat | None = Field(default=None, description="the dealer's seat (default: the "
                                                          "last seat; the seat after it plays "
                                                          "first)")
    deal: DealIn
    events: Annotated[list[RecordEventIn], Field(max_length=MAX_EVENTS)] = Field(
        description="every action since the deal, in order")
    score: Annotated[list[Annotated[int, Field(ge=0, le=10_000)]],
                     Field(min_length=2, max_length=MAX_PLAYERS)] | None = Field(
        default=None, description="gin: the match score before the hand, per seat (two "
                                  "numbers; any other game refuses it by name)")
    target: int | None = Field(default=None, ge=1, le=10_000,
                               description=f"gin: the match's target (default {MATCH_TARGET})")
    rules: RulesOverride | None = RULES_FIELD
    oklahoma: bool = Field(default=False, description="gin: the upcard sets the knock limit")
    result: Annotated[list[float], Field(min_length=2, max_length=MAX_PLAYERS)] | None = Field(
        default=None, description="each seat's points as the source scored the hand, in "
                                  "the review's units (Rummy 500 and Rommy: its round score "
                                  "less the others' mean; basic rummy: what it collects, or "
                                  "pays as a negative) (optional; checked when the events end "
                                  "the hand)")
    seats: Annotated[list[Seat], Field(min_length=1, max_length=MAX_PLAYERS)] | None = Field(
        default=None, description="the seats whose decisions are reviewed (default: every "
                                  "seat)")
    level: ReviewLevelIn = _level()
    seed: int = _seed("record")
    time_limit_ms: PlayTimeLimit = _time_limit()


class OpenSpielReviewRequest(OperationRequest):
    """An OpenSpiel gin_rummy game, as its action history, and what to review of it."""

    model_config = _request(*REQUESTS["review_openspiel"])

    history: Annotated[list[Annotated[int, Field(ge=0, le=LAST_ACTION)]],
                       Field(min_length=1, max_length=MAX_ACTIONS)] = Field(
        description="OpenSpiel's state.history() of a gin_rummy game with its default "
                    "parameters, chance actions included (0-51 cards, 52 take the upcard, 53 "
                    "draw, 54 pass, 55 knock, 56 and up a meld: docs/REVIEW.md)")
    players: Annotated[list[PlayerId], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="an id per seat, OpenSpiel's player 0 first (default "
                                  "'player 0', 'player 1')")
    score: Annotated[list[Annotated[int, Field(ge=0, le=10_000)]],
                     Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="the match score before the hand, per seat")
    target: int | None = Field(default=None, ge=1, le=10_000,
                               description=f"the match's target (default {MATCH_TARGET})")
    seats: Annotated[list[Seat], Field(min_length=1, max_length=2)] | None = Field(
        default=None, description="the seats whose decisions are reviewed (default: both)")
    level: ReviewLevelIn = _level()
    seed: int = _seed("history")
    time_limit_ms: PlayTimeLimit = _time_limit()


class PhaseOut(BaseModel):
    """A player's decisions of one kind and what they lost."""

    model_config = _response(example("review_game", 0, "players", 0, "by_phase", "discard"))

    decisions: int
    points_lost: float
    per_decision: float | None


class AgreementOut(BaseModel):
    """How often the move played was the advisor's best where the moves
    differ by more than the noise: a signal, never a verdict."""

    model_config = _response(example("review_game", 0, "players", 0, "agreement"))

    decisive: int = Field(description="decisions where every other move is clearly worse")
    agreed: int = Field(description="of those, the decisions where the best was played")
    rate: float | None


class LuckOut(BaseModel):
    """The cards' part of the result: the deal's value and each stock draw's
    value against what the draw was worth before the card was seen."""

    model_config = _response(example("review_game", 0, "players", 0, "luck"))

    deal: float = Field(description="the value of its first decision less the luck "
                                    "baseline of its position (the response's "
                                    "luck_baseline; 0 without one)")
    draws: float = Field(description="its stock draws: each the best value at its next "
                                     "decision less the draw's value, less the baseline "
                                     "per draw")
    stock_draws: int
    total: float = Field(description="deal + draws")
    net: float | None = Field(description="its draws' luck less the other players' mean, "
                                          "and its deal counted once: (n - 1) / n of its "
                                          "deal luck less the others' mean (every seat "
                                          "reviewed): what a bias common to every seat does "
                                          "not touch")


class LuckBaselineOut(BaseModel):
    """What the players' luck is measured against: the mean over self-play
    at this game, player count and level (solver.review.luck)."""

    model_config = _response(example("review_game", 0, "luck_baseline"))

    deal: list[float] = Field(description="the mean value of a player's first decision by "
                                          "position (0: the player to play first)")
    per_draw: float = Field(description="the mean of a stock draw's difference (the best value "
                                        "at the next decision less the draw's value)")
    result: list[float] = Field(description="the mean result by position: the split's edge")
    hope: list[float] | None = Field(
        default=None, description="by position, how far an estimated first value is above the "
                                  "result of the hand it began; where given, a first value is "
                                  "measured against the position's mean result, plus this when "
                                  "it is an estimate (an Indian drop's cost is exact), instead "
                                  "of against deal")


class SumsOut(BaseModel):
    """Sums behind the figures, to add reviews up across games."""

    model_config = _response(example("review_game", 0, "players", 0, "sums"))

    units_lost: float
    accuracy: float
    results: int
    net_hands: int


class WorstOut(BaseModel):
    """One of a player's worst decisions, with the better move in words."""

    model_config = _response(example("review_game", 1, "players", 0, "worst", 0))

    number: int
    events: list[int]
    kind: str
    label: str | None
    points_lost: float | None
    played: MoveOut
    best: MoveOut
    reason: str


class ErrorsOut(BaseModel):
    """Standard errors of the player's skill (points lost) and luck."""

    model_config = _response(example("review_game", 0, "players", 0, "errors"))

    skill: float
    luck: float


class PlayerReviewOut(BaseModel):
    """One player's review of the game."""

    model_config = _response(example("review_game", 0, "players", 0))

    seat: int
    player: str
    hands: int
    decisions: int = Field(description="decisions reviewed with a choice (forced ones apart)")
    forced: int
    unvalued: int = Field(description="moves the advisor could not value (it refuses them)")
    points_lost: float
    points_lost_per_decision: float | None
    accuracy: float | None = Field(description="0 to 100, the mean of each decision's "
                                               "accuracy (docs/REVIEW.md)")
    rating: float | None = Field(description="performance rating: the mean loss per decision "
                                             "in thousandths of the game's unit; 0 plays as "
                                             "the advisor (docs/REVIEW.md)")
    labels: dict[str, int] = Field(description=f"decisions per label: {', '.join(LABELS)}")
    by_phase: dict[str, PhaseOut] = Field(description=f"losses by kind: {', '.join(PHASES)}")
    agreement: AgreementOut
    luck: LuckOut
    result: float | None
    sums: SumsOut
    worst: list[WorstOut]
    errors: ErrorsOut


class SplitOut(BaseModel):
    """A seat's result as its position's edge + net skill + net luck + rest."""

    model_config = _response(example("review_game", 0, "split", 0))

    seat: int
    result: float
    edge: float = Field(description="what its position is worth: the luck baseline's mean "
                                    "result of the position (0 without a baseline)")
    skill: float = Field(description="minus its points lost, less the other players' mean")
    luck: float = Field(description="its net luck (luck.net): its draws' luck less the "
                                    "other players' mean, its deal counted once")
    rest: float = Field(description="result - edge - skill - luck: the hidden cards turned up "
                                    "at the end, the other players' pile takes, the noise")
    noise: float = Field(description="the standard error of the skill and luck terms")


class DecisionOut(BaseModel):
    """One decision reviewed."""

    model_config = _response(example("review_game", 0, "decisions", 0))

    number: int
    seat: int
    player: str
    events: list[int] = Field(description="its first and last event")
    phase: str
    kind: str
    hand: list[str] = Field(description="the player's cards then (the public history is "
                                        "events before the first)")
    played: MoveOut
    best: MoveOut
    moves: int = Field(description="legal moves the advisor valued")
    forced: bool
    label: str | None = Field(description=f"{', '.join(LABELS)}; null: not valued")
    sure: float | None = Field(description="the chance the label is right")
    units: str = Field(description="points, or match (a gin match score: the chance to win "
                                   "the match)")
    loss: float | None
    loss_error: float | None
    points_lost: float | None
    win_change: float | None
    match_win_change: float | None
    confidence: str
    decisive: bool
    value: float = Field(description="the best move's expected points")
    played_value: float | None
    drawn: str | None
    reason: str


class ReviewResponse(BaseModel):
    """A recorded game reviewed."""

    model_config = _response(*example("review_game") or [])

    game: str
    level: str
    seed: int
    complete: bool = Field(description="false when the deadline stopped the review: "
                                       "decisions holds the ones reviewed so far")
    reviewed: int
    total: int
    ending: str
    result: list[float] | None
    luck_baseline: LuckBaselineOut | None = Field(
        description="what each player's deal and stock draws were measured against; null: "
                    "none measured (house rules, Oklahoma gin, a player count or level "
                    "without one), so every player's luck carries the estimates' bias and "
                    "players compare by their net luck")
    players: list[PlayerReviewOut]
    split: list[SplitOut]
    decisions: list[DecisionOut]
    elapsed_ms: float = Field(description="wall time spent, milliseconds")


__all__ = ["DealIn", "OpenSpielReviewRequest", "RecordEventIn", "ReviewRequest",
           "ReviewResponse"]
