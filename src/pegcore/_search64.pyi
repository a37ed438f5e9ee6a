"""Depth-first, guided and beam searches, and the beam by moves, over bitboards of one
uint64 (1..64 holes).

Stubs of the compiled module (its source: _search64.pyx and _search_impl.pxi)."""
from typing import Final, TypedDict

import numpy as np
from numpy.typing import NDArray

MAX_HOLES: Final = 64
MAX_BEAM_WIDTH: Final = 4294967295
STOP_CODES: Final[dict[str, int]]
"""Why a search stopped, name -> code in code order: none, nodes, seconds, interrupt,
memory, beam."""
STRATEGY_CODES: Final[dict[str, int]]
"""The strategies ``search`` takes, name -> code: seed, dfs, guided, beam, moves (the beam
by moves)."""

class SearchResult(TypedDict):
    """What ``search`` returns (a plain dict at run time: this name exists only in the stub)."""

    solved: bool
    stop: int
    path: list[int]
    tests: int
    nodes: int
    dead_ends: int
    table_hits: int
    table_entries: int
    table_bytes: int
    table_replaced: int
    pagoda_prunes: int
    seconds: float
    best_pegs: int | None
    best_path: list[int]
    moves: int | None
    cut: bool

def search(
    jumps: NDArray[np.int32],
    slots: NDArray[np.int32],
    perms: NDArray[np.int32],
    start: NDArray[np.int32],
    goal_holes: NDArray[np.int32],
    goal_count: int,
    nholes: int,
    strategy: int,
    use_table: bool,
    node_limit: int = 0,
    seconds: float = 0.0,
    table_bytes: int = 67108864,
    weights: NDArray[np.int64] | None = None,
    iso_weight: int = 0,
    pagodas: NDArray[np.int64] | None = None,
    thresholds: NDArray[np.int64] | None = None,
    beam_width: int = 0,
    merson: NDArray[np.int32] | None = None,
    merson_weight: int = 0,
    halt: NDArray[np.uint8] | None = None,
) -> SearchResult: ...
