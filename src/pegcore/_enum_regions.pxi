# Merson regions counted for many positions at once, for the bound that prunes the levels
# by moves (engine.move_bounds; the regions are chosen as proofs.merson.region_choice says).
# In numpy this bound took two thirds of a pruned search's time.

def count_regions(const uint64_t[::1] keys, int64_t[::1] out, bint filled, uint64_t singles,
                  const uint64_t[::1] pairs, const uint8_t[::1] fresh,
                  const uint64_t[::1] hexagons, const uint64_t[::1] packings):
    """For each of ``keys`` (bitboards), the most disjoint regions that count, into
    ``out`` (the same shape). A region counts where the position fills it (``filled``) or
    where it does not (not ``filled``). ``singles``: the one-hole regions that may count (a
    mask). ``pairs``: the pairs along each path, in order (masks; 0 never counts), with
    ``fresh[j]`` 1 where pair j begins a path; along a path the pairs are taken greedily
    (a maximum matching). ``hexagons``: masks (0 never counts); ``packings``: sets of
    disjoint ones, each a mask over their indices (so at most 64), the best of which counts."""
    cdef Py_ssize_t i, j, n = keys.shape[0]
    cdef Py_ssize_t npairs = pairs.shape[0], nhex = hexagons.shape[0], npack = packings.shape[0]
    cdef uint64_t k, m, counted
    cdef int64_t total, best, c
    cdef bint took, hit
    if out.shape[0] != n or fresh.shape[0] != npairs or nhex > 64:
        raise ValueError("count_regions: out and keys, or fresh and pairs, differ in length, or over 64 hexagons")
    with nogil:
        for i in range(n):
            k = keys[i]
            total = popcount64(k & singles) if filled else popcount64(~k & singles)
            took = False
            for j in range(npairs):
                m = pairs[j]
                hit = m != 0 and ((k & m) == m) == filled and (fresh[j] or not took)
                total += hit
                took = hit
            counted = 0
            for j in range(nhex):
                m = hexagons[j]
                if m != 0 and ((k & m) == m) == filled:
                    counted |= (<uint64_t>1) << j
            best = 0
            for j in range(npack):
                c = popcount64(counted & packings[j])
                if c > best:
                    best = c
            out[i] = total + best
