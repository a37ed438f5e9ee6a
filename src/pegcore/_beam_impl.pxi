# Beam search, included by _search_impl.pxi after the Ctx, the guided score, canonical
# keys, pagodas and the limits it uses.
# Level k holds positions after k jumps. Children are merged up to the allowed
# symmetries, and when a level has more than `width` positions only the `width`
# lowest-scoring ones are kept (ties: first generated). A level that was never cut
# is complete, so a search that never cuts and finds nothing is a proof.

from libc.stdlib cimport realloc
from libc.stdint cimport uint32_t


cdef struct Level:
    bits_t* pegs
    int64_t* score
    uint32_t* parent     # index in the level before
    int32_t* jump        # jump from the parent
    uint64_t n


cdef struct Beam:
    Level* levels        # one per jump count, kept to rebuild the path
    int nlevels
    # children of the level being expanded, before the cut
    bits_t* kid_pegs
    int64_t* kid_score
    uint32_t* kid_parent
    int32_t* kid_jump
    uint64_t kid_cap
    # set of canonical keys of those children (open addressing, 0 = empty)
    bits_t* seen
    int seen_log2
    uint64_t seen_count
    int64_t* select      # scratch for the cut
    uint64_t bytes       # memory held now
    uint64_t peak        # most memory held at once
    uint64_t kept        # positions kept over all levels
    uint64_t budget
    int cut              # some level lost positions to the width


cdef inline void note_peak(Beam* b) noexcept nogil:
    if b.bytes > b.peak:
        b.peak = b.bytes


cdef void beam_free(Beam* b) noexcept nogil:
    cdef int k
    if b.levels != NULL:
        for k in range(b.nlevels):
            free(b.levels[k].pegs)
            free(b.levels[k].score)
            free(b.levels[k].parent)
            free(b.levels[k].jump)
        free(b.levels)
    free(b.kid_pegs)
    free(b.kid_score)
    free(b.kid_parent)
    free(b.kid_jump)
    free(b.seen)
    free(b.select)


cdef inline uint64_t kid_bytes(uint64_t n) noexcept nogil:
    return n * (sizeof(bits_t) + sizeof(int64_t) + sizeof(uint32_t) + sizeof(int32_t))


cdef int kids_reserve(Beam* b, uint64_t need) noexcept nogil:
    # Room for `need` children; -1 when that would pass the memory budget.
    cdef uint64_t cap = b.kid_cap if b.kid_cap else 1024
    cdef void* p
    if need <= b.kid_cap:
        return 0
    while cap < need:
        cap *= 2
    if b.bytes + kid_bytes(cap) + cap * sizeof(int64_t) - kid_bytes(b.kid_cap) \
            - b.kid_cap * sizeof(int64_t) > b.budget:
        return -1
    p = realloc(b.kid_pegs, cap * sizeof(bits_t))
    if p == NULL:
        return -1
    b.kid_pegs = <bits_t*>p
    p = realloc(b.kid_score, cap * sizeof(int64_t))
    if p == NULL:
        return -1
    b.kid_score = <int64_t*>p
    p = realloc(b.kid_parent, cap * sizeof(uint32_t))
    if p == NULL:
        return -1
    b.kid_parent = <uint32_t*>p
    p = realloc(b.kid_jump, cap * sizeof(int32_t))
    if p == NULL:
        return -1
    b.kid_jump = <int32_t*>p
    p = realloc(b.select, cap * sizeof(int64_t))
    if p == NULL:
        return -1
    b.select = <int64_t*>p
    b.bytes += kid_bytes(cap) + cap * sizeof(int64_t) - kid_bytes(b.kid_cap) - b.kid_cap * sizeof(int64_t)
    b.kid_cap = cap
    note_peak(b)
    return 0


