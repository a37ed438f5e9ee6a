"""pegsolver: peg solitaire solving with a compiled bitboard core.

>>> import pegsolver
>>> sol = pegsolver.solve("english")          # centre to centre
>>> sol.solved, len(sol.jumps), sol.final.pegs() == [sol.start.hole("d4")]
(True, 31, True)
"""
import importlib as _importlib

from . import _moved

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy takes this name as True
if TYPE_CHECKING:  # the names __getattr__ loads, for type checkers
    from . import analysis as analysis  # public modules, loaded on use
    from . import moves as moves
    from . import survey as survey
    from .engine.compile import DEFAULT_STRATEGY, STRATEGIES
    from .engine.limits import Cancel
    from .engine.outcome import Reason
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
    from .model import boardfile
    from .model.board import Board
    from .model.geometry import Jump, Shape
    from .model.goal import Goal
    from .model.variants import VARIANTS, Variant, find_variant
    from .solver import Limit, Solution, Stats, solve
del TYPE_CHECKING

_moved.install()  # old module names (pegsolver.board, ...) still import, with a warning

# Names are loaded on first use (PEP 562), so that importing the package, and the command
# line's start, cost little, and a Ctrl-C during the start is caught by the command line.
_SOURCES = {
    "Board": "model.board", "Shape": "model.geometry", "Jump": "model.geometry", "Goal": "model.goal",
    "Limit": "solver", "Solution": "solver", "Stats": "solver", "solve": "solver", "Variant": "model.variants",
    "Cancel": "engine.limits", "VARIANTS": "model.variants", "find_variant": "model.variants",
    "STRATEGIES": "engine.compile", "DEFAULT_STRATEGY": "engine.compile", "Reason": "engine.outcome",
    "PegsolverError": "errors", "BoardTextError": "errors", "BoardTooLargeError": "errors",
    "UnknownVariantError": "errors", "UnknownHoleError": "errors", "InvalidJumpError": "errors",
    "IllegalJumpError": "errors", "GoalError": "errors", "CoreMissingError": "errors",
}


_MODULES = ("analysis", "moves", "survey")   # the public modules beside the names above


def __getattr__(name: str) -> object:
    if name in _SOURCES:
        value = getattr(_importlib.import_module(f".{_SOURCES[name]}", __name__), name)
    elif name == "boardfile":
        value = _importlib.import_module(".model.boardfile", __name__)
    elif name in _MODULES:   # pegsolver.moves.count_moves(...) after a plain import pegsolver
        value = _importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_MODULES))


__version__ = "0.1.0"

__all__ = [
    "Board", "Shape", "Jump", "Goal", "Limit", "Cancel", "Solution", "Stats", "Variant", "VARIANTS",
    "STRATEGIES", "DEFAULT_STRATEGY", "Reason", "solve", "find_variant", "boardfile",
    "PegsolverError", "BoardTextError", "BoardTooLargeError", "UnknownVariantError",
    "UnknownHoleError", "InvalidJumpError", "IllegalJumpError", "GoalError", "CoreMissingError",
]
