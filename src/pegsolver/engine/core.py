"""Access to the compiled core, with a clear message when it is not built."""
from __future__ import annotations

import importlib
import os

from ..errors import BoardTooLargeError, CoreMissingError

BUILD_HINT = (
    "pegsolver's compiled core (pegcore._search64, pegcore._search128) is not built or not "
    "importable. Install the package from its source tree with `pip install .` (needs a C "
    "compiler; Cython is fetched by the build), or for development run "
    "`python setup.py build_ext --inplace`. The pure-Python reference search is available "
    "explicitly with backend='reference' (slow)."
)

# Hole counts each module takes (its MAX_HOLES).
CORE64_HOLES = 64
CORE128_HOLES = 128


def _load(name: str):
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise CoreMissingError(f"{BUILD_HINT} ({e})") from e


def core64():
    """The 64-hole search module (1..64 holes, bitboards of one uint64).

    :raises CoreMissingError: the extension is not built; the message says how to build it.
    """
    return _load("pegcore._search64")


def core128():
    """The 128-hole search module (1..128 holes, bitboards of one unsigned __int128).

    :raises CoreMissingError: the extension is not built; the message says how to build it.
    """
    return _load("pegcore._search128")


def core_for(n_holes: int, name: str | None = None):
    """The narrowest search module for a board of ``n_holes`` holes.

    :param name: the board's name, for the error message.
    :returns: the 64-bit module for up to 64 holes, the 128-bit module for 65..128.
    :raises BoardTooLargeError: more than 128 holes.
    :raises CoreMissingError: the module needed is not built.
    """
    if n_holes <= CORE64_HOLES:
        return core64()
    if n_holes <= CORE128_HOLES:
        return core128()
    board = f"board {name!r}" if name is not None else "board"
    raise BoardTooLargeError(
        f"{board} has {n_holes} holes; the compiled core takes at most {CORE128_HOLES}")


def enum_core():
    """The enumeration module: the BMI2 build where the processor has it and
    ``PEGSOLVER_PORTABLE`` is not 1, else the portable one.

    :raises CoreMissingError: the portable build is missing.
    """
    # The BMI2 build where the processor has it (x86-64 since 2013), else the portable one.
    try:
        from pegcore import _enum64
    except ImportError as e:
        raise CoreMissingError(f"pegsolver's compiled enumeration (pegcore._enum64) is not built: "
                               f"install with `pip install .` ({e})") from e
    if _enum64.cpu_has_bmi2() and os.environ.get("PEGSOLVER_PORTABLE") != "1":
        try:
            from pegcore import _enum64_bmi2
            return _enum64_bmi2
        except ImportError:  # built elsewhere than x86-64
            pass
    return _enum64
