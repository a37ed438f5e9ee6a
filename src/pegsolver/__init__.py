"""pegsolver: peg solitaire solving with a compiled bitboard core.

>>> import pegsolver
>>> sol = pegsolver.solve("english")          # centre to centre
>>> sol.solved, len(sol.jumps), sol.final.pegs() == [sol.start.hole("d4")]
(True, 31, True)
"""
from . import boardfile
from .board import Board
from .compile import DEFAULT_STRATEGY, STRATEGIES
from .errors import (
                     BoardTextError,
                     BoardTooLargeError,
                     CoreMissingError,
                     GoalError,
                     IllegalJumpError,
                     InvalidJumpError,
                     PegsolverError,
                     UnknownHoleError,
                     UnknownVariantError,
)
from .geometry import Jump, Shape
from .goal import Goal
from .solver import Limit, Solution, Stats, solve
from .variants import VARIANTS, Variant, find_variant

__version__ = "0.1.0"

__all__ = [
    "Board", "Shape", "Jump", "Goal", "Limit", "Solution", "Stats", "Variant", "VARIANTS",
    "STRATEGIES", "DEFAULT_STRATEGY", "solve", "find_variant", "boardfile",
    "PegsolverError", "BoardTextError", "BoardTooLargeError", "UnknownVariantError",
    "UnknownHoleError", "InvalidJumpError", "IllegalJumpError", "GoalError", "CoreMissingError",
]
