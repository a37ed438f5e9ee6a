# Depth-first search over 128-bit bitboards (bit i = hole i), for 65..128 holes.
# A separate module rather than a fused type: a fused type over uint64 and a
# 128-bit typedef collapses to 64 bits. Needs gcc/clang's unsigned __int128.
from libc.stdint cimport uint64_t

cdef extern from *:
    # Cython sees a 64-bit integer; the generated C uses the real 128-bit type.
    # bits_t never crosses into Python, so Cython's conversions are never used.
    ctypedef unsigned long long uint128 "unsigned __int128"
    int _popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int _ctz64 "__builtin_ctzll"(unsigned long long) nogil

ctypedef uint128 bits_t

MAX_HOLES = 128

cdef inline uint64_t low_half(bits_t b) noexcept nogil:
    return <uint64_t>b

cdef inline uint64_t high_half(bits_t b) noexcept nogil:
    return <uint64_t>(b >> 64)

cdef inline int popcount_bits(bits_t b) noexcept nogil:
    return _popcount64(low_half(b)) + _popcount64(high_half(b))

cdef inline int lowest_hole(bits_t b) noexcept nogil:
    # b must be non-zero
    cdef uint64_t lo = low_half(b)
    if lo:
        return _ctz64(lo)
    return 64 + _ctz64(high_half(b))

cdef inline uint64_t hash_bits(bits_t b) noexcept nogil:
    # Fold: the high half times an odd constant (a bijection) xor the low half,
    # so equal flips in both halves do not cancel; then Fibonacci hashing as in
    # the 64-bit core. Equals the 64-bit hash when the high half is 0.
    cdef uint64_t x = low_half(b) ^ (high_half(b) * <uint64_t>0xC2B2AE3D27D4EB4FULL)
    return x * <uint64_t>0x9E3779B97F4A7C15ULL

include "_search_impl.pxi"
include "_beam_impl.pxi"
