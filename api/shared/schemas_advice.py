"""Request and response models of ``POST /v1/advise``: the move advisor.

The request is the public state of a hand as one player sees it (its hand,
the first upcard, the public history, the dealer; gin: the match score;
Indian rummy: the cut card and the number of players); the
library checks that the state could have arisen (``solver.play``) and a
state that cannot is a 422 saying why.  The response mirrors
``solver.play.Advice.to_dict()``: every legal move ranked, best first.
Same conventions as ``api.shared.schemas``: strict, unknown fields refused, every
list bounded.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from api.shared.examples import REQUESTS, example
from api.shared.schemas import (
    RULES_FIELD,
    TIME_LIMIT_DOC,
    CardToken,
    HandCards,
    OperationRequest,
    PlayTimeLimit,
    RulesOverride,
    WildRank,
    choice_type,
)
from solver.play import GAMES, LEVELS
from solver.play.events import MAX_EVENTS
from solver.play.gin.state import ACTIONS as GIN_ACTIONS
from solver.play.gin.state import MATCH_SCORE
from solver.play.indian.state import ACTIONS as INDIAN_ACTIONS
from solver.play.indian.state import MAX_PLAYERS as INDIAN_MAX_PLAYERS
from solver.play.indian.state import MIN_PLAYERS
from solver.play.laydown.state import ACTIONS as RUMMY500_ACTIONS
from solver.play.laydown.variant import VARIANTS as LAY_DOWN_VARIANTS
from solver.play.model import Game as GameModel
from solver.rules import MAX_DECK_CARDS

MAX_PILE = MAX_DECK_CARDS
"""A pile or a stock holds at most the whole deck (Indian rummy deals from up to
eight decks with four jokers each)."""
MAX_MELD = 21
MAX_GROUPS = 7
MAX_TABLE_MELD = 49
"""Rummy 500: table melds are numbered from 0 (two decks hold at most 36 melds)."""
MAX_PLAYERS = max(INDIAN_MAX_PLAYERS, *(v.max_players for v in LAY_DOWN_VARIANTS.values()))
"""The most players any advised game seats (Rummy 500: 8)."""

Game = enum.Enum("Game", {name: name for name in GAMES}, type=str)  # type: ignore[misc]
Game.__doc__ = "A game the advisor plays."
Level = enum.Enum("Level", {name: name for name in LEVELS}, type=str)  # type: ignore[misc]
Level.__doc__ = ("How hard the advisor thinks (gin, per decision on one quiet core): novice "
                 "(its judgement alone: median 5 ms, p99 10 ms), standard (the default: "
                 "median 25 ms, p99 161 ms), expert (median 53 ms, p99 1 s); Rummy 500 at "
                 "three players: novice median 36 ms, standard 106 ms (p99 262 ms), expert "
                 "590 ms; Rommy plays the same number of deals; a time_limit_ms cuts any "
                 "level short with the best found so far.")
Action = enum.Enum("Action", {name: name for name in sorted(  # type: ignore[misc]
    GIN_ACTIONS | INDIAN_ACTIONS | RUMMY500_ACTIONS)}, type=str)
Action.__doc__ = ("What a player did: take_discard (the pile top), draw_stock, discard; gin: "
                  "pass (the first upcard, or at the wall), knock (a discard that ends the "
                  "hand, showing melds); Indian rummy: drop (give up the deal at the start of "
                  "a turn), declare (a discard that shows the hand's melds); Rummy 500 and "
                  "Rommy: take_discard takes the pile down to its card (basic rummy: the top "
                  "only), meld (new melds laid down), "
                  "lay_off (cards added to table meld target), pass (the stock is empty: the "
                  "round ends)")

if TYPE_CHECKING:
    GameIn = Any
    LevelIn = Any
    ActionIn = Any
else:
    GameIn = choice_type(Game, "game", "unknown_variant")
    LevelIn = choice_type(Level, "level", "invalid_level")
    ActionIn = choice_type(Action, "action", "invalid_event")

Seat = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
MeldCards = Annotated[list[CardToken], Field(max_length=MAX_MELD)]


def _request(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": list(examples)})


def _response(*examples: Any) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": [e for e in examples if e]})


class EventIn(BaseModel):
    """One public action of the hand, in order."""

    model_config = _request({"player": 1, "action": "discard", "card": "KD"},
                            {"player": 0, "action": "draw_stock"},
                            {"player": 1, "action": "knock", "card": "9C",
                             "melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"],
                                       ["4D", "5D", "6D"]], "deadwood": ["2H"]})

    player: Seat = Field(description="the seat that acted (gin: 0 or 1; Indian rummy: 0 to "
                                     "players - 1)")
    action: ActionIn
    card: CardToken | None = Field(
        default=None, description="take_discard: the card taken; discard, knock and declare: "
                                  "the card thrown (absent for draw_stock, pass and drop)")
    melds: list[MeldCards] | None = Field(
        default=None, max_length=MAX_GROUPS,
        description="knock and declare: the melds shown; meld (Rummy 500, Rommy, basic): the "
                    "melds laid down "
                    "(a run low to high, a joker where it stands), lay_off: the target meld "
                    "as it is afterwards (one meld)")
    deadwood: list[CardToken] | None = Field(
        default=None, max_length=10,
        description="knock: the unmelded cards shown (empty: gin; absent: not shown)")
    target: int | None = Field(
        default=None, ge=0, le=MAX_TABLE_MELD,
        description="lay_off (Rummy 500, Rommy, basic): the table meld laid off onto, numbered from 0 in the "
                    "order the melds were laid down (every player's)")


class ScoreIn(BaseModel):
    """The match so far (gin to 100): each side's points before this hand, 0 if left out."""

    model_config = _request({"me": 40, "opponent": 65, "target": 100})

    me: int = Field(default=MATCH_SCORE["me"], ge=0, le=10_000,
                    description="the player's points before this hand")
    opponent: int = Field(default=MATCH_SCORE["opponent"], ge=0, le=10_000,
                          description="the opponent's points before this hand")
    target: int = Field(default=MATCH_SCORE["target"], ge=1, le=10_000,
                        description="the points that win the match")


