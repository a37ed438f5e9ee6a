# Depth-first search over 64-bit bitboards (bit i = hole i). The width-specific pieces
# are the bitboard type and its bit tricks (_bits64.pxd); the search itself is shared
# through _search_impl.pxi.
from pegcore._bits64 cimport bits_t, popcount_bits, lowest_hole, hash_bits

MAX_HOLES = 64

include "_search_impl.pxi"
