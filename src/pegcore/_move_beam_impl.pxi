# Beam search by moves (a move: one or more consecutive jumps by one peg), included by
# _search_impl.pxi after the beam by jumps (_beam_impl.pxi), whose levels, key set and
# cut it shares. Level k holds positions k moves from the start: the children of a
# position are the ends of every chain of jumps one of its pegs can make. Children are
# merged up to the allowed symmetries and scored by their pegs plus a weight for each full
# Merson region (a region needs a move of its own while full); past ``width`` a level
# keeps the lowest scores. The first level holding the goal gives a solution; when no
# level before it was cut, the levels were complete and it has the fewest moves.

cdef enum:
    CHAIN_OPEN = 2048   # chain states open at once: at most 128 jumps deep, 8 ways each, and the start


cdef inline int jump_to(Ctx* c, int j) noexcept nogil:
    return lowest_hole(c.m3[j] & ~c.m2[j])


cdef inline int64_t move_score(Ctx* c, bits_t pegs, bits_t key) noexcept nogil:
    # pegs plus merson_weight per full region, then a hash of the key below that to break ties evenly
    cdef int64_t s = popcount_bits(pegs)
    cdef int r
    for r in range(c.nmerson):
        if pegs & c.merson[r] == c.merson[r]:
            s += c.merson_weight
    return (s << 32) | <int64_t>(key_hash(key) >> 33)


cdef int chain_ends(Ctx* c, Beam* b, Visited* vs, bits_t pegs, uint32_t parent, uint64_t* nkids,
                    bits_t target, int32_t* path, bits_t* goal) noexcept nogil:
    # Every position a chain of jumps by one peg of pegs ends in, kept in the beam's children
    # (new canonical keys only; pagoda-dead ends are neither kept nor followed). With target
    # non-zero, look for that position only and write the chain's jumps to path.
    # Returns: the chain's length when target was reached, 0 when done, -1 when a child is
    # the goal (then in goal), -2 out of memory, -3 the clock or a signal (c.stop set).
    cdef bits_t stack_b[CHAIN_OPEN]
    cdef int stack_h[CHAIN_OPEN]
    cdef int stack_d[CHAIN_OPEN]
    cdef int32_t stack_j[CHAIN_OPEN]
    cdef int sp = 0, h, g, j, d, to, fresh
    cdef bits_t cur, child, key, rest = pegs
    visited_clear(vs)
    while rest:
        stack_b[0], stack_h[0], stack_d[0], stack_j[0], sp = pegs, lowest_hole(rest), 0, -1, 1
        rest &= rest - 1
        while sp:
            sp -= 1
            cur, h, d = stack_b[sp], stack_h[sp], stack_d[sp]
            if d:
                if path != NULL:
                    path[d - 1] = stack_j[sp]
                if cur == target:
                    return d
            c.tests += 1
            if (c.tests & 0xFFFF) == 0 and poll_clock(c, 1):   # a sparse position's chains may be many
                return -3
            for g in range(c.ngroups):
                if not c.g_from[g] & hole_bit(h):
                    continue
                j = c.g_jump[g * c.nholes + h]
                if cur & c.m3[j] != c.m2[j]:
                    continue
                child = cur ^ c.m3[j]
                to = jump_to(c, j)
                fresh = visit(vs, child, to)
                if fresh < 0:
                    return -2
                if not fresh or c.npag and pagoda_dead(c, child):   # a jump never raises a pagoda
                    continue
                if sp < CHAIN_OPEN:
                    stack_b[sp], stack_h[sp], stack_d[sp], stack_j[sp] = child, to, d + 1, j
                    sp += 1
                if target:
                    continue
                if goal_reached(c, child):
                    goal[0] = child
                    return -1
                key = canonical(c, child) if c.nsym else child
                fresh = seen_add(b, key)
                if fresh < 0:
                    return -2
                if fresh == 0:
                    c.table_hits += 1
                    continue
                if kids_reserve(b, nkids[0] + 1) != 0:
                    return -2
                b.kid_pegs[nkids[0]] = child
                b.kid_score[nkids[0]] = move_score(c, child, key)
                b.kid_parent[nkids[0]] = parent
                b.kid_jump[nkids[0]] = j
                nkids[0] += 1
    return 0


cdef int move_path(Ctx* c, Beam* b, Visited* vs, uint32_t parent, bits_t goal) noexcept nogil:
    # The jumps from the start to goal (reached from position parent of the last level)
    # into c.path: each level's position back to the start, then each move's chain found
    # again between two positions. 0, -2 out of memory, -3 the clock or a signal.
    cdef int k = b.nlevels - 1, n, total = 0, moves = b.nlevels
    cdef bits_t* along = <bits_t*>malloc((moves + 1) * sizeof(bits_t))
    cdef int32_t* chain = <int32_t*>malloc((c.nholes + 1) * sizeof(int32_t))
    cdef uint64_t nkids = 0
    cdef bits_t unused
    if along == NULL or chain == NULL:
        free(along)
        free(chain)
        return -2
    along[moves] = goal
    while k >= 0:
        along[k] = b.levels[k].pegs[parent]
        parent = b.levels[k].parent[parent]
        k -= 1
    for k in range(moves):
        n = chain_ends(c, b, vs, along[k], 0, &nkids, along[k + 1], chain, &unused)
        if n <= 0:   # a stop (0 cannot happen: each position came from the one before by a move)
            free(along)
            free(chain)
            return n if n == -3 else -2
        memcpy(c.path + total, chain, n * sizeof(int32_t))
        total += n
    free(along)
    free(chain)
    return 0


cdef int move_beam(Ctx* c, Beam* b, bits_t start, uint64_t width) noexcept nogil:
    # 1 solved (c.path: the jumps; c.best_depth: the moves), 0 not (c.stop says why)
    cdef uint64_t i = 0, n, nkids
    cdef int r = 0, most = popcount_bits(start) - c.goal_count   # moves at most: each takes a peg
    cdef bits_t goal = 0
    cdef Level* lv
    cdef Visited vs
    c.best_depth = 0
    if most <= 0:
        c.nodes += 1
        return goal_reached(c, start)
    b.levels = <Level*>calloc(most + 1, sizeof(Level))
    if visited_init(&vs) != 0 or b.levels == NULL or kids_reserve(b, 1) != 0:
        visited_free(&vs)
        c.stop = STOP_MEMORY
        return 0
    b.bytes += (most + 1) * sizeof(Level)
    b.kid_pegs[0], b.kid_score[0], b.kid_parent[0], b.kid_jump[0] = start, 0, 0, -1
    if keep_level(b, 1) != 0:
        r = -2
    while r == 0 and b.nlevels <= most:
        lv = &b.levels[b.nlevels - 1]
        if seen_reset(b, lv.n * 4) != 0:
            r = -2
            break
        nkids = 0
        for i in range(lv.n):
            if poll_limits(c):
                r = -3
                break
            c.nodes += 1
            r = chain_ends(c, b, &vs, lv.pegs[i], <uint32_t>i, &nkids, 0, NULL, &goal)
            if r < 0:
                break
        if r < 0:
            break
        n = cut_to_width(b, nkids, width)
        b.kept += n
        if n == 0:   # every position of the level is a dead end
            break
        if keep_level(b, n) != 0:
            r = -2
    if r == -1:   # the goal, one move from position i of the last level
        c.best_depth = b.nlevels
        r = move_path(c, b, &vs, <uint32_t>i, goal)
    visited_free(&vs)
    if r == -2:
        c.stop = STOP_MEMORY
    return r == 0 and c.best_depth > 0
