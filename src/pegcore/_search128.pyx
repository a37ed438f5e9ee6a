# Depth-first search over 128-bit bitboards (bit i = hole i), for 65..128 holes.
# A separate module rather than a fused type: a fused type over uint64 and a 128-bit
# typedef collapses to 64 bits. The bit tricks are in _bits128.pxd.
from pegcore._bits128 cimport bits_t, popcount_bits, lowest_hole, hash_bits

MAX_HOLES = 128

include "_search_impl.pxi"
