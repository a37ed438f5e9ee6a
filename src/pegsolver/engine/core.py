"""The one door to the compiled core (pegcore): every build is loaded here, and the codes
and sizes the Python layer needs are read from the builds themselves, never copied.

Each loader raises :class:`~pegsolver.errors.CoreMissingError` with a build hint when
its module is not built, or says that the core builds only on Linux when run elsewhere.
"""
from __future__ import annotations

import importlib
import os
import platform
import sys
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType

import numpy as np

from ..errors import BoardTooLargeError, CoreMissingError
from .stopping import stop_in_import

BUILD_HINT = (
    "Install the package from its source tree with `pip install .` (needs a C compiler; "
    "Cython is fetched by the build), or for development run "
    "`python setup.py build_ext --inplace`."
)
SEARCH_HINT = "The pure-Python reference search is available explicitly with backend='reference' (slow)."


def _load(name: str, what: str, hint: str = "") -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as e:
        if not sys.platform.startswith("linux"):
            raise CoreMissingError(
                f"pegsolver's {what} ({name}) is not built: the compiled core builds only on Linux (its "
                f"enumeration grows its tables with mremap, a Linux call), and this is "
                f"{platform.system() or sys.platform} (sys.platform {sys.platform!r}).{' ' + hint if hint else ''} "
                f"({e})") from e
        raise CoreMissingError(f"pegsolver's {what} ({name}) is not built or not importable. "
                               f"{BUILD_HINT}{' ' + hint if hint else ''} ({e})") from e


def core64() -> ModuleType:
    """The 64-hole search module (1..64 holes, bitboards of one uint64).

    :raises CoreMissingError: the extension is not built; the message says how to build it.
    """
    return _load("pegcore._search64", "compiled search core", SEARCH_HINT)


def core128() -> ModuleType:
    """The 128-hole search module (1..128 holes, bitboards of one unsigned __int128).

    :raises CoreMissingError: the extension is not built; the message says how to build it.
    """
    return _load("pegcore._search128", "compiled search core", SEARCH_HINT)


def core_for(n_holes: int, name: str | None = None) -> ModuleType:
    """The narrowest search module for a board of ``n_holes`` holes.

    :param name: the board's name, for the error message.
    :returns: the 64-bit module for up to its ``MAX_HOLES`` (64) holes, else the 128-bit
        module for up to its ``MAX_HOLES`` (128).
    :raises BoardTooLargeError: more holes than the 128-bit module takes.
    :raises CoreMissingError: the module needed is not built.
    """
    narrow = core64()
    if n_holes <= narrow.MAX_HOLES:
        return narrow
    wide = core128()
    if n_holes <= wide.MAX_HOLES:
        return wide
    board = f"board {name!r}" if name is not None else "board"
    raise BoardTooLargeError(
        f"{board} has {n_holes} holes; the compiled core takes at most {wide.MAX_HOLES}")


@dataclass(frozen=True)
class SearchCodes:
    """The search core's codes, read from its ``STOP_CODES`` and ``STRATEGY_CODES``.

    ``stops[code]`` names each stop code (``search()``'s ``"stop"``), in code order:
    none, nodes, seconds, interrupt, memory, beam, cancel; ``strategies[code]`` names each
    strategy code it takes: seed, dfs, guided, beam, moves (the beam by moves). The same
    codes as named fields follow. ``max_holes`` is the 128-bit module's hole limit (the
    64-bit one's is 64), ``max_beam_width`` the widest beam (positions per level).
    """

    stops: tuple[str, ...]
    strategies: tuple[str, ...]
    stop_none: int
    stop_nodes: int
    stop_seconds: int
    stop_interrupt: int
    stop_memory: int
    stop_beam: int
    stop_cancel: int
    strategy_seed: int
    strategy_dfs: int
    strategy_guided: int
    strategy_beam: int
    strategy_moves: int
    max_holes: int
    max_beam_width: int


def _by_code(codes: dict[str, int], what: str) -> tuple[str, ...]:
    names = tuple(sorted(codes, key=codes.__getitem__))
    if sorted(codes.values()) != list(range(len(codes))):
        raise RuntimeError(f"the core's {what} codes are not 0..{len(codes) - 1}: {codes}")
    return names


@lru_cache(maxsize=None)
def search_codes() -> SearchCodes:
    """The search core's stop and strategy codes and limits (see :class:`SearchCodes`).

    :raises CoreMissingError: the search core is not built.
    :raises RuntimeError: the two search builds disagree (a stale build).
    """
    narrow, wide = core64(), core128()
    if (narrow.STOP_CODES, narrow.STRATEGY_CODES) != (wide.STOP_CODES, wide.STRATEGY_CODES):
        raise RuntimeError("pegcore._search64 and _search128 declare different codes: rebuild the core")
    stops, strategies = narrow.STOP_CODES, narrow.STRATEGY_CODES
    return SearchCodes(stops=_by_code(stops, "stop"), strategies=_by_code(strategies, "strategy"),
                       **{f"stop_{k}": v for k, v in stops.items()},
                       **{f"strategy_{k}": v for k, v in strategies.items()},
                       max_holes=wide.MAX_HOLES, max_beam_width=narrow.MAX_BEAM_WIDTH)


# positions each build's probe times, best of PROBE_ROUNDS: about 10 ms a build
PROBE_POSITIONS = 100_000
PROBE_ROUNDS = 3


