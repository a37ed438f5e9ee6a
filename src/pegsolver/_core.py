"""Access to the compiled core, with a clear message when it is not built."""
from __future__ import annotations

import importlib

from .errors import CoreMissingError

BUILD_HINT = (
    "pegsolver's compiled core (pegcore._search64) is not built or not importable. "
    "Install the package from its source tree with `pip install .` (needs a C compiler; "
    "Cython is fetched by the build), or for development run "
    "`python setup.py build_ext --inplace`. The pure-Python reference search is available "
    "explicitly with backend='reference' (slow)."
)


def core64():
    """The 64-hole search module.

    :raises CoreMissingError: the extension is not built; the message says how to build it.
    """
    try:
        return importlib.import_module("pegcore._search64")
    except ImportError as e:
        raise CoreMissingError(f"{BUILD_HINT} ({e})") from e


def max_core_holes() -> int:
    return core64().MAX_HOLES