cdef int seen_reset(Beam* b, uint64_t expect) noexcept nogil:
    # An empty key set with room for `expect` keys at half load (it grows later if needed).
    cdef int log2 = b.seen_log2 if b.seen != NULL else 10
    while (<uint64_t>1 << log2) < 2 * expect:
        log2 += 1
    if b.seen == NULL or log2 != b.seen_log2:
        if b.seen != NULL:
            b.bytes -= (<uint64_t>1 << b.seen_log2) * sizeof(bits_t)
            free(b.seen)
            b.seen = NULL
        if b.bytes + (<uint64_t>1 << log2) * sizeof(bits_t) > b.budget:
            return -1
        b.seen = <bits_t*>calloc(<size_t>1 << log2, sizeof(bits_t))
        if b.seen == NULL:
            return -1
        b.seen_log2 = log2
        b.bytes += (<uint64_t>1 << log2) * sizeof(bits_t)
        note_peak(b)
    else:
        memset(b.seen, 0, (<size_t>1 << log2) * sizeof(bits_t))
    b.seen_count = 0
    return 0


cdef int seen_grow(Beam* b) noexcept nogil:
    # Double the key set; -1 when that would pass the memory budget.
    cdef uint64_t old_size = <uint64_t>1 << b.seen_log2, i, k, mask
    cdef bits_t* old = b.seen
    if b.bytes + 2 * old_size * sizeof(bits_t) > b.budget:
        return -1
    b.seen = <bits_t*>calloc(2 * old_size, sizeof(bits_t))
    if b.seen == NULL:
        b.seen = old
        return -1
    b.seen_log2 += 1
    mask = 2 * old_size - 1
    for i in range(old_size):
        if old[i] != 0:
            k = key_hash(old[i]) >> (64 - b.seen_log2)
            while b.seen[k] != 0:
                k = (k + 1) & mask
            b.seen[k] = old[i]
    free(old)
    b.bytes += old_size * sizeof(bits_t)
    note_peak(b)
    return 0


cdef int seen_add(Beam* b, bits_t key) noexcept nogil:
    # 1 if key is new (and now stored), 0 if it was there, -1 out of memory.
    cdef uint64_t mask, i
    if b.seen_count * 2 >= (<uint64_t>1 << b.seen_log2) and seen_grow(b) != 0:
        return -1
    mask = (<uint64_t>1 << b.seen_log2) - 1
    i = key_hash(key) >> (64 - b.seen_log2)
    while b.seen[i] != 0:
        if b.seen[i] == key:
            return 0
        i = (i + 1) & mask
    b.seen[i] = key
    b.seen_count += 1
    return 1


