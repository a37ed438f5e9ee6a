"""Whole-board enumeration over bitboards of one uint64, built for any processor.

Stubs of the compiled module (its source: _enum64.pyx and _enum_impl.pxi)."""
from collections.abc import Sequence
from typing import Final, Self

import numpy as np
from numpy.typing import NDArray

MAX_HOLES: Final = 64
MAX_THREADS: Final = 64
MAX_BUCKETS: Final = 4096
BLOCK_BYTES: Final = 4096
MIN_STAGE_BYTES: Final = 262144
MIN_BLOCKS_PER_BUCKET: Final = 4
MIN_SLOTS: Final = 1024
KEY_BYTES: Final = 8
REGION_BYTES: Final = 2097152
SLOT_BYTES: Final = 16
WIDE_SLOT_BYTES: Final = 24
KEY_ENTRY_WORDS: Final = 1
COUNT_ENTRY_WORDS: Final = 2
WIDE_ENTRY_WORDS: Final = 3
WIDE_ENTRY_BYTES: Final = 24
FAST_JUMPS: Final[bool]
"""Whether this build finds legal jumps with the pext instruction (BMI2)."""

def cpu_has_bmi2() -> bool: ...

class Moves:
    def __new__(cls, jumps: NDArray[np.int32], perms: NDArray[np.int32], nholes: int) -> Self: ...
    def canonical(self, pegs: int) -> int: ...
    def legal(self, pegs: int, portable: bool = False) -> list[int]: ...

class Level:
    n: int
    counted: bool
    budget: int
    overflow: bool
    wide: bool
    def __new__(
        cls, counted: bool, budget: int, expect: int = 0, part_bits: int = 0, region_bits: int = 0
    ) -> Self: ...
    def add(self, key: int, count: int = 1) -> None: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def slots_used(self) -> int: ...
    def keys_array(self) -> NDArray[np.uint64]: ...
    def counts_arrays(self) -> tuple[NDArray[np.uint64], NDArray[np.uint64]] | None: ...
    def total_count(self) -> int | None: ...
    def clear(self, expect: int = 0, region_bits: int = 0) -> bool: ...

class Work:
    tests: int
    nodes: int
    dead_ends: int
    children: int
    overflow: bool
    @property
    def games(self) -> int: ...
    @property
    def sequences(self) -> int: ...

class Stage:
    bucket_bits: int
    entry_words: int
    def __new__(cls, nbytes: int) -> Self: ...
    def grow(self, nbytes: int) -> bool: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def blocks(self) -> int: ...
    key_shift: int
    def reset(self, bucket_bits: int, entry_words: int, key_shift: int = -1) -> None: ...

def generate(mv: Moves, parents: Level, lo: int, hi: int, st: Stage, work: Work) -> int: ...
def insert(out: Level, stages: Sequence[Stage], part: int) -> bool: ...
def add_arrays(t: Level, keys: NDArray[np.uint64], lo: NDArray[np.uint64],
               hi: NDArray[np.uint64] | None = None) -> bool: ...
def drain(st: Stage) -> tuple[NDArray[np.uint64], NDArray[np.uint64] | None, NDArray[np.uint64] | None,
                             NDArray[np.int64]]: ...
def from_keys(keys: NDArray[np.uint64], counted: bool, budget: int, part_bits: int = 0) -> list[Level]: ...
def complement_members(mv: Moves, keys: NDArray[np.uint64], others: NDArray[np.uint64]) -> NDArray[np.bool_]: ...
