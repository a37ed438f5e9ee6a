"""The two steps of an out-of-core level, as functions of plain data, so that threads of
this process and Dask workers run the same code (delayed duplicate detection: Korf, AAAI
2004):

- ``expand_partition``: the children of one partition of level k, keyed canonically and
  cut into 2**shard_bits shards by the top bits of their keys (ranges of keys: a
  partition's sorted keys are then as dense as the level's, for delta coding). Each time the core's stage
  fills up, its children are emitted as one *run*, not summed: the children of every
  shard, shard after shard, with an index.
- ``merge_runs``: one partition of level k+1 (a range of shards) from the runs' pieces of
  it: summed per key, sorted, ready for ``partition.encode``.

A run is bytes: a header, the offsets of its shards (int64, 2**shard_bits + 1: children
before each shard), a table of its segments' sections, then the sections. The shards are
grouped into at most 2**SEGMENT_BITS segments of consecutive shards, and each segment's
columns (the keys, then the count words: none for uncounted levels, the low words, and the
high words only when a count of the run passes 2**64) are byte-shuffled and compressed
with Zstandard, one section each: a merge reads and decompresses only the segments of its
shards. French children take about 7 bytes each so (the spill peak: 3.42 GiB, 12.3 raw).
"""
from __future__ import annotations

import itertools
import os
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import FileChangedError, PegsolverError
from .core import enum_core
from .level_memory import CHUNK_SLOTS
from .partition import shuffle_words, unshuffle_words

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    import numpy.typing as npt

    from ..model.geometry import Shape
    from .levels import Perm

    Words = npt.NDArray[np.uint64]
    Piece = tuple[Words, Words | None, Words | None]   # keys, low and high count words

_RUN = struct.Struct("<4sBBBxQ")    # mark, version, count words a child (0 to 2), segment bits, shard bits
_RUN_MARK = b"PEGR"
RUN_VERSION = 3                     # 3: compressed segments
SEGMENT_BITS = 8    # segments a run at most: a merge of a few shards decompresses little more than them
RUN_ZSTD = 1        # zstd's fastest level: French children in 4.9 bytes (level 3: 4.4), at 200+ MB/s a core
# bytes a position costs a merge at most: the table (2 slots of 24 bytes, and the old one
# while it doubles), the arrays taken out of it and their sorted copies (24 + 24 + 8)
MERGE_BYTES = 2 * 24 * 3 // 2 + 56
# A merge's table probes from the top bits of its keys' hash: shards are ranges of keys,
# not of hashes, so no top bits are shared to skip (skipping 12 made probe runs hundreds
# of slots long on 3-3-2-2)
SPREAD_BITS = 0
# bytes a position costs an expansion beside its stage: its decoded arrays and its table
EXPAND_BYTES = 24 + 2 * 24


@dataclass(frozen=True)
class BoardSpec:
    """What a worker needs to rebuild the core's Moves: the jumps (shape (J, 3), int32),
    the symmetries other than the identity (shape (S - 1, holes), int32), and the holes."""

    jumps: bytes
    perms: bytes
    holes: int

    @classmethod
    def of(cls, shape: Shape, group: list[Perm]) -> BoardSpec:
        """The spec of ``shape`` keyed up to ``group`` (its permutations, the identity first)."""
        perms = np.array(group[1:], dtype=np.int32).reshape(-1, shape.size)
        return cls(np.array(shape.jumps, dtype=np.int32).reshape(-1, 3).tobytes(), perms.tobytes(), shape.size)


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
            emit(_flush(E, st))
            st.reset(shard_bits, words, shift)
        pos = reached
    if work.overflow:
        raise PegsolverError("a solution count passed 2**128; the board is too large to count")
    sums.add(StepWork(work.nodes, work.tests, work.children, work.dead_ends, work.games, work.sequences))
    sums.peak_bytes = max(sums.peak_bytes, parents.nbytes + st.nbytes + 3 * 8 * len(piece[0]))
    return sums


def _flush(E: Any, st: Any) -> bytes:
    # The staged children as one run, shard after shard (summed later, by the merge);
    # drain gives no count words for an uncounted stage.
    keys, lo, hi, offsets = E.drain(st)
    return pack_run((keys, lo, hi), offsets)


def pack_run(piece: Piece, offsets: npt.NDArray[np.int64]) -> bytes:
    """Children as a run (see the module's doc).

    :param piece: keys, low and high count words (shape (n,), uint64; None: not kept).
    :param offsets: shape (2**bits + 1,), int64: shard s is children [offsets[s], offsets[s + 1]).
    """
    import zstandard  # loaded by the runs that store levels only

    keys, lo, hi = piece
    cols = [keys] if lo is None else [keys, lo] if hi is None or not bool(np.any(hi)) else [keys, lo, hi]
    bits = (len(offsets) - 1).bit_length() - 1
    seg_bits = min(SEGMENT_BITS, bits)
    bounds = offsets[::1 << (bits - seg_bits)].tolist()    # the first child of each segment, and the end
    packer = zstandard.ZstdCompressor(level=RUN_ZSTD, write_checksum=True)
    sections = [packer.compress(shuffle_words(c[a:b]).data) for a, b in itertools.pairwise(bounds) for c in cols]
    table = np.zeros(len(sections) + 1, "<i8")
    np.cumsum([len(x) for x in sections], out=table[1:])
    return b"".join([_RUN.pack(_RUN_MARK, RUN_VERSION, len(cols) - 1, seg_bits, bits),
                     np.asarray(offsets).astype("<i8").tobytes(), table.tobytes(), *sections])


