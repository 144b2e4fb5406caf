"""Request and response models of the play endpoints: gin, hints, round scoring.

Same conventions as ``api.shared.schemas``: requests are strict and reject unknown
fields; responses mirror the ``to_dict()`` of the library's results
(``solver.gin``, ``solver.hints``, ``solver.layoffs``, ``solver.round_scoring``)
plus ``elapsed_ms``.  Every model carries an example (real answers, see
``api.shared.examples``).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from api.shared.examples import REQUESTS, example
from api.shared.schemas import (
    RULES_FIELD,
    TIME_LIMIT_DOC,
    WILD_RANK_DOC,
    AnsweredBy,
    CardToken,
    GoOutOut,
    HandCards,
    LayoffVariantIn,
    MeldOut,
    OperationRequest,
    PileCards,
    PlayTimeLimit,
    RoundVariantIn,
    RulesOverride,
    SolveStatus,
    VariantIn,
    WildRank,
    choice_type,
)
from solver.hints import MAX_PILE_CARDS, MAX_SEEN_CARDS
from solver.layoffs import MAX_MELD_CARDS, MAX_TABLE_MELDS
from solver.round_scoring import MAX_MELDED_GROUPS, MAX_PLAYERS


def _request(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": list(examples)})


def _response(*examples: Any) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": [e for e in examples if e]})


ELAPSED = Field(description="wall time spent in the solver, milliseconds")
RULES = RULES_FIELD
TableMeldCards = Annotated[list[CardToken], Field(max_length=MAX_MELD_CARDS)]
TABLE_DESCRIPTION = (
    "melds already on the table (any player's), each a list of cards in meld order; a run's "
    "wild card keeps the meaning its position gives it (['5H','6H','JK'] is 5-6-7), a set's "
    f"wild card stands for any missing suit; at most {MAX_TABLE_MELDS} melds"
)


class Better(enum.StrEnum):
    """Whether a lower or a higher value is the better option."""

    LOWER = "lower"
    HIGHER = "higher"


def _time_limit() -> Any:
    return Field(default=None, description=TIME_LIMIT_DOC)


def _wild_rank() -> Any:
    return Field(default=None, description=WILD_RANK_DOC)


# ---------------------------------------------------------------------------
# Shared pieces


class LayoffOut(BaseModel):
    """Cards laid off onto one table meld; ``extended`` is that meld afterwards."""

    model_config = _response(example("hint_layoffs", 0, "best", "layoffs", 0))

    table_index: int = Field(description="index of the table meld (or knocker meld) extended")
    cards: list[str] = Field(description="the laid-off cards, outward from the meld")
    represents: list[str] = Field(description="the card each laid-off card stands for")
    points: int = Field(description="what the laid-off cards score melded")
    extended: MeldOut


class PlayOut(BaseModel):
    """The best play of a hand: new melds, layoffs, cards kept."""

    model_config = _response(example("hint_layoffs", 0, "best"))

    melds: list[MeldOut] = Field(description="new melds made from the hand")
    layoffs: list[LayoffOut]
    deadwood: list[str] = Field(description="cards left in hand")
    deadwood_points: int
    meld_points: int
    layoff_points: int
    net_points: int = Field(description="meld_points + layoff_points - deadwood_points")
    optimal: bool = Field(description="every engine call proved its answer")


class SolutionOut(BaseModel):
    """An optimal arrangement (``solver.Solution``), as in ``/v1/solve``."""

    model_config = _response(example("hint_discard", 0, "options", 0, "solution"))

    variant: VariantIn
    melds: list[MeldOut]
    deadwood: list[str]
    discard: str | None
    deadwood_points: int = Field(description="Indian: the uncapped cascade count")
    meld_points: int
    net_points: int
    penalty_points: int
    declarable: bool
    can_open: bool | None = Field(description="as in /v1/solve")
    go_out: GoOutOut | None = Field(description="as in /v1/solve")
    optimal: bool
    engine: AnsweredBy
    status: SolveStatus


# ---------------------------------------------------------------------------
# Gin


class KnockRequest(OperationRequest):
    """A gin hand: 10 cards (after the discard) or 11 (every discard is tried)."""

    model_config = _request(*REQUESTS["gin_knock"])

    hand: HandCards = Field(description="hand_size (10) or hand_size + 1 cards")
    knock_limit: int | None = Field(
        default=None, ge=0, le=200,
        description="knock when deadwood <= this (default: the knob knock_limit, 10)",
    )
    upcard: CardToken | None = Field(
        default=None,
        description="Oklahoma: the first upcard sets the knock limit (an ace: oklahoma_ace_knock)",
    )
    rules: RulesOverride | None = RULES
    time_limit_ms: PlayTimeLimit = _time_limit()


class KnockOptionOut(BaseModel):
    """One knocking discard with the deadwood and melds it leaves."""

    model_config = _response(example("gin_knock", 0, "options", 0))

    discard: str | None = Field(description="the card to discard (null for a 10-card hand)")
    deadwood_points: int
    gin: bool
    melds: list[MeldOut]
    deadwood: list[str]


class KnockResponse(BaseModel):
    """Knock eligibility: every discard that allows a knock, least deadwood first."""

    model_config = _response(*example("gin_knock") or [])

    knock_limit: int
    limit_source: str = Field(description="where the knock limit comes from")
    can_knock: bool
    gin: bool = Field(description="some discard leaves deadwood 0")
    big_gin: bool = Field(description="all 11 cards meld (no discard)")
    min_deadwood: int = Field(description="the least deadwood over every discard")
    options: list[KnockOptionOut] = Field(description="every distinct discard that allows a knock")
    big_gin_melds: list[MeldOut]
    optimal: bool
    elapsed_ms: float = ELAPSED


class GinScoreRequest(OperationRequest):
    """The knocker's and the defender's hands at the knock."""

    model_config = _request(*REQUESTS["gin_score"])

    knocker: HandCards = Field(
        description="hand_size cards after the discard, or hand_size + 1 (the discard is chosen too)"
    )
    defender: HandCards = Field(description="hand_size cards")
    knock_limit: int | None = Field(default=None, ge=0, le=200,
                                    description="default: the knob knock_limit (10)")
    upcard: CardToken | None = Field(default=None, description="Oklahoma: the first upcard")
    rules: RulesOverride | None = RULES
    time_limit_ms: PlayTimeLimit = _time_limit()


class KnockerHandOut(BaseModel):
    """The knocker's chosen arrangement."""

    model_config = _response(example("gin_score", 0, "knocker"))

    discard: str | None
    melds: list[MeldOut]
    deadwood: list[str]
    deadwood_points: int


