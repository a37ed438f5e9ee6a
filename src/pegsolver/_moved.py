"""Old module names (before the model/proofs/engine/apps layout) kept importable for this
version, each with a DeprecationWarning naming its new place."""
from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy takes this name as True
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.abc import Loader
    from types import CodeType, ModuleType
else:
    Loader = object  # importlib.abc would cost start-up time (it imports typing, among others)

MOVED = {
    "geometry": "model.geometry", "notation": "model.notation", "textboard": "model.textboard",
    "board": "model.board", "goal": "model.goal", "variants": "model.variants",
    "boardfile": "model.boardfile", "classes": "proofs.classes", "pagoda": "proofs.pagoda",
    "_core": "engine.core", "outcome": "engine.outcome", "compile": "engine.compile",
    "reference": "engine.reference", "portfolio": "engine.portfolio", "fewest": "engine.fewest",
    "cli": "apps.cli", "play": "apps.play", "svg": "apps.svg", "bench": "apps.bench",
    "report": "apps.bench_report", "replay": "apps.replay", "table": "survey",
}
ALIASES = {"boardfile"}  # old names that stay public without a warning (pegsolver.boardfile)


class _Loader(Loader):  # the loader protocol
    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        # the import system reads the module back from sys.modules: the old name becomes the
        # new module itself, so both names share one state (monkeypatching included)
        sys.modules[module.__name__] = importlib.import_module(self.new)

    def get_code(self, fullname: str) -> CodeType:
        # `python -m pegsolver.<old>` (runpy asks for the code to run as __main__): run the
        # new module as the main one
        return compile(f"import runpy\nrunpy.run_module({self.new!r}, run_name='__main__', alter_sys=True)\n",
                       f"<{fullname}, moved to {self.new}>", "exec")


class MovedFinder:  # the meta path finder protocol
    """Finds ``pegsolver.<old>`` and loads it as ``pegsolver.<new>``, warning once."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, old = fullname.rpartition(".")
        if package != __package__ or old not in MOVED:
            return None
        new = f"{__package__}.{MOVED[old]}"
        if old not in ALIASES:
            warnings.warn(f"{fullname} has moved to {new}; the old name goes in a later version",
                          DeprecationWarning, stacklevel=2)
        return importlib.machinery.ModuleSpec(fullname, _Loader(new))


def install() -> None:
    """Put the finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(MovedFinder())