def enum_core(portable: bool | None = None) -> ModuleType:
    """The enumeration module to run: of the builds this processor can load, the one that
    found legal jumps and canonical keys fastest here (``enum_build_times``).

    The builds are pegcore._enum64 (any processor), and on x86-64 _enum64_v2 (popcnt) and
    _enum64_bmi2 (popcnt and BMI2's pext). A processor flag only says what a build may
    run on, not how fast: pext is one cycle on Intel since Haswell and AMD since Zen 3,
    but microcoded on Zen 1 and 2 (tens of cycles), where the BMI2 build is slower.

    :param portable: True for the portable build whatever the processor; None (the
        default) reads the environment: ``PEGSOLVER_PORTABLE=1`` means True.
    :raises CoreMissingError: the portable build is not built; the message says how to
        build it.
    """
    base = _load("pegcore._enum64", "compiled enumeration")
    if portable is None:
        portable = os.environ.get("PEGSOLVER_PORTABLE") == "1"
    if portable:
        return base
    times = enum_build_times()
    return importlib.import_module(min(times, key=times.__getitem__))


@lru_cache(maxsize=None)
def enum_build_times() -> dict[str, float]:
    """Seconds each enumeration build this processor can load takes for the probe
    (``probe_seconds`` of PROBE_POSITIONS positions of the French board, the best of
    PROBE_ROUNDS rounds taken in turn), measured once a process; {name: seconds}.

    :raises CoreMissingError: the portable build is not built.
    """
    base = _load("pegcore._enum64", "compiled enumeration")
    names = ["pegcore._enum64"]
    if base.cpu_has_popcnt():
        names.append("pegcore._enum64_v2")
    if base.cpu_has_bmi2():
        names.append("pegcore._enum64_bmi2")
    builds = {}
    for name in names:
        try:
            builds[name] = importlib.import_module(name)
        except ImportError as e:   # not built here (another processor's family), or a signal came
            stop_in_import(e)
    if len(builds) == 1:
        return {"pegcore._enum64": 0.0}
    from ..model.variants import find_variant  # the probe's board

    shape = find_variant("french").shape()
    jumps = np.array(shape.jumps, dtype=np.int32).reshape(-1, 3)
    perms = np.array(shape.symmetries[1:], dtype=np.int32).reshape(-1, shape.size)
    moves = {name: m.Moves(jumps, perms, shape.size) for name, m in builds.items()}
    best = {name: float("inf") for name in builds}
    for _ in range(PROBE_ROUNDS):   # in turn, so that a busy moment does not fall on one build
        for name, m in builds.items():
            best[name] = min(best[name], m.probe_seconds(moves[name], PROBE_POSITIONS))
    return best


@dataclass(frozen=True)
class EnumSizes:
    """The enumeration core's limits and sizes, for planning its memory.

    ``max_holes``: holes a board may have. ``max_threads``: partitions of a level (a
    thread each). ``max_buckets``: partitions x regions a stage takes. ``block_bytes``:
    a stage's unit of allocation; ``min_stage_bytes`` the smallest stage;
    ``min_blocks_per_bucket``: blocks a stage needs per bucket it takes. ``min_slots``:
    the smallest table. ``region_bytes``: the table bytes merged at a time (regions of
    about an L2 cache). Bytes a position takes: ``slot_bytes`` in a counted table,
    ``wide_slot_bytes`` once its count passes 2**64, ``key_bytes`` uncounted or kept.
    A staged child takes ``key_entry_words`` (uncounted), ``count_entry_words``
    (counted) or ``wide_entry_words`` (counts past 2**64) words of 8 bytes;
    ``wide_entry_bytes`` is the last in bytes.
    """

    max_holes: int
    max_threads: int
    max_buckets: int
    block_bytes: int
    min_stage_bytes: int
    min_blocks_per_bucket: int
    min_slots: int
    region_bytes: int
    slot_bytes: int
    wide_slot_bytes: int
    key_bytes: int
    key_entry_words: int
    count_entry_words: int
    wide_entry_words: int
    wide_entry_bytes: int


@lru_cache(maxsize=None)
def enum_sizes() -> EnumSizes:
    """The enumeration core's sizes (see :class:`EnumSizes`), read from the portable build
    (the BMI2 build includes the same source).

    :raises CoreMissingError: the enumeration core is not built.
    """
    e = _load("pegcore._enum64", "compiled enumeration")
    return EnumSizes(max_holes=e.MAX_HOLES, max_threads=e.MAX_THREADS, max_buckets=e.MAX_BUCKETS,
                     block_bytes=e.BLOCK_BYTES, min_stage_bytes=e.MIN_STAGE_BYTES,
                     min_blocks_per_bucket=e.MIN_BLOCKS_PER_BUCKET, min_slots=e.MIN_SLOTS,
                     region_bytes=e.REGION_BYTES, slot_bytes=e.SLOT_BYTES, wide_slot_bytes=e.WIDE_SLOT_BYTES,
                     key_bytes=e.KEY_BYTES, key_entry_words=e.KEY_ENTRY_WORDS,
                     count_entry_words=e.COUNT_ENTRY_WORDS, wide_entry_words=e.WIDE_ENTRY_WORDS,
                     wide_entry_bytes=e.WIDE_ENTRY_BYTES)


def sorted_keys(keys: np.ndarray) -> np.ndarray:
    """``keys`` (shape (n,), uint64) sorted in place, ascending, by the enumeration core's
    radix sort (several times numpy's sort on levels of millions); returned. No limits:
    a run sorts its levels through its own :meth:`LevelRun.sorted_keys`, which has them.

    :raises MemoryError: no memory for the scratch (n keys more).
    """
    enum_core().sort_keys(keys)
    return keys