class AdviseRequest(OperationRequest):
    """The public state of a hand as the player to act sees it (gin, indian13, indian21,
    rummy500, rommy, basic)."""

    model_config = _request(*REQUESTS["advise"])

    game: GameIn = Field(description="the game: gin, indian13, indian21, rummy500, rommy "
                                         "or basic")
    # Each option's help line (rummy-solver advise --help) is its description up to the
    # first ";" outside brackets: what holds for one game only stays in the brackets.
    hand: HandCards = Field(description="the player's cards now (gin 10, or 11 after drawing; "
                                        "indian13 13 (14), indian21 21 (22); rummy500 13 "
                                        "dealt to two players, 7 to three or more; rommy 7; "
                                        "basic 10 to two players, 7 to three or four, 6 to "
                                        "five or six)")
    upcard: CardToken = Field(description="the card turned up after the deal (the first card "
                                          "of the discard pile)")
    history: list[EventIn] = Field(default_factory=list, max_length=MAX_EVENTS,
                                   description="every public action since the deal, in order")
    me: Seat = Field(default=0, description="the player's seat")
    dealer: Seat = Field(default=1, description="the dealer's seat (the seat after it plays "
                                                "first)")
    discard_pile: Annotated[list[CardToken], Field(max_length=MAX_PILE)] | None = Field(
        default=None, description="bottom to top (optional: it must match what the history "
                                  "leaves on the pile)")
    stock_count: int | None = Field(default=None, ge=0, le=MAX_PILE,
                                    description="cards left in the stock (optional check)")
    score: ScoreIn | None = Field(default=None, description="gin: the match score (gives the "
                                                            "match win probabilities, and the "
                                                            "moves are then ranked by them)")
    rules: RulesOverride | None = RULES_FIELD
    oklahoma: bool = Field(default=False, description="gin: the upcard sets the knock limit")
    wild_rank: WildRank | None = Field(
        default=None, description="Indian rummy (required): the cut card: a full card ('7H'; "
                                  "indian21 needs it), a rank ('7') or 'JK' when a printed "
                                  "joker was cut")
    players: int | None = Field(default=None, ge=MIN_PLAYERS, le=MAX_PLAYERS,
                                description="the players at the table (default 2; Indian "
                                            f"rummy {MIN_PLAYERS} to {INDIAN_MAX_PLAYERS}; "
                                            "rummy500 2 to 8: one deck to 4, two decks of 54 "
                                            "from 5; rommy and basic 2 to 6; gin takes none)")
    level: LevelIn = Field(default=GameModel.default_level, description=Level.__doc__)
    seed: int = Field(default=0, ge=0, le=2**31 - 1,
                      description="the same seed and state give the same advice (on a "
                                  "quiet machine: the search is timed)")
    time_limit_ms: PlayTimeLimit = Field(default=None, description=TIME_LIMIT_DOC)


