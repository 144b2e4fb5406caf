"""The move advisor (``solver.play.advise``) as an arena player.

Each decision turns the ``PlayerView`` into the advisor's request -- the
public state only: the hand, the first upcard, the history, the match score
-- and plays the recommended move.  The arena splits a knock into steps
(knock, discard, each meld, finish) and the defender's reply too (each
layoff, finish, each meld, finish); the advisor answers once per decision,
so its knock or reply is kept as a plan and played step by step.  OpenSpiel's
table takes runs of three to five cards and at most two layoffs per end of a
run: longer runs are laid in pieces, a longer layoff chain as a meld.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchmarks.arena.gin.cards import card_name
from benchmarks.arena.gin.melds import split_run
from benchmarks.arena.gin.protocol import (
    DRAW_STOCK,
    FINISH,
    KNOCK,
    PASS,
    TAKE_DISCARD,
    Action,
    ActionKind,
    Event,
    Phase,
    PlayerView,
    discard,
    knocker_melds,
    layoff,
    meld,
)
from solver.play import GAMES, advise, words

SUIT_RANKS = 13


def names(cards: Sequence[int]) -> list[str]:
    """Card names the library parses."""
    return [card_name(card) for card in cards]


def first_upcard(view: PlayerView) -> int:
    """The card turned up after the deal: taken at once, or still at the pile's bottom."""
    for event in view.history:
        if event.kind == ActionKind.TAKE_DISCARD and event.card is not None:
            return event.card
        if event.kind != ActionKind.PASS:
            break
    return view.discard_pile[0]


