# Whole-board enumeration over 64-bit bitboards (bit i = hole i), level by level.
# A level is the set of positions after k jumps, each kept once per symmetry class
# (its smallest image) with the number of jump sequences that reach its class.
# Counts are 128-bit (two uint64 words) and checked for overflow.
#
# One level is 2**part_bits hash tables (partitions, one per thread). Expanding it:
# every thread generates the children of its own table into its Stage, bucketed by
# partition and by region of the partition's table (the next bits of the hash); then
# every thread merges its partition's buckets region by region, so the inserts stay
# in a piece of the table small enough for the cache. A child carries its parent's
# count, so the merge reads nothing but its bucket and its region. The top bits of a
# position's hash (hash_bits) choose its partition, then its region, then its slot.
#
# The parts, one job each, in the order Cython needs their types declared:
#   _enum_memory.pxi  zeroed, growable and released memory (huge pages, mremap: Linux)
#   _enum_moves.pxi   a board's jumps and symmetries: legal-jump sets, canonical keys
#   _enum_table.pxi   Level: one partition's hash table of positions and counts
#   _enum_stage.pxi   Stage: a thread's staged children, bucketed, in a block arena
#   _enum_expand.pxi  generate(): a level's children into the stages (Work: counters)
#   _enum_merge.pxi   insert(): the staged children merged into the next level
#   _enum_rank.pxi    the stored form's transforms: keys ranked within their peg count, bytes shuffled
#   _chain_seen.pxi   the (position, hole) pairs chains of jumps have reached (shared with the search)
#   _enum_chains.pxi  moves (chains of jumps by one peg): the positions one move away
#   _enum_keyset.pxi  KeySet: the positions a search by moves has seen
#   _enum_sort.pxi    sort_keys(): a level's keys sorted in place (radix), stoppable
from libc.stdint cimport uint64_t, uint32_t, uint8_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset
from pegcore._common cimport prefetch, prefetch_write, ctz64, popcount64, now_seconds, fib_hash, stop_asked
from pegcore._bits64 cimport bits_t

import numpy as np

cdef extern from *:
    # The high word of a 64 x 64-bit product: mulhi(hash, n) scales a hash into [0, n).
    """
    static inline uint64_t pegcore_mulhi(uint64_t a, uint64_t b) {
        return (uint64_t)(((unsigned __int128)a * b) >> 64);
    }
    """
    uint64_t mulhi "pegcore_mulhi"(uint64_t a, uint64_t b) nogil

cdef enum:
    MAX_PARTS = 64          # partitions of a level: the stages one merge reads
    MAX_WORDS = 16          # words of a legal-jump set, one spare
    BUCKETS = 4096          # partitions x regions a stage takes
    BLOCK_WORDS = 512
    STAGE_MIN_BLOCKS = 64   # blocks a stage has at least
    BUCKET_MIN_BLOCKS = 4   # and per bucket it takes
    TABLE_MIN_SLOTS = 1024  # slots a table has at least
    STAGE_AHEAD = 16        # words ahead of a stage write fetched for writing
    BATCH = 64              # children whose slots are fetched together
    MERGE_POLL = 1024       # batches merged between looks for a stop (about a millisecond)
    HUGE_PAGE = 2 << 20
    MAPPED = 4 << 20        # allocations from this size up are mappings of their own

# Sizes for Python's memory planning (pegsolver.engine.core.enum_sizes); the byte sizes
# of the structures are next to them (_enum_table.pxi, _enum_stage.pxi).
MAX_HOLES = 64
MAX_THREADS = MAX_PARTS
MAX_BUCKETS = BUCKETS
BLOCK_BYTES = BLOCK_WORDS * 8       # a stage's unit of allocation
MIN_STAGE_BYTES = STAGE_MIN_BLOCKS * BLOCK_WORDS * 8
MIN_BLOCKS_PER_BUCKET = BUCKET_MIN_BLOCKS
MIN_SLOTS = TABLE_MIN_SLOTS
KEY_BYTES = sizeof(bits_t)          # a position of an uncounted level, or kept for the caller
# A table is merged a region at a time: regions of about an L2 cache (1 and 4 MiB: slower).
REGION_BYTES = 2048 << 10


cdef inline uint64_t hash_bits(bits_t b) noexcept nogil:
    # The enumeration's hash: the high bits folded onto the low ones, then Fibonacci
    # hashing. Fibonacci hashing alone spreads positions badly: 72,044 distinct children
    # of 3-3-2-2's level 16 took 26,293 distinct 20-bit homes (69,613 folded first, about
    # what random keys take), and the merge's probe runs made level 15 ten times slower.
    return fib_hash(b ^ (b >> 29))

include "_enum_memory.pxi"
include "_enum_moves.pxi"
include "_enum_table.pxi"
include "_enum_stage.pxi"
include "_enum_expand.pxi"
include "_enum_merge.pxi"
include "_enum_rank.pxi"
include "_chain_seen.pxi"
include "_enum_chains.pxi"
include "_enum_keyset.pxi"
include "_enum_regions.pxi"
include "_enum_sort.pxi"