class AdviceLayoffOut(BaseModel):
    """Cards laid off onto a meld (``target``: gin, the knocker's meld's index; Rummy
    500 and Rommy, the table meld's number)."""

    model_config = _response({"target": 0, "cards": ["4S"]})

    target: int
    cards: list[str]
    meld: list[str] | None = Field(default=None, description="Rummy 500 and Rommy: the target "
                                                             "meld afterwards, in meld order")


class MoveOut(BaseModel):
    """A legal move: the action with what it plays and shows."""

    model_config = _response(example("advise", 1, "recommended", "move"))

    action: str = Field(description="take_discard, pass, draw_stock, discard, knock or "
                                    "lay_off (the defender's reply to a knock); Indian rummy "
                                    "also drop and declare; Rummy 500 and basic rummy also "
                                    "go_out (the melds and layoffs empty the hand); their "
                                    "discard (and Rommy's, which also closes the round) lays "
                                    "down melds and layoffs first")
    card: str | None = Field(default=None, description="the card taken or thrown")
    melds: list[list[str]] | None = Field(default=None,
                                          description="knock and declare: the melds to show; "
                                                      "lay_off: the defender's melds; Rummy "
                                                      "500, Rommy and basic: the melds to lay "
                                                      "down")
    deadwood: list[str] | None = Field(default=None, description="the cards left unmelded")
    layoffs: list[AdviceLayoffOut] | None = Field(default=None, description="lay_off (and Rummy "
                                                                             "500, Rommy, "
                                                                             "basic): the "
                                                                             "layoffs")


class MoveValueOut(BaseModel):
    """A move and what it is worth to the player (this hand's points)."""

    model_config = _response(example("advise", 1, "recommended"))

    move: MoveOut
    expected_points: float = Field(description="the points the player can expect from this "
                                               "hand (negative: it expects to pay); Rummy "
                                               "500 and Rommy: its round score less the mean "
                                               "of the others' round scores; basic: what it "
                                               "collects (negative: pays)")
    win_probability: float = Field(description="the chance of winning this hand (Rummy 500 "
                                               "and Rommy: the round's best score, a tie "
                                               "shared; basic: going out first)")
    match_win_probability: float | None = Field(description="the chance of winning the match "
                                                            "(with a score)")
    exact: bool = Field(description="the figures are exact (else estimated over samples)")
    samples: int = Field(description="simulated deals behind the figures")
    standard_error: float | None = Field(description="of expected_points")
    reasons: list[str] = Field(description="why, in words")
    searched: bool = Field(description="the search compared this move in full; else its "
                                       "place comes from the advisor's judgement and its "
                                       "figures from a few deals")
    confidence: Literal["exact", "ranked", "rough"] = Field(
        description="how far the figures can be trusted: exact; ranked (compared with the "
                    "recommended move on the same deals); rough (a few deals only: not enough "
                    "to rank it)")
    gap: float | None = Field(
        description="how far this move is behind the recommended one on the deals both were "
                    "played on, in the units of ranked_by (null for the recommended move and a "
                    "move with no deals); a "
                    "negative gap within gap_error is a move whose figures look better but "
                    "not beyond their noise, placed below by the ranking rule")
    gap_error: float | None = Field(description="the paired standard error of gap")


class AdviceResponse(BaseModel):
    """Every legal move of the decision, best first."""

    model_config = _response(*example("advise") or [])

    game: Literal["gin", "indian13", "indian21", "rummy500", "rommy", "basic"]
    phase: str = Field(description="gin: first_upcard, draw, discard, wall or layoff; Indian "
                                   "rummy: draw (the start of a turn: drop, take the pile top "
                                   "or draw from the stock) or discard (discard or declare); "
                                   "Rummy 500, Rommy and basic: draw (the stock, the pile down "
                                   "to a card or its top, or pass) or play (the rest of the turn: lay down, "
                                   "lay off, throw or go out)")
    recommended: MoveValueOut
    moves: list[MoveValueOut]
    level: str
    seed: int
    complete: bool = Field(description="false when the deadline cut the estimates short; a "
                                       "move no deal was played for then shows samples 0, "
                                       "no gap, and is listed after every move with figures")
    ranked_by: Literal["expected_points", "match_win_probability"] = Field(
        description="what the moves are ranked by: this hand's expected points, or with a "
                    "match score the chance to win the match (expected points, no "
                    "match_win_probability and complete false for a match over 250 points "
                    "whose match-win table was not made by the deadline: the next request "
                    "with that target goes on making it)")
    ranking: str = Field(description="the ranking rule in words (which moves were compared "
                                     "on the same deals, which rule breaks close calls)")
    elapsed_ms: float = Field(description="wall time spent, milliseconds")


__all__ = ["AdviceResponse", "AdviseRequest", "EventIn", "RulesOverride", "ScoreIn"]