def history(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The arena's events as the advisor's history: a knock and the melds
    that follow it become one knock event (its deadwood is not shown)."""
    out: list[dict[str, Any]] = []
    knock: dict[str, Any] | None = None
    for event in events:
        kind = event.kind
        if kind == ActionKind.KNOCK:
            knock = {words.PLAYER: event.seat, words.ACTION: words.KNOCK, words.MELDS: []}
        elif knock is not None and event.seat == knock[words.PLAYER]:
            if kind == ActionKind.DISCARD and words.CARD not in knock:
                knock[words.CARD] = card_name(event.card or 0)
            elif kind == ActionKind.TAKE_DISCARD:  # the wall: the top taken before the knock
                out.append(_event(event))
            elif kind == ActionKind.MELD:
                knock[words.MELDS].append(names(event.meld))
            elif kind == ActionKind.FINISH:
                out.append(knock)
                knock = None
        elif kind in (ActionKind.TAKE_DISCARD, ActionKind.DRAW_STOCK, ActionKind.PASS,
                      ActionKind.DISCARD):
            out.append(_event(event))
    return out


def _event(event: Event) -> dict[str, Any]:
    """A take, draw, pass or discard as the advisor's history event (the
    arena's action kinds are the advisor's words): the card where one shows."""
    out: dict[str, Any] = {words.PLAYER: event.seat, words.ACTION: str(event.kind)}
    if event.kind in (ActionKind.TAKE_DISCARD, ActionKind.DISCARD):
        out[words.CARD] = card_name(event.card or 0)
    return out


def pieces(melds: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """Melds as the table takes them (runs of three to five)."""
    return [piece for m in melds for piece in split_run(tuple(sorted(m)))]


def layoff_order(meld_cards: Sequence[int], cards: Sequence[int]) -> tuple[list[int], list[tuple[int, ...]]]:
    """The cards laid off onto one knocker meld, nearest first, at most two
    per end of a run; a chain of three or more beyond an end is a meld."""
    suits = {c // SUIT_RANKS for c in meld_cards}
    if len(suits) > 1:  # a set: its fourth card
        return list(cards), []
    ranks = sorted(c % SUIT_RANKS for c in meld_cards)
    below = sorted((c for c in cards if c % SUIT_RANKS < ranks[0]), key=lambda c: -c)
    above = sorted(c for c in cards if c % SUIT_RANKS > ranks[-1])
    laid: list[int] = []
    melded: list[tuple[int, ...]] = []
    for chain in (below, above):
        if len(chain) >= 3:
            melded.append(tuple(sorted(chain)))
        else:
            laid.extend(chain)
    return laid, melded


def advice_request(view: PlayerView, seed: int) -> dict[str, Any]:
    """The advisor's request for ``view`` -- the public state only -- in the
    shape of a ``POST /v1/advise`` body (without a level: the caller's
    choice; the API takes seeds below 2**31, the library any integer)."""
    request: dict[str, Any] = {
        "game": "gin", "hand": names(view.hand), "upcard": card_name(first_upcard(view)),
        "history": history(view.history), "me": view.seat, "dealer": 1,
        "discard_pile": names(view.discard_pile), "seed": seed,
        "rules": {"knock_limit": view.rules.knock_limit, "gin_bonus": view.rules.gin_bonus,
                  "undercut_bonus": view.rules.undercut_bonus,
                  "undercut_on_tie": view.rules.undercut_on_tie},
    }
    if view.match_target is not None:
        request["score"] = {"me": view.my_match_points, "opponent": view.opponent_match_points,
                            "target": view.match_target}
    return request


def default_params() -> Any:
    """Today's gin parameters object: what ``advise`` plays with unless told
    (the tuner's baseline and the base of its trials)."""
    return GAMES["gin"].params


class AdvisorPlayer:
    """Plays ``solver.play.advise``'s recommendation at ``level`` (with
    ``params``, the game's parameters object, when given: an arena entrant
    with other numbers, ``dataclasses.replace`` of ``GAMES["gin"].params``)."""

    def __init__(self, level: str = "standard", time_limit_ms: int | None = None,
                 params: object = None, name: str | None = None) -> None:
        self.level = level
        self.time_limit_ms = time_limit_ms
        self.params = params
        self.name = name or ("advisor" if level == "standard" else f"advisor_{level}")
        self.start_hand(0, 0)

    def start_hand(self, seat: int, seed: int) -> None:
        """Forget the last hand's plan."""
        self.seed = seed
        self.decisions = 0
        self.plan: list[Action] = []

    def _advice(self, view: PlayerView) -> Any:
        self.decisions += 1
        request = advice_request(view, self.seed * 1000 + self.decisions)
        game = request.pop("game")
        return advise(game, **request, level=self.level, time_limit_ms=self.time_limit_ms,
                      params=self.params)

    def act(self, view: PlayerView) -> Action:
        """The advisor's move for ``view`` (or the next step of its plan)."""
        if self.plan:
            step = self.plan[0]
            if step in view.legal_actions:
                self.plan.pop(0)
                return step
            self.plan = []
            return FINISH if FINISH in view.legal_actions else view.legal_actions[0]
        phase = view.phase
        if phase == Phase.KNOCK_MELD:
            return FINISH if FINISH in view.legal_actions else view.legal_actions[0]
        move = self._advice(view).recommended.move
        action = move.action
        if action == words.PASS:
            return PASS
        if action == words.DRAW_STOCK:
            return DRAW_STOCK
        if action == words.TAKE_DISCARD:
            return KNOCK if phase == Phase.WALL else TAKE_DISCARD
        if action == words.DISCARD:
            return discard(move.card)
        if action == words.KNOCK:
            self.plan = [discard(move.card), *(meld(p) for p in pieces(move.melds)), FINISH]
            if phase == Phase.KNOCK_DISCARD:  # knocked at the wall: the discard comes now
                return self.act(view)
            return KNOCK
        return self._reply(view, move)

    def _reply(self, view: PlayerView, move: Any) -> Action:
        """The defender's plan: its layoffs (nearest first), finish, its melds,
        finish; after gin there are no layoffs: its melds, finish."""
        melded: list[tuple[int, ...]] = pieces(move.melds)
        if view.phase == Phase.DEFENDER_MELD:
            self.plan = [*(meld(m) for m in melded), FINISH]
            return self.act(view)
        table = knocker_melds(view)
        laid: list[int] = []
        for lay in move.layoffs:
            cards, chains = layoff_order(table[lay.target], lay.cards)
            laid.extend(cards)
            melded.extend(chains)
        self.plan = [*(layoff(c) for c in laid), FINISH, *(meld(m) for m in melded), FINISH]
        return self.act(view)