class RunFile:
    """A run stored in a file, read a piece at a time (plain reads, not a mapping: the
    pages read do not stay in this process's resident memory)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """:raises FileChangedError: the file cannot be read (gone, or not a file).
        :raises PegsolverError: it is shorter than a run's header."""
        self.path = path
        head = self.read(0, _RUN.size)
        if len(head) < _RUN.size:
            raise PegsolverError(f"{str(path)!r} is not a run of children: shorter than its header")
        _, _, words, seg_bits, bits = _RUN.unpack_from(head)
        self.header = head + self.read(_RUN.size, 8 * ((1 << bits) + 1 + (1 << seg_bits) * (1 + words) + 1))

    def read(self, offset: int, size: int) -> bytes:
        """``size`` bytes from ``offset`` (fewer at the file's end).

        :raises FileChangedError: the file cannot be read: as an OSError, the command line
            took it for its output's."""
        try:
            with open(self.path, "rb") as f:
                f.seek(offset)
                return f.read(size)
        except OSError as e:
            raise FileChangedError.reading(self.path, e) from None


Run = bytes | memoryview | RunFile


def _layout(run: Run) -> tuple[int, int, npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    # count words a child, shard bits, shard offsets, section table, where the sections begin
    head = run.header if isinstance(run, RunFile) else run
    if len(head) < _RUN.size:
        raise PegsolverError("not a run of children: shorter than its header")
    mark, version, words, seg_bits, bits = _RUN.unpack_from(head)
    if mark != _RUN_MARK or version != RUN_VERSION or words > 2 or seg_bits > bits:
        raise PegsolverError(f"not a run of children of format {RUN_VERSION} (its header is {bytes(head[:8])!r})")
    offsets = np.frombuffer(head, dtype="<i8", count=(1 << bits) + 1, offset=_RUN.size)
    table = np.frombuffer(head, dtype="<i8", count=(1 << seg_bits) * (1 + words) + 1,
                          offset=_RUN.size + 8 * len(offsets))
    return words, bits - seg_bits, offsets, table, _RUN.size + 8 * (len(offsets) + len(table))


def run_shards(run: Run) -> npt.NDArray[np.int64]:
    """The offsets of a run's shards: shape (shards + 1,).

    :raises PegsolverError: not a run of this format."""
    return _layout(run)[2]


def run_piece(run: Run, first: int, last: int) -> Piece:
    """The children of shards [first, last) of a run, decompressed from the segments that
    hold them.

    :raises PegsolverError: not a run of this format, or a corrupt one (named by its file).
    """
    try:
        return _run_piece(run, first, last)
    except FileChangedError:
        raise   # it names its file
    except PegsolverError as e:
        if isinstance(run, RunFile):
            raise PegsolverError(f"{str(run.path)!r}: {e}") from None
        raise


def _run_piece(run: Run, first: int, last: int) -> Piece:
    import zstandard

    words, shift, offsets, table, base = _layout(run)
    ncol = 1 + words
    if last <= first:
        empty = np.empty(0, np.uint64)
        return empty, empty if words else None, empty if words == 2 else None
    sa, sb = first >> shift, (max(last, first + 1) - 1 >> shift) + 1    # the segments holding the shards
    a, b = int(table[sa * ncol]), int(table[sb * ncol])
    raw = run.read(base + a, b - a) if isinstance(run, RunFile) else memoryview(run)[base + a:base + b]
    unpacker = zstandard.ZstdDecompressor()
    cols: list[Words | None] = []
    for c in range(ncol):
        parts = []
        for seg in range(sa, sb):
            x, y = int(table[seg * ncol + c]) - a, int(table[seg * ncol + c + 1]) - a
            start, end = int(offsets[seg << shift]), int(offsets[min(seg + 1 << shift, len(offsets) - 1)])
            try:   # (zstd's frame of no bytes gives no size: such a segment is not read)
                got = unshuffle_words(unpacker.decompress(raw[x:y], max_output_size=8 * (end - start))
                                      if end > start else b"", end - start)
            except zstandard.ZstdError as e:
                raise PegsolverError(f"a run of children is corrupt: {e}") from None
            # only the children of shards [first, last): the segments' others are not kept
            parts.append(got[max(int(offsets[first]) - start, 0):int(offsets[last]) - start])
        cols.append(parts[0] if len(parts) == 1 else np.concatenate(parts))
    cols += [None] * (2 - words)
    assert cols[0] is not None
    return cols[0], cols[1], cols[2]


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