cdef int64_t kth_smallest(int64_t* a, uint64_t n, uint64_t k) noexcept nogil:
    # Quickselect (middle pivot, Hoare partition); reorders a.
    cdef uint64_t lo = 0, hi = n - 1, i, j
    cdef int64_t pivot, t
    while lo < hi:
        pivot = a[lo + (hi - lo) // 2]
        i = lo
        j = hi
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                t = a[i]
                a[i] = a[j]
                a[j] = t
                i += 1
                if j == 0:
                    break
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            return a[k]
    return a[k]


cdef uint64_t cut_to_width(Beam* b, uint64_t n, uint64_t width) noexcept nogil:
    # Keep the `width` lowest scores in generation order (ties: first generated).
    cdef uint64_t i, kept = 0, below = 0, ties
    cdef int64_t v
    if n <= width:
        return n
    b.cut = 1
    for i in range(n):
        b.select[i] = b.kid_score[i]
    v = kth_smallest(b.select, n, width - 1)
    for i in range(n):
        if b.kid_score[i] < v:
            below += 1
    ties = width - below
    for i in range(n):
        if b.kid_score[i] < v or (b.kid_score[i] == v and ties > 0):
            if b.kid_score[i] == v:
                ties -= 1
            b.kid_pegs[kept] = b.kid_pegs[i]
            b.kid_score[kept] = b.kid_score[i]
            b.kid_parent[kept] = b.kid_parent[i]
            b.kid_jump[kept] = b.kid_jump[i]
            kept += 1
    return kept


cdef int keep_level(Beam* b, uint64_t n) noexcept nogil:
    # Copy the first n children into a new level.
    cdef Level* lv = &b.levels[b.nlevels]
    cdef uint64_t size = n if n else 1
    if b.bytes + kid_bytes(size) > b.budget:
        return -1
    lv.pegs = <bits_t*>malloc(size * sizeof(bits_t))
    lv.score = <int64_t*>malloc(size * sizeof(int64_t))
    lv.parent = <uint32_t*>malloc(size * sizeof(uint32_t))
    lv.jump = <int32_t*>malloc(size * sizeof(int32_t))
    b.nlevels += 1
    if lv.pegs == NULL or lv.score == NULL or lv.parent == NULL or lv.jump == NULL:
        return -1
    memcpy(lv.pegs, b.kid_pegs, n * sizeof(bits_t))
    memcpy(lv.score, b.kid_score, n * sizeof(int64_t))
    memcpy(lv.parent, b.kid_parent, n * sizeof(uint32_t))
    memcpy(lv.jump, b.kid_jump, n * sizeof(int32_t))
    lv.n = n
    b.bytes += kid_bytes(size)
    note_peak(b)
    return 0


cdef void beam_path(Ctx* c, Beam* b, uint32_t parent, int32_t last_jump) noexcept nogil:
    # Follow parents from the last level back to the start.
    cdef int k = b.nlevels - 1
    c.path[k] = last_jump
    while k > 0:
        c.path[k - 1] = b.levels[k].jump[parent]
        parent = b.levels[k].parent[parent]
        k -= 1


cdef int beam(Ctx* c, Beam* b, bits_t start, uint64_t width) noexcept nogil:
    # 1 solved; 0 not (c.stop says why; STOP_MEMORY when the budget ran out).
    cdef uint64_t i, n, nkids, start_score = 0
    cdef int j, moved, fresh, depth = popcount_bits(start) - c.goal_count
    cdef Level* lv
    cdef bits_t pegs, child, reg
    cdef int64_t sc
    if depth <= 0:
        c.nodes += 1
        return goal_reached(c, start)
    b.levels = <Level*>calloc(depth + 1, sizeof(Level))
    if b.levels == NULL or kids_reserve(b, 1) != 0:
        c.stop = STOP_MEMORY
        return 0
    b.bytes += (depth + 1) * sizeof(Level)
    b.kid_pegs[0] = start
    b.kid_score[0] = 0
    b.kid_parent[0] = 0
    b.kid_jump[0] = -1
    if keep_level(b, 1) != 0:
        c.stop = STOP_MEMORY
        return 0
    while b.nlevels <= depth:
        lv = &b.levels[b.nlevels - 1]
        if seen_reset(b, lv.n * 4) != 0:
            c.stop = STOP_MEMORY
            return 0
        nkids = 0
        for i in range(lv.n):
            if poll_limits(c):
                return 0
            c.nodes += 1
            pegs = lv.pegs[i]
            if kids_reserve(b, nkids + c.njumps) != 0:
                c.stop = STOP_MEMORY
                return 0
            c.tests += c.njumps
            moved = 0
            for j in range(c.njumps):
                if (pegs & c.m3[j]) != c.m2[j]:
                    continue
                moved = 1
                child = pegs ^ c.m3[j]
                if b.nlevels == depth:
                    # The last jump: only the goal matters.
                    if goal_reached(c, child):
                        beam_path(c, b, <uint32_t>i, j)
                        return 1
                    continue
                if c.npag and pagoda_dead(c, child):
                    continue
                fresh = seen_add(b, canonical(c, child) if c.nsym else child)
                if fresh < 0:
                    c.stop = STOP_MEMORY
                    return 0
                if fresh == 0:
                    c.table_hits += 1
                    continue
                reg = c.region[j]
                sc = (lv.score[i] + c.iso_weight * (isolated_in(c, child, reg) - isolated_in(c, pegs, reg))
                      + c.jump_gain[j])
                b.kid_pegs[nkids] = child
                b.kid_score[nkids] = sc
                b.kid_parent[nkids] = <uint32_t>i
                b.kid_jump[nkids] = j
                nkids += 1
            if not moved:
                c.dead_ends += 1
        if b.nlevels == depth:
            return 0
        n = cut_to_width(b, nkids, width)
        b.kept += n
        if n == 0:
            return 0
        if keep_level(b, n) != 0:
            c.stop = STOP_MEMORY
            return 0
    return 0
