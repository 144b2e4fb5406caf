"""One hand between two seated players: views out, actions in, each checked
by the referee and each decision timed.

Referee-side watchers (the OpenSpiel shadow) see the hand itself before and
after every action; players only ever see ``PlayerView``s.  A player that
answers an illegal action, or raises, stops the hand: the error is recorded
against it, never corrected.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from benchmarks.arena.gin.protocol import Action, Player
from benchmarks.arena.gin.referee import GinHand, HandResult, IllegalActionError, LogEntry
from benchmarks.arena.gin.rules import ARENA_RULES, GinRules

MAX_DECISIONS = 2_000  # far above any legal hand (the 50-draw guard ends it first)


class Watcher(Protocol):
    """Referee-side observer of a hand (sees everything; never a player)."""

    def hand_started(self, hand: GinHand) -> None:
        """The deal is done."""

    def before_action(self, hand: GinHand) -> None:
        """A decision is about to be asked for."""

    def after_action(self, hand: GinHand, action: Action) -> None:
        """The referee applied ``action``."""

    def hand_ended(self, hand: GinHand) -> None:
        """The hand is over (not called after an illegal action)."""


@dataclass(frozen=True, slots=True)
class Violation:
    """An illegal action (or a crash) of the player in ``seat``."""

    seat: int
    message: str


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A played hand: its deck, its result (None when a violation stopped
    it), the referee's log, each seat's decision times (ns) and draws."""

    deck: tuple[int, ...]
    result: HandResult | None
    violation: Violation | None
    log: tuple[LogEntry, ...]
    decision_ns: tuple[tuple[int, ...], tuple[int, ...]]
    turns: tuple[int, int]

    def points_for(self, seat: int) -> int:
        """The hand's points for ``seat`` (0 when stopped by a violation)."""
        return 0 if self.result is None else self.result.points_for(seat)


def play_hand(
    deck: Sequence[int],
    players: tuple[Player, Player],
    seeds: tuple[int, int],
    *,
    rules: GinRules = ARENA_RULES,
    watchers: Sequence[Watcher] = (),
    match_points: tuple[int, int] | None = None,
    match_target: int | None = None,
) -> HandRecord:
    """Play one hand dealt from ``deck``; ``players[s]`` sits in seat ``s``.

    ``match_points`` (by seat) and ``match_target`` are shown to the players
    in a match."""
    hand = GinHand(deck, rules)
    for seat, player in enumerate(players):
        player.start_hand(seat, seeds[seat])
    for watcher in watchers:
        watcher.hand_started(hand)
    times: tuple[list[int], list[int]] = ([], [])
    points = match_points or (0, 0)
    violation = None
    for _ in range(MAX_DECISIONS):
        if hand.over:
            break
        seat = hand.to_act
        view = hand.view(seat, my_match_points=points[seat], opponent_match_points=points[1 - seat],
                         match_target=match_target)
        for watcher in watchers:
            watcher.before_action(hand)
        start = time.perf_counter_ns()
        try:
            action = players[seat].act(view)
        except Exception as error:  # a bot's crash is its own error, recorded against it
            violation = Violation(seat, f"{players[seat].name} raised {error!r} in phase {view.phase}")
            break
        times[seat].append(time.perf_counter_ns() - start)
        try:
            hand.apply(action)
        except IllegalActionError as error:
            violation = Violation(seat, f"{players[seat].name}: {error}")
            break
        for watcher in watchers:
            watcher.after_action(hand, action)
    else:
        violation = Violation(hand.to_act, f"no end after {MAX_DECISIONS} decisions")
    if violation is None:
        for watcher in watchers:
            watcher.hand_ended(hand)
    return HandRecord(hand.deck, hand.result if violation is None else None, violation, hand.log,
                      (tuple(times[0]), tuple(times[1])), hand.turns)
