"""Worlds: guesses at what a player cannot see, consistent with what it may know.

A world places every card the player cannot see (the other hands, the
stock's order).  A game's sampler deals the hidden cards out at random and
weighs each deal by the likelihood of what the others did in it (a player
keeps the cards that work with its hand, so a deal in which a card it threw
would have worked with its hand is less likely); ``WeightedSampler.take``
then draws the worlds by importance resampling, so the worlds it returns
are equally likely.  The search plays every move on the same worlds.

>>> import random
>>> class Coins(WeightedSampler[int, int]):
...     def deal(self) -> tuple[float, int]:
...         side = self.rng.randrange(2)
...         return (1.0 if side else 0.0), side
...     def world(self, raw: int) -> int:
...         return raw
>>> Coins(random.Random(1), oversample=2).take(3)  # deals of weight 0 are never kept
[1, 1, 1]
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Raw = TypeVar("Raw")
World = TypeVar("World")


def let_go_likelihood(weight: float, threw: Sequence[int], passed: Sequence[int],
                      fits: Callable[[int], bool], threw_factor: float,
                      passed_factor: float) -> float:
    """``weight`` times ``threw_factor`` for each card an opponent ``threw``,
    and ``passed_factor`` for each pile top it ``passed`` up, that ``fits``
    the hand a deal gives it (a player keeps what works with its hand and
    lets go what does not): the likelihood of the deal, every game's worlds
    weighed alike.

    >>> let_go_likelihood(1.0, [5, 9], [30], lambda card: card != 9, 0.5, 0.25)
    0.125
    """
    for card in threw:
        if fits(card):
            weight *= threw_factor
    for card in passed:
        if fits(card):
            weight *= passed_factor
    return weight


class WeightedSampler(ABC, Generic[Raw, World]):
    """Equally likely worlds from weighted raw deals (see the module docstring)."""

    def __init__(self, rng: random.Random, oversample: int) -> None:
        self.rng = rng
        self.oversample = oversample

    @abstractmethod
    def deal(self) -> tuple[float, Raw]:
        """One raw deal of the hidden cards and its likelihood."""

    @abstractmethod
    def world(self, raw: Raw) -> World:
        """A fresh world of a raw deal (a world is used up by a playout)."""

    def take(self, count: int, until: float = math.inf) -> list[World]:
        """``count`` worlds, importance resampled from ``oversample`` times as
        many deals; fewer, one at least, when the clock (``time.monotonic``)
        reaches ``until``."""
        deals: list[tuple[float, Raw]] = []
        for _ in range(count * self.oversample):
            deals.append(self.deal())
            if time.monotonic() >= until:
                count = max(1, len(deals) // self.oversample)
                break
        weights = [weight for weight, _ in deals]
        if not any(weights):
            weights = [1.0] * len(deals)
        return [self.world(deals[i][1])
                for i in self.rng.choices(range(len(deals)), weights=weights, k=count)]


__all__ = ["WeightedSampler", "let_go_likelihood"]
