"""Memory planning of the level-by-level enumeration: the sizes it works with, the memory
and CPUs available, and an upper bound on a run's memory from position classes."""
from __future__ import annotations

import math
import os
from functools import lru_cache

from ..errors import PegsolverError
from ..model.geometry import Shape
from ..proofs.classes import has_classes, hole_class, position_class
from .core import enum_sizes
from .limits import size_text

# The sizes of the core's tables and stages are the core's own (core.enum_sizes()); these
# are the Python side's choices.
MAX_MEMORY_BYTES = 1 << 50       # 1 PiB: past any machine here
STAGE_CAP = 192 << 20    # staged children (all threads) before they are merged: a larger stage is
                         # slower (fresh pages cost more than the extra merge passes save)
MIN_STAGE = 1 << 20      # a thread's stage at least (the core's smallest is below it)
CHUNK_SLOTS = 1 << 17    # table slots expanded between two checks of the limits


def available_memory() -> int:
    """Bytes of memory available now (MemAvailable on Linux; else physical memory / 2)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return 4 << 30


def physical_memory() -> int | None:
    """Bytes of this machine's physical memory, or None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def check_fits_here(budget: int, what: str) -> None:
    """Refuse a memory budget past this machine's physical memory: the kernel would kill
    the run before its budget stopped it. ``what`` names the budget in the error
    (``--memory-gb 100000``). Runs on a cluster (more machines) are not checked.

    :raises PegsolverError: ``budget`` bytes are more than the machine has.
    """
    here = physical_memory()
    if here is not None and budget > here:
        raise PegsolverError(f"{what} is more than this machine's memory ({size_text(here)}); a cluster "
                             "(--cluster, cluster=) runs on more machines")


def usable_cpus() -> int:
    """The number of CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def default_threads() -> int:
    """The largest power of two not above the number of CPUs this process may use."""
    return 1 << (usable_cpus().bit_length() - 1)


def level_bound(shape: Shape, start: int, pegs: int) -> int:
    """An upper bound on the positions with ``pegs`` pegs reachable from ``start``:
    those of the start's position class (a class never changes), counted exactly by a
    walk over the holes; every position where the board has no classes."""
    if not has_classes(shape):
        return math.comb(shape.size, pegs)
    counts = class_counts(shape, position_class(shape, start))
    return counts[pegs] if 0 <= pegs < len(counts) else 0


@lru_cache(maxsize=64)
def class_counts(shape: Shape, cls: tuple[int, ...]) -> tuple[int, ...]:
    # positions of class cls by peg count (index: pegs), one walk over the holes for all
    # counts: a walk per count was a quarter of a second of Python before each enumeration
    ways = {(0, (0,) * len(cls)): 1}   # subsets of the holes seen so far, by pegs and class
    for h in range(shape.size):
        add = hole_class(shape, h)
        nxt = dict(ways)
        for (k, c), n in ways.items():
            key = (k + 1, tuple(a ^ b for a, b in zip(c, add)))
            nxt[key] = nxt.get(key, 0) + n
        ways = nxt
    return tuple(ways.get((k, cls), 0) for k in range(shape.size + 1))


def level_bounds(shape: Shape, start: int, symmetries: int) -> list[int]:
    # level k: the positions of the start's class with k pegs fewer, divided by the symmetries
    n = start.bit_count()
    return [level_bound(shape, start, n - k) // symmetries + 1 for k in range(n)]


def first_stage_bytes(shape: Shape) -> int:
    """Bytes of a thread's first stage: room for one position's children (a block a jump,
    at worst), twice over, so that its buckets leave that much free."""
    return max(MIN_STAGE, 2 * (len(shape.jumps) + 1) * enum_sizes().block_bytes)


def stage_bytes(shape: Shape, bounds: list[int], stage_cap: int) -> int:
    # all the children a level can have (one per jump of each position), up to stage_cap
    return min(stage_cap, enum_sizes().wide_entry_bytes * len(shape.jumps) * max(bounds))


def estimate_bytes(shape: Shape, start: int, symmetries: int, keep_positions: bool,
                   stage_cap: int = STAGE_CAP) -> int:
    """Bytes the run may need at most, from :func:`level_bound` divided by the symmetry
    group: two sets of tables (the level being built and the level before; a table
    keeps the memory of the largest level it held), each at most 6 slots of 24 bytes
    a position of the largest level (sized for half load, doubled when a level
    outgrows it, the old table living on while copied), the children staged (all a
    level can have, at most ``stage_cap``, shared by the threads), and every level's
    positions when kept."""
    bounds = level_bounds(shape, start, symmetries)
    sizes = enum_sizes()
    tables = 2 * 6 * sizes.wide_slot_bytes * max(bounds)
    return tables + stage_bytes(shape, bounds, stage_cap) + (sizes.key_bytes * sum(bounds) if keep_positions else 0)
