"""rummy-solver: provably optimal rummy hand splitting under any variant's rules.

>>> from solver import solve
>>> solve("AS 2S 3S 7H 7D 7C KD QH 4C 9S".split(), variant="gin").deadwood_points
33
"""

__version__ = "0.2.0"

from solver.cards import JOKER, card_name, parse_card, parse_cards
from solver.errors import InvalidHandError, InvalidOptionError, InvalidRulesError, SolverInputError
from solver.gin import gin_score, knock_check
from solver.hints import discard_hint, draw_hint, layoffs_hint, pile_hint
from solver.results import Meld, Problem, Solution, ValidationReport
from solver.round_scoring import score_round
from solver.rules import PRESETS, Deal, Rules, make_deal, make_rules
from solver.solve import ENGINES, solve
from solver.validate import validate

__all__ = [
    "ENGINES",
    "JOKER",
    "PRESETS",
    "Deal",
    "InvalidHandError",
    "InvalidOptionError",
    "InvalidRulesError",
    "Meld",
    "Problem",
    "Rules",
    "Solution",
    "SolverInputError",
    "ValidationReport",
    "__version__",
    "card_name",
    "discard_hint",
    "draw_hint",
    "gin_score",
    "knock_check",
    "layoffs_hint",
    "make_deal",
    "make_rules",
    "parse_card",
    "parse_cards",
    "pile_hint",
    "score_round",
    "solve",
    "validate",
]