class DefenderHandOut(BaseModel):
    """The defender's best reply: its melds and its layoffs onto the knocker's melds."""

    model_config = _response(example("gin_score", 0, "defender"))

    melds: list[MeldOut]
    layoffs: list[LayoffOut] = Field(description="table_index is the knocker meld extended")
    deadwood: list[str]
    deadwood_points: int


class GinOutcome(enum.StrEnum):
    """How a gin hand ended: knock, undercut (the defender had less deadwood,
    or as little with undercut_on_tie), gin (no deadwood) or big_gin (all 11
    cards melded)."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"


class GinSide(enum.StrEnum):
    """One side of a knock."""

    KNOCKER = "knocker"
    DEFENDER = "defender"


class DrawRecommendation(enum.StrEnum):
    """Take the discard, draw blind, or either (equal)."""

    TAKE_DISCARD = "take_discard"
    DRAW_BLIND = "draw_blind"
    EITHER = "either"


class LayoffEnd(enum.StrEnum):
    """Where the card goes: the low or high end of a run, or onto a set."""

    LOW = "low"
    HIGH = "high"
    SET = "set"


class PileUseKind(enum.StrEnum):
    """The picked card goes into a new meld or onto a table meld."""

    MELD = "meld"
    LAYOFF = "layoff"


class DropStage(enum.StrEnum):
    """Indian rummy: a player who dropped before drawing (first) or later (middle)."""

    FIRST = "first"
    MIDDLE = "middle"


if TYPE_CHECKING:
    DropStageIn = DropStage
else:
    DropStageIn = choice_type(DropStage, "dropped value", "invalid_drop")


class PlayerRole(enum.StrEnum):
    """The player's part in the round."""

    WINNER = "winner"
    LOSER = "loser"
    DROPPED = "dropped"
    WRONG_DECLARATION = "wrong_declaration"
    PLAYER = "player"


