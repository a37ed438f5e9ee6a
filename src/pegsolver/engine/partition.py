"""The stored form of one partition of a level: its positions as a sorted array of keys, with
their counts, compressed for memory or disk.

A level of the enumeration is split into partitions by ranges of canonical keys; each is
a sorted array of distinct keys (bitboards, uint64) and, when counted, the number of jump
sequences reaching each key (up to 128 bits: a low and a high uint64 word). Stored, each
array is transformed so that a general codec finds its redundancy, then compressed with
Zstandard (Y. Collet, RFC 8878):

- keys: when they all have the same number of pegs (a level's do), each is replaced by its
  rank among the positions of that many pegs (the combinatorial number system, ranked by
  the compiled core); then the first key or rank, then the differences between neighbours
  (sorted keys are close, so the high bytes of a difference are mostly zero). Ranks are
  denser than keys by 2**holes / C(holes, pegs), so their differences are smaller: the
  French levels' keys take 2.31 bits a position ranked, against 3.45 unranked. Ranking
  within the peg count is how a public 49-hole solver stores its levels in about 1.8 bits
  a position;
- every array: byte-shuffled (all first bytes, then all second bytes, ...), which puts the
  zero bytes of small numbers side by side, as Blosc's shuffle filter does.

This is delayed duplicate detection's storage (Korf, AAAI 2004): partitions are written,
merged and read whole. ``encode`` and ``decode`` are exact inverses; the sizes of the key
and count sections are given apart, for the bits-a-position figures of a run.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import PegsolverError
from .core import enum_core

if TYPE_CHECKING:
    import numpy.typing as npt

    Words = npt.NDArray[np.uint64]

MAGIC = b"PEGP"
VERSION = 2                             # 2: keys may be ranked; 1 is still read
# magic, version, flags, pegs and holes of ranked keys, n, then the three section sizes
_HEADER = struct.Struct("<4sBBBBQQQQ")
_COUNTED, _WIDE, _RANKED = 1, 2, 4      # flags: counts stored; high count words; keys ranked
# zstd's level: 9 stores the English levels' keys in 3.99 bits a position (level 3: 4.68,
# level 19: 3.50), encoding them in 1.3 s (0.5 s, 17.6 s): the knee of the curve.
ZSTD_LEVEL = 9


@dataclass(frozen=True)
class Encoded:
    """One partition in its stored form: ``data`` (bytes), its ``positions``, and the bytes
    of its key section and of its count sections (0 when it keeps no counts)."""

    data: bytes
    positions: int
    key_bytes: int
    count_bytes: int

    @property
    def key_bits(self) -> float:
        """Bits a position for the keys (0.0 for an empty partition)."""
        return 8 * self.key_bytes / self.positions if self.positions else 0.0

    @property
    def count_bits(self) -> float:
        """Bits a position for the counts (0.0 without counts or positions)."""
        return 8 * self.count_bytes / self.positions if self.positions else 0.0


def shuffle_words(words: Words) -> npt.NDArray[np.uint8]:
    """The bytes of ``words`` (shape (n,), uint64) byte-shuffled: every word's first byte,
    then every second byte, ... (shape (8 * n,), uint8; by the compiled core)."""
    out = np.empty(8 * len(words), np.uint8)
    enum_core().shuffle_words(np.ascontiguousarray(words, dtype=np.uint64), out)
    return out


def unshuffle_words(raw: bytes, n: int) -> Words:
    """The n words that ``shuffle_words`` gave as ``raw``.

    :raises PegsolverError: raw is not 8 * n bytes (a corrupt section)."""
    if len(raw) != 8 * n:
        raise PegsolverError(f"a stored partition is corrupt: a section holds {len(raw)} bytes, not {8 * n}")
    out = np.empty(n, np.uint64)
    enum_core().unshuffle_words(np.frombuffer(raw, np.uint8), out)
    return out


def encode(keys: Words, lo: Words | None = None, hi: Words | None = None, level: int = ZSTD_LEVEL) -> Encoded:
    """A partition's stored form.

    :param keys: shape (n,), uint64, sorted and distinct: the positions (bit i = hole i).
    :param lo: shape (n,), uint64, the low words of the counts; None: positions only.
    :param hi: shape (n,), uint64, the high words (counts past 2**64); None: all zero.
    :param level: zstd's compression level (1 to 22).
    :raises PegsolverError: keys not sorted and distinct, arrays of other lengths or
        types, or high words without low ones.
    :raises MemoryError: zstd got no memory to compress them.
    """
    import zstandard  # loaded by the runs that store levels only

    keys = _words(keys, "keys")
    n = len(keys)
    if n > 1 and not bool(np.all(keys[1:] > keys[:-1])):
        raise PegsolverError("a partition's keys must be sorted and distinct")
    if hi is not None and lo is None:
        raise PegsolverError("a partition's high count words need its low ones")
    flags, pegs, holes = 0, 0, 0
    ranks = np.empty_like(keys)
    if n and (pegs := enum_core().rank_keys(keys, ranks)) >= 0:
        flags, holes, keys = _RANKED, int(keys[-1]).bit_length(), ranks
    sections = [np.diff(keys, prepend=np.uint64(0)) if n else keys]  # the first key, then differences
    for name, words, flag in (("low count words", lo, _COUNTED), ("high count words", hi, _WIDE)):
        if words is not None:
            words = _words(words, name)
            if len(words) != n:
                raise PegsolverError(f"a partition has {n} keys but {len(words)} {name}")
            sections.append(words)
            flags |= flag
    packer = zstandard.ZstdCompressor(level=level, write_checksum=True)
    try:
        parts = [packer.compress(shuffle_words(s).data) for s in sections]
    except zstandard.ZstdError as e:   # compressing fails only when zstd gets no memory
        raise MemoryError(f"compressing {n:,} positions: {e}") from None
    sizes = [len(p) for p in parts] + [0] * (3 - len(parts))
    data = _HEADER.pack(MAGIC, VERSION, flags, max(pegs, 0), holes, n, *sizes) + b"".join(parts)
    return Encoded(data, n, sizes[0], sizes[1] + sizes[2])


def decode(data: bytes) -> tuple[Words, Words | None, Words | None]:
    """The keys, low and high count words of a stored partition (None where not stored).

    :raises PegsolverError: data that is not a stored partition of this version, or corrupt.
    """
    import zstandard

    if len(data) < _HEADER.size:
        raise PegsolverError(f"not a stored partition: {len(data)} bytes is shorter than its header")
    magic, version, flags, pegs, holes, n, *sizes = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise PegsolverError("not a stored partition (its first bytes are not the partition mark)")
    if version not in (1, VERSION):
        raise PegsolverError(f"a stored partition of format version {version}; this pegsolver reads 1 and {VERSION}")
    if _HEADER.size + sum(sizes) != len(data):
        raise PegsolverError("a stored partition is corrupt: its sections do not add up to its size")
    unpacker = zstandard.ZstdDecompressor()
    out: list[Words | None] = []
    at = _HEADER.size
    for k, size in enumerate(sizes):
        present = k == 0 or flags & (_COUNTED if k == 1 else _WIDE)
        if not present:
            out.append(None)
            continue
        try:
            raw = unpacker.decompress(data[at:at + size], max_output_size=8 * n)
        except zstandard.ZstdError as e:
            raise PegsolverError(f"a stored partition is corrupt: {e}") from None
        out.append(unshuffle_words(raw, n))
        at += size
    keys = out[0]
    assert keys is not None
    keys = np.cumsum(keys, dtype=np.uint64)
    if flags & _RANKED:
        try:
            enum_core().unrank_keys(keys, pegs, holes, ranks := np.empty_like(keys))
        except ValueError as e:
            raise PegsolverError(f"a stored partition is corrupt: {e}") from None
        keys = ranks
    return keys, out[1], out[2]


def _words(a: object, name: str) -> Words:
    arr = np.asarray(a)
    if arr.ndim != 1 or arr.dtype != np.uint64:
        raise PegsolverError(f"a partition's {name} must be a 1-d uint64 array, not {arr.dtype} of shape {arr.shape}")
    return arr
