"""The two steps of an out-of-core level, as functions of plain data, so that threads of
this process and Dask workers run the same code (delayed duplicate detection: Korf, AAAI
2004):

- ``expand_partition``: the children of one partition of level k, keyed canonically and
  cut into 2**shard_bits shards by the top bits of their keys (ranges of keys: a
  partition's sorted keys are then as dense as the level's, for delta coding). Each time the core's stage
  fills up, its children are summed per key (the core's ``insert``) and emitted as one
  *run*: the children of every shard, shard after shard, with an index.
- ``merge_runs``: one partition of level k+1 (a range of shards) from the runs' pieces of
  it: summed per key, sorted, ready for ``partition.encode``.

A run is bytes: a header, the offsets of its shards (int64, 2**shard_bits + 1), then the
keys, the low and the high count words (uint64 each; no count words for uncounted levels).
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import PegsolverError
from .core import enum_core
from .level_memory import CHUNK_SLOTS

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    import numpy.typing as npt

    Words = npt.NDArray[np.uint64]
    Piece = tuple[Words, Words | None, Words | None]   # keys, low and high count words

_RUN = struct.Struct("<4sBBxxQ")    # mark, version, counted, shard bits
_RUN_MARK = b"PEGR"
# bytes a position costs a merge at most: the table (2 slots of 24 bytes, and the old one
# while it doubles), the arrays taken out of it and their sorted copies (24 + 24 + 8)
MERGE_BYTES = 2 * 24 * 3 // 2 + 56
# A partition's keys share the top bits of their hash (their shards): its tables probe from
# the hash bits below the most a run uses, else its keys would crowd one stretch of slots.
SPREAD_BITS = 12
# bytes a position costs an expansion beside its stage: its decoded arrays and its table
EXPAND_BYTES = 24 + 2 * 24


@dataclass(frozen=True)
class BoardSpec:
    """What a worker needs to rebuild the core's Moves: the jumps (shape (J, 3), int32),
    the symmetries other than the identity (shape (S - 1, holes), int32), and the holes."""

    jumps: bytes
    perms: bytes
    holes: int


_MOVES: dict[BoardSpec, Any] = {}   # each process's Moves, built once per board


def moves_for(spec: BoardSpec) -> Any:
    mv = _MOVES.get(spec)
    if mv is None:
        jumps = np.frombuffer(spec.jumps, dtype=np.int32).reshape(-1, 3)
        perms = np.frombuffer(spec.perms, dtype=np.int32).reshape(-1, spec.holes)
        mv = _MOVES[spec] = enum_core().Moves(jumps, perms, spec.holes)
    return mv


@dataclass
class StepWork:
    """Counters of expansions, summed (see the core's Work): positions expanded, jump tests,
    children played, dead ends, complete games, the next level's jump sequences, and the
    bytes the step held at most."""

    nodes: int = 0
    tests: int = 0
    children: int = 0
    dead_ends: int = 0
    games: int = 0
    sequences: int = 0
    peak_bytes: int = 0

    def add(self, other: StepWork) -> None:
        for name in ("nodes", "tests", "children", "dead_ends", "games", "sequences"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.peak_bytes = max(self.peak_bytes, other.peak_bytes)


def table_of(piece: Piece, counted: bool, budget: int) -> Any:
    """A core table holding ``piece`` (duplicates summed)."""
    E = enum_core()
    keys, lo, hi = piece
    t = E.Level(counted, budget, len(keys), SPREAD_BITS)
    if not E.add_arrays(t, keys, lo if lo is not None else keys, hi):
        raise MemoryError(f"a table of {len(keys):,} positions")
    return t


def expand_partition(spec: BoardSpec, piece: Piece, counted: bool, shard_bits: int, stage_bytes: int,
                     emit: Callable[[bytes], None], poll: Callable[[], None] | None = None) -> StepWork:
    """Expand one partition (its keys and counts): its children go to ``emit`` as runs;
    ``poll`` is called between chunks of parents, and may raise to stop the expansion.

    :raises MemoryError: the stage or a table cannot be allocated.
    :raises PegsolverError: a count passed 2**128.
    """
    E = enum_core()
    mv = moves_for(spec)
    parents = table_of(piece, counted, 1 << 62)
    wide = counted and piece[2] is not None and bool(np.any(piece[2]))
    words = 1 if not counted else 3 if wide else 2
    st = E.Stage(stage_bytes)
    # shards are ranges of keys, so that a partition's sorted keys stay dense for delta coding
    shift = max(spec.holes - shard_bits, 0)
    st.reset(shard_bits, words, shift)
    work, sums = E.Work(), StepWork()
    pos, end = 0, parents.slots_used
    while pos < end:
        if poll is not None:
            poll()
        hi = min(pos + CHUNK_SLOTS, end)
        reached = E.generate(mv, parents, pos, hi, st, work)
        if reached < hi or reached >= end:
            sums.peak_bytes = max(sums.peak_bytes, parents.nbytes + 2 * st.nbytes)
            emit(_flush(E, st, counted))
            st.reset(shard_bits, words, shift)
        pos = reached
    if work.overflow:
        raise PegsolverError("a solution count passed 2**128; the board is too large to count")
    sums.add(StepWork(work.nodes, work.tests, work.children, work.dead_ends, work.games, work.sequences))
    sums.peak_bytes = max(sums.peak_bytes, parents.nbytes + st.nbytes + 3 * 8 * len(piece[0]))
    return sums


def _flush(E: Any, st: Any, counted: bool) -> bytes:
    # The staged children as one run, shard after shard (summed later, by the merge).
    keys, lo, hi, offsets = E.drain(st)
    if counted and hi is None:
        hi = np.zeros(len(keys), np.uint64)
    cols = [keys, lo, hi] if counted else [keys]
    return b"".join([_RUN.pack(_RUN_MARK, 1, counted, len(offsets).bit_length() - 1), offsets.astype("<i8").tobytes(),
                     *(c.astype("<u8", copy=False).tobytes() for c in cols)])


class RunFile:
    """A run stored in a file, read a piece at a time (plain reads, not a mapping: the
    pages read do not stay in this process's resident memory)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path
        with open(path, "rb") as f:
            head = f.read(_RUN.size)
            self.header = head + f.read(8 * ((1 << _RUN.unpack_from(head)[3]) + 1))

    def read(self, offset: int, count: int) -> Words:
        return np.fromfile(self.path, dtype="<u8", count=count, offset=offset)


Run = bytes | memoryview | RunFile


def run_shards(run: Run) -> npt.NDArray[np.int64]:
    """The offsets of a run's shards: shape (shards + 1,)."""
    head = run.header if isinstance(run, RunFile) else run
    mark, version, _, bits = _RUN.unpack_from(head)
    if mark != _RUN_MARK or version != 1:
        raise PegsolverError("not a run of children (its first bytes are not the run mark)")
    return np.frombuffer(head, dtype="<i8", count=(1 << bits) + 1, offset=_RUN.size)


def run_piece(run: Run, first: int, last: int) -> Piece:
    """The children of shards [first, last) of a run (views of the run's bytes, or read
    from its file)."""
    offsets = run_shards(run)
    counted = bool(_RUN.unpack_from(run.header if isinstance(run, RunFile) else run)[2])
    n = int(offsets[-1])
    base = _RUN.size + 8 * len(offsets)
    a, b = int(offsets[first]), int(offsets[last])
    cols = [run.read(base + 8 * (col * n + a), b - a) if isinstance(run, RunFile)
            else np.frombuffer(run, dtype="<u8", count=b - a, offset=base + 8 * (col * n + a))
            for col in range(3 if counted else 1)]
    return (cols[0], cols[1], cols[2]) if counted else (cols[0], None, None)


def merge_runs(pieces: Iterable[Piece], counted: bool, budget: int) -> tuple[Piece, int, int]:
    """One partition from its pieces of every run: keys sorted and distinct, counts summed;
    the sum of its counts (its positions when not counted); and the bytes held at most.

    :raises MemoryError: the partition's table passes ``budget`` bytes.
    :raises PegsolverError: a count passed 2**128.
    """
    E = enum_core()
    t = E.Level(counted, budget, 0, SPREAD_BITS)
    peak = 0
    for keys, lo, hi in pieces:
        if not E.add_arrays(t, keys, lo if lo is not None else keys, hi):
            raise MemoryError(f"a partition of {t.n:,} positions passes {budget:,} bytes")
        peak = max(peak, t.nbytes + 24 * len(keys))
    if t.overflow:
        raise PegsolverError("a solution count passed 2**128; the board is too large to count")
    total = t.total_count() if counted else int(t.n)
    keys = t.keys_array()
    order = np.argsort(keys, kind="stable")
    lo_hi = t.counts_arrays()
    out: Piece = (keys[order], None, None)
    if lo_hi is not None:
        hi = lo_hi[1][order]
        out = (out[0], lo_hi[0][order], hi if bool(np.any(hi)) else None)
    return out, total, max(peak, t.nbytes + 56 * int(t.n))


def shard_sizes(runs: Iterable[Run]) -> npt.NDArray[np.int64] | None:
    """Children per shard over ``runs`` (shape (shards,)); None without runs."""
    sizes = None
    for r in runs:
        d = np.diff(run_shards(r))
        sizes = d if sizes is None else sizes + d
    return sizes