class KnockerChoiceOut(BaseModel):
    """One knocker arrangement and how it fares against the defender's best reply."""

    model_config = _response(example("gin_score", 0, "baseline"))

    discard: str | None
    melds: list[MeldOut]
    deadwood: list[str]
    deadwood_points: int
    defender_deadwood_points: int
    defender_laid_off: int = Field(description="cards the defender lays off")
    outcome: GinOutcome
    winner: GinSide
    points: int = Field(description="points to the winner")
    knocker_points: int = Field(description="the knocker's score (negative: the defender scores)")


class GinScoreResponse(BaseModel):
    """Outcome and points of a knock with both sides playing best (minimax)."""

    model_config = _response(*example("gin_score") or [])

    knock_limit: int
    limit_source: str
    outcome: GinOutcome
    winner: GinSide
    points: int = Field(description="points to the winner")
    knocker_points: int = Field(description="the knocker's score (negative: the defender scores)")
    knocker: KnockerHandOut
    defender: DefenderHandOut
    explanation: str = Field(description="which knocker arrangement was chosen and why")
    considered: int = Field(description="knocker arrangements within the knock limit")
    baseline: KnockerChoiceOut = Field(
        description="the least-deadwood arrangement /v1/solve reports, scored the same way"
    )
    alternatives: list[KnockerChoiceOut] = Field(description="the next best arrangements (10 at most)")
    optimal: bool
    elapsed_ms: float = ELAPSED


# ---------------------------------------------------------------------------
# Hints


class DiscardHintRequest(OperationRequest):
    """A hand holding one card more than it keeps."""

    model_config = _request(*REQUESTS["hint_discard"])

    variant: VariantIn
    hand: HandCards
    wild_rank: WildRank | None = _wild_rank()
    rules: RulesOverride | None = RULES
    time_limit_ms: PlayTimeLimit = _time_limit()


class DiscardOptionOut(BaseModel):
    """One discard: the optimum of the cards kept; equal rank means a tie."""

    model_config = _response(example("hint_discard", 0, "options", 0))

    discard: str
    rank: int = Field(description="1 = best; tied discards share a rank")
    value: int = Field(description="deadwood (min_deadwood), net (max_net) or count (Indian)")
    solution: SolutionOut


class DiscardHintResponse(BaseModel):
    """Every distinct discard, best first, ties grouped."""

    model_config = _response(*example("hint_discard") or [])

    variant: VariantIn
    better: Better = Field(description="whether a lower or a higher value is better")
    options: list[DiscardOptionOut]
    groups: list[list[str]] = Field(description="discards of equal rank, best group first")
    optimal: bool
    elapsed_ms: float = ELAPSED


class DrawHintRequest(OperationRequest):
    """A hand before drawing, the discard-pile top and cards known to be out of the stock."""

    model_config = _request(*REQUESTS["hint_draw"])

    variant: VariantIn
    hand: HandCards = Field(description="the kept hand, before drawing")
    discard_top: CardToken
    seen: list[CardToken] | None = Field(
        default=None, max_length=MAX_SEEN_CARDS,
        description="other cards known not to be in the stock (the rest of the pile, melds ...)",
    )
    wild_rank: WildRank | None = _wild_rank()
    rules: RulesOverride | None = RULES
    time_limit_ms: PlayTimeLimit = _time_limit()


class DrawTakeOut(BaseModel):
    """Taking the pile top: the optimum with its best discard."""

    model_config = _response(example("hint_draw", 0, "take"))

    value: int
    solution: SolutionOut


class DrawOutcomeOut(BaseModel):
    """Drawing one unseen card type: the optimum after the best discard."""

    model_config = _response(example("hint_draw", 0, "blind", "outcomes", 0))

    card: str
    copies: int = Field(description="copies of the card unseen (its weight)")
    value: int
    discard: str | None


class DrawBlindOut(BaseModel):
    """Drawing blind: the exact expected optimum over the unseen cards."""

    model_config = _response(example("hint_draw", 0, "blind"))

    expected_value: float
    expected_exact: str = Field(description="the expectation as an exact fraction p/q")
    unseen: int = Field(description="unseen cards (physical copies)")
    outcomes: list[DrawOutcomeOut]


