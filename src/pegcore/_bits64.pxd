# Bitboards of one uint64 (bit i = hole i): the type and its bit tricks, shared by the
# 64-bit search and the enumeration.
from libc.stdint cimport uint64_t
from pegcore._common cimport popcount64, ctz64, fib_hash

ctypedef uint64_t bits_t


cdef inline int popcount_bits(bits_t b) noexcept nogil:
    return popcount64(b)


cdef inline int lowest_hole(bits_t b) noexcept nogil:
    # b must be non-zero
    return ctz64(b)


cdef inline uint64_t hash_bits(bits_t b) noexcept nogil:
    return fib_hash(b)
