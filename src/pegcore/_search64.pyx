# Depth-first search over 64-bit bitboards (bit i = hole i).
# The width-specific pieces are the bitboard type and its bit tricks; the
# search itself is shared through _search_impl.pxi.
from libc.stdint cimport uint64_t

ctypedef uint64_t bits_t

cdef extern from *:
    int _popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int _ctz64 "__builtin_ctzll"(unsigned long long) nogil

MAX_HOLES = 64

cdef inline int popcount_bits(bits_t b) noexcept nogil:
    return _popcount64(b)

cdef inline int lowest_hole(bits_t b) noexcept nogil:
    # b must be non-zero
    return _ctz64(b)

cdef inline uint64_t hash_bits(bits_t b) noexcept nogil:
    # Fibonacci hashing: the table takes the top bits
    return b * <uint64_t>0x9E3779B97F4A7C15ULL

include "_search_impl.pxi"
include "_beam_impl.pxi"