class DrawHintResponse(BaseModel):
    """Take the discard or draw blind, and why."""

    model_config = _response(*example("hint_draw") or [])

    variant: VariantIn
    better: Better
    current_value: int = Field(description="the optimum of the hand as it is")
    discard_top: str
    take: DrawTakeOut
    blind: DrawBlindOut
    recommendation: DrawRecommendation
    reason: str
    optimal: bool
    elapsed_ms: float = ELAPSED


class LayoffsRequest(OperationRequest):
    """A hand and the melds on the table."""

    model_config = _request(*REQUESTS["hint_layoffs"])

    variant: LayoffVariantIn
    hand: HandCards
    table: list[TableMeldCards] = Field(max_length=MAX_TABLE_MELDS, description=TABLE_DESCRIPTION)
    wild_rank: WildRank | None = _wild_rank()
    rules: RulesOverride | None = RULES
    time_limit_ms: PlayTimeLimit = _time_limit()


class FitOut(BaseModel):
    """A table meld end a hand card can reach, once the ``via`` cards fill the gap."""

    model_config = _response(example("hint_layoffs", 0, "fits", 2, "extends", 0))

    table_index: int
    end: LayoffEnd
    represents: str = Field(description="the card it stands for (a wild card's meaning)")
    via: list[str] = Field(description="other hand cards laid off before it")


class CardFitsOut(BaseModel):
    """Every table meld end one hand card can reach."""

    model_config = _response(example("hint_layoffs", 0, "fits", 2))

    card: str
    extends: list[FitOut]


class LayoffsResponse(BaseModel):
    """Which cards extend which table melds, and the best mix of melds and layoffs."""

    model_config = _response(*example("hint_layoffs") or [])

    variant: VariantIn
    table: list[MeldOut] = Field(description="the table melds as read")
    fits: list[CardFitsOut]
    fits_complete: bool = Field(description="false when the deadline cut the listing short")
    best: PlayOut
    better: Better
    value: int = Field(description="the best play's deadwood (min_deadwood) or net (max_net)")
    optimal: bool = Field(description="the listing is complete and the best play proved")
    elapsed_ms: float = ELAPSED


class PileHintRequest(OperationRequest):
    """A hand, the table and the discard pile (bottom to top)."""

    model_config = _request(*REQUESTS["hint_pile"])

    variant: LayoffVariantIn
    hand: HandCards
    table: list[TableMeldCards] = Field(default_factory=list, max_length=MAX_TABLE_MELDS,
                                        description=TABLE_DESCRIPTION)
    discard_pile: PileCards = Field(description=f"bottom to top; at most {MAX_PILE_CARDS} cards "
                                  "(depths past the hand card limit are not evaluated)")
    wild_rank: WildRank | None = _wild_rank()
    rules: RulesOverride | None = RULES
    time_limit_ms: PlayTimeLimit = _time_limit()


class PileUseOut(BaseModel):
    """A way to use the deepest card taken, with the best net of the turn around it."""

    model_config = _response(example("hint_pile", 0, "depths", 1, "uses", 0))

    kind: PileUseKind
    meld: MeldOut = Field(description="the new meld, or the table meld after the layoff")
    table_index: int | None
    cards: list[str] = Field(description="the hand cards it uses")
    net: int


class PileDepthOut(BaseModel):
    """Taking the top ``depth`` cards of the pile."""

    model_config = _response(example("hint_pile", 0, "depths", 1))

    depth: int
    taken: list[str] = Field(description="the cards taken, top first")
    deepest: str
    must_use: bool = Field(description="the deepest card must be melded or laid off at once")
    evaluated: bool = Field(description="false when the hand would pass the card limit or the "
                                        "deadline came first")
    legal: bool
    penalty: int = Field(description="rommy: pile_penalty when the best play leaves the card "
                                     "unused (no use exists, or every use nets less than paying)")
    uses: list[PileUseOut]
    best: PlayOut | None
    net: int | None = Field(description="best net of the turn, penalty included")
    complete: bool = Field(description="false when the deadline cut this depth short (its uses "
                                       "and net are then the best found)")


class PileHintResponse(BaseModel):
    """Every depth of the discard pile, top first."""

    model_config = _response(*example("hint_pile") or [])

    variant: VariantIn
    table: list[MeldOut]
    current: PlayOut = Field(description="the best play without taking anything")
    depths: list[PileDepthOut]
    best_depth: int | None = Field(description="the depth with the best net")
    optimal: bool = Field(description="no part was cut short by the deadline")
    elapsed_ms: float = ELAPSED


