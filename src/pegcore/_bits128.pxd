# Bitboards of one unsigned __int128 (bit i = hole i), for 65..128 holes: the type and
# its bit tricks. Needs gcc/clang's unsigned __int128.
from libc.stdint cimport uint64_t
from pegcore._common cimport popcount64, ctz64, fib_hash

cdef extern from *:
    # Cython sees a 64-bit integer; the generated C uses the real 128-bit type.
    # bits_t never crosses into Python, so Cython's conversions are never used.
    ctypedef unsigned long long uint128 "unsigned __int128"

ctypedef uint128 bits_t


cdef inline uint64_t low_half(bits_t b) noexcept nogil:
    return <uint64_t>b


cdef inline uint64_t high_half(bits_t b) noexcept nogil:
    return <uint64_t>(b >> 64)


cdef inline int popcount_bits(bits_t b) noexcept nogil:
    return popcount64(low_half(b)) + popcount64(high_half(b))


cdef inline int lowest_hole(bits_t b) noexcept nogil:
    # b must be non-zero
    cdef uint64_t lo = low_half(b)
    if lo:
        return ctz64(lo)
    return 64 + ctz64(high_half(b))


cdef inline uint64_t hash_bits(bits_t b) noexcept nogil:
    # Fold: the high half times an odd constant (a bijection) xor the low half, so equal
    # flips in both halves do not cancel; then the 64-bit hash, which this equals when
    # the high half is 0.
    return fib_hash(low_half(b) ^ (high_half(b) * <uint64_t>0xC2B2AE3D27D4EB4FULL))
