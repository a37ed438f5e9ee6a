# The (position, moving peg's hole) pairs that chains of jumps by one peg have reached:
# chains reaching the same position with the peg on the same hole go on alike, so each
# pair is followed once (sparse boards' chains are otherwise countless). Shared by the
# enumeration's moves (_enum_chains.pxi) and the search's beam by moves
# (_move_beam_impl.pxi); the includer provides bits_t and hash_bits.
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, malloc, free


cdef struct Visited:
    # the (position, moving peg's hole) pairs one parent's chains have reached: an
    # open-addressed set, emptied per parent through the list of slots it filled
    bits_t* slots
    uint8_t* holes      # the hole of each slot, plus one (0: an empty slot)
    uint32_t* used
    uint64_t cap        # 2 ** log2
    int log2
    uint64_t n


cdef inline uint64_t pair_hash(bits_t b, int h) noexcept nogil:
    return hash_bits(b ^ (<bits_t>(h + 1) * <bits_t>0x9E3779B97F4A7C15ULL))


cdef int visit(Visited* v, bits_t b, int h) noexcept nogil:
    # 1 if (b, h) is new (and now in the set), 0 if seen, -1 when memory runs out
    cdef uint64_t j, i, mask, k
    cdef bits_t* grown
    cdef uint8_t* grown_holes
    cdef uint32_t* grown_used
    if 2 * (v.n + 1) > v.cap:   # double, and put the used slots back
        grown = <bits_t*>calloc(2 * v.cap, sizeof(bits_t))
        grown_holes = <uint8_t*>calloc(2 * v.cap, sizeof(uint8_t))
        grown_used = <uint32_t*>malloc(v.cap * sizeof(uint32_t))
        if grown == NULL or grown_holes == NULL or grown_used == NULL:
            free(grown)
            free(grown_holes)
            free(grown_used)
            return -1
        mask = 2 * v.cap - 1
        v.log2 += 1
        for i in range(v.n):
            k = v.used[i]
            j = pair_hash(v.slots[k], v.holes[k] - 1) >> (64 - v.log2)
            while grown_holes[j]:
                j = (j + 1) & mask
            grown[j], grown_holes[j] = v.slots[k], v.holes[k]
            grown_used[i] = <uint32_t>j
        free(v.slots)
        free(v.holes)
        free(v.used)
        v.slots, v.holes, v.used, v.cap = grown, grown_holes, grown_used, 2 * v.cap
    mask = v.cap - 1
    j = pair_hash(b, h) >> (64 - v.log2)
    while v.holes[j]:
        if v.slots[j] == b and v.holes[j] == h + 1:
            return 0
        j = (j + 1) & mask
    v.slots[j], v.holes[j] = b, <uint8_t>(h + 1)
    v.used[v.n] = <uint32_t>j
    v.n += 1
    return 1


cdef int visited_init(Visited* v) noexcept nogil:
    # An empty set of 1,024 slots; -1 when memory runs out (free with visited_free).
    v.cap, v.log2, v.n = 1024, 10, 0
    v.slots = <bits_t*>calloc(v.cap, sizeof(bits_t))
    v.holes = <uint8_t*>calloc(v.cap, sizeof(uint8_t))
    v.used = <uint32_t*>malloc(v.cap // 2 * sizeof(uint32_t))
    return 0 if v.slots != NULL and v.holes != NULL and v.used != NULL else -1


cdef void visited_free(Visited* v) noexcept nogil:
    free(v.slots)
    free(v.holes)
    free(v.used)
    v.slots, v.holes, v.used = NULL, NULL, NULL


cdef inline void visited_clear(Visited* v) noexcept nogil:
    # empty the set through the list of slots it filled
    cdef uint64_t k
    for k in range(v.n):
        v.holes[v.used[k]] = 0
    v.n = 0