# ---------------------------------------------------------------------------
# Round scoring


class LaidOffIn(OperationRequest):
    """Cards a player laid off onto a table meld."""

    model_config = _request({"cards": ["AH"], "onto": ["2H", "3H", "4H"]})

    cards: TableMeldCards = Field(min_length=1, description="the cards laid off")
    onto: TableMeldCards = Field(min_length=1, description="the table meld as it was before "
                                                           "the layoff (any player's)")


class PlayerIn(OperationRequest):
    """One player at the end of a round."""

    model_config = _request(
        {"hand": "3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C", "went_out": True},
        {"hand": ["KS"], "melded": [["AH", "2H", "3H"]], "pile_penalties": 1},
        {"dropped": "middle"},
    )

    hand: HandCards = Field(default_factory=list, description="the cards still held")
    melded: list[list[CardToken]] | None = Field(
        default=None, max_length=MAX_MELDED_GROUPS,
        description="groups put on the table (rummy500/rommy: scored; Indian: the groups shown; "
                    "omitted: arranged optimally)",
    )
    laid_off: list[LaidOffIn] | None = Field(
        default=None, max_length=MAX_MELDED_GROUPS,
        description="cards laid off onto table melds (not Indian rummy), each with the meld "
                    "they went onto; rummy500/rommy: each scores what it adds to that meld (an "
                    "ace laid below 2-3-4 scores as a low ace), where a group of melded that is "
                    "no meld scores each card's melded points")
    went_out: bool = Field(default=False, description="went out / declared")
    dropped: DropStageIn | None = Field(default=None, description="Indian: dropped")
    had_turn: bool = Field(default=True, description="Indian: false pays half")
    rummy: bool = Field(
        default=False,
        description="the player who went out went rummy (basic: all down in one turn; Indian: "
                    "hand rummy, complete at the deal)",
    )
    pile_penalties: int = Field(default=0, ge=0, le=100,
                                description="rommy: times charged the pile penalty")


class RoundScoreRequest(OperationRequest):
    """Every player's end of round."""

    model_config = _request(*REQUESTS["score_round"])

    variant: RoundVariantIn
    rules: RulesOverride | None = RULES
    wild_rank: WildRank | None = _wild_rank()
    time_limit_ms: PlayTimeLimit = _time_limit()
    players: list[PlayerIn] = Field(min_length=2, max_length=MAX_PLAYERS)


class PlayerScoreOut(BaseModel):
    """What one player scores this round."""

    model_config = _response(example("score_round", 0, "players", 1))

    index: int
    role: PlayerRole
    points: int = Field(description="+ gains, - pays")
    hand_points: int
    melded_points: int | None
    count: int | None = Field(description="Indian: the uncapped cascade count")
    pays: int | None
    value_points: int | None = Field(description="indian21: value cards held")
    melds: list[MeldOut]
    explanation: str


class RoundScoreResponse(BaseModel):
    """Points of every player, in request order, and why."""

    model_config = _response(*example("score_round") or [])

    variant: VariantIn
    winner: int | None
    points: list[int]
    players: list[PlayerScoreOut]
    explanation: str
    elapsed_ms: float = ELAPSED


__all__ = [
    "CardFitsOut",
    "DefenderHandOut",
    "DiscardHintRequest",
    "DiscardHintResponse",
    "DiscardOptionOut",
    "DrawBlindOut",
    "DrawHintRequest",
    "DrawHintResponse",
    "DrawOutcomeOut",
    "DrawTakeOut",
    "FitOut",
    "GinScoreRequest",
    "GinScoreResponse",
    "KnockOptionOut",
    "KnockRequest",
    "KnockResponse",
    "KnockerChoiceOut",
    "KnockerHandOut",
    "LaidOffIn",
    "LayoffOut",
    "LayoffsRequest",
    "LayoffsResponse",
    "PileDepthOut",
    "PileHintRequest",
    "PileHintResponse",
    "PileUseOut",
    "PlayOut",
    "PlayerIn",
    "PlayerScoreOut",
    "RoundScoreRequest",
    "RoundScoreResponse",
    "SolutionOut",
]
