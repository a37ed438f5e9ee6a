# Moves of any length for breadth-first search by moves: a move is one or more consecutive
# jumps by the same peg, so the positions one move away are those at the ends of every
# chain of jumps one peg can make. Backward, a chain undoes jumps: the peg jumps back over
# a hole, refilling it, and goes on from where it landed.

cdef enum:
    CHAIN_STACK = 4096      # a chain's open branches: at most 64 jumps deep, 8 ways each
    # ``hard`` counts a child's 16 bytes (8, and its buffer grows by half) as 1 and a pair of
    # the parent's set of (position, hole) pairs as 4: 22 bytes, and 66 while the set doubles
    SEEN_WEIGHT = 4


cdef class Chains:
    """A board's jumps listed by the hole they leave and the hole they reach.

    jumps: (n_jumps, 3) int32 (from, over, to); nholes: holes of the board (1 to 64).

    :raises ValueError: a hole outside 0..nholes-1 or more holes than 64.
    """
    cdef int nholes
    cdef int njumps
    cdef bits_t* m3
    cdef int* jfrom
    cdef int* jto
    cdef int* from_start    # nholes + 1 offsets into from_list
    cdef int* from_list     # jumps by from-hole
    cdef int* to_start
    cdef int* to_list       # jumps by to-hole

    def __cinit__(self, const int32_t[:, ::1] jumps, int nholes):
        cdef int i, h, n = jumps.shape[0]
        if not 1 <= nholes <= MAX_HOLES:
            raise ValueError(f"moves take 1..{MAX_HOLES} holes, not {nholes}")
        self.nholes, self.njumps = nholes, n
        self.m3 = <bits_t*>malloc((n + 1) * sizeof(bits_t))
        self.jfrom = <int*>malloc((n + 1) * sizeof(int))
        self.jto = <int*>malloc((n + 1) * sizeof(int))
        self.from_start = <int*>calloc(nholes + 2, sizeof(int))
        self.to_start = <int*>calloc(nholes + 2, sizeof(int))
        self.from_list = <int*>malloc((n + 1) * sizeof(int))
        self.to_list = <int*>malloc((n + 1) * sizeof(int))
        if (self.m3 == NULL or self.jfrom == NULL or self.jto == NULL or self.from_start == NULL
                or self.to_start == NULL or self.from_list == NULL or self.to_list == NULL):
            raise MemoryError("jump lists")
        for i in range(n):
            for h in range(3):
                if not 0 <= jumps[i, h] < nholes:
                    raise ValueError(f"jump {i} names hole {jumps[i, h]}, not one of 0..{nholes - 1}")
            self.jfrom[i], self.jto[i] = jumps[i, 0], jumps[i, 2]
            self.m3[i] = (<bits_t>1 << jumps[i, 0]) | (<bits_t>1 << jumps[i, 1]) | (<bits_t>1 << jumps[i, 2])
            self.from_start[jumps[i, 0] + 1] += 1
            self.to_start[jumps[i, 2] + 1] += 1
        for h in range(nholes):
            self.from_start[h + 1] += self.from_start[h]
            self.to_start[h + 1] += self.to_start[h]
        fill_from = [self.from_start[h] for h in range(nholes)]
        fill_to = [self.to_start[h] for h in range(nholes)]
        for i in range(n):
            self.from_list[fill_from[self.jfrom[i]]] = i
            fill_from[self.jfrom[i]] += 1
            self.to_list[fill_to[self.jto[i]]] = i
            fill_to[self.jto[i]] += 1

    def __dealloc__(self):
        free(self.m3)
        free(self.jfrom)
        free(self.jto)
        free(self.from_start)
        free(self.to_start)
        free(self.from_list)
        free(self.to_list)


cdef int push_child(bits_t** out, size_t* n, size_t* cap, bits_t key) noexcept nogil:
    # out[n++] = key, growing out by half when full; -1 when memory runs out
    cdef bits_t* grown
    if n[0] == cap[0]:
        grown = <bits_t*>realloc(out[0], (cap[0] + cap[0] // 2 + 1024) * sizeof(bits_t))
        if grown == NULL:
            return -1
        out[0] = grown
        cap[0] += cap[0] // 2 + 1024
    out[0][n[0]] = key
    n[0] += 1
    return 0


cdef int chain_children(Moves mv, Chains ch, bits_t pegs, bint backward, Visited* seen, bits_t** out,
                        size_t* n, size_t* cap, size_t hard, double deadline,
                        const uint8_t* halt) noexcept nogil:
    # Every position at the end of a chain of jumps by one peg of pegs (backward: undoing
    # jumps), appended as canonical keys, once for each hole the moving peg can be on
    # there; -1 when memory runs out, -2 past ``hard`` (children, plus SEEN_WEIGHT for each
    # pair in ``seen``; 0: no bound), -3 past the
    # deadline (0: none; monotonic seconds), -4 when a signal handler raised (Ctrl-C,
    # SIGTERM: the exception stays set for the caller), -5 when another thread set *halt
    # (NULL: none): one position of a sparse board may have
    # millions of positions a move away. Chains reaching the same position with the peg
    # on the same hole go on alike, so each such pair is followed once: sparse boards,
    # whose chains are countless, would otherwise take exponential time.
    cdef bits_t stack_b[CHAIN_STACK]
    cdef int stack_h[CHAIN_STACK]
    cdef int sp = 0, h, i, j, lo, hi, fresh, why
    cdef uint64_t steps = 0
    cdef bits_t b, c, need, rest = pegs
    visited_clear(seen)
    while rest:
        stack_b[0], stack_h[0], sp = pegs, ctz64(rest), 1
        rest &= rest - 1
        while sp:
            sp -= 1
            b, h = stack_b[sp], stack_h[sp]
            steps += 1
            if hard and n[0] + SEEN_WEIGHT * seen.n >= hard:
                return -2
            if (steps & 0xFFFF) == 0:
                why = stop_asked(deadline, halt)
                if why:
                    return why
            if backward:
                lo, hi = ch.to_start[h], ch.to_start[h + 1]
            else:
                lo, hi = ch.from_start[h], ch.from_start[h + 1]
            for i in range(lo, hi):
                j = ch.to_list[i] if backward else ch.from_list[i]
                # forward: from and over full, to empty; backward: to full, over and from empty
                need = (<bits_t>1 << h) if backward else (ch.m3[j] ^ (<bits_t>1 << ch.jto[j]))
                if b & ch.m3[j] != need:
                    continue
                c = b ^ ch.m3[j]
                fresh = visit(seen, c, ch.jfrom[j] if backward else ch.jto[j])
                if fresh < 0 or (fresh and push_child(out, n, cap, canonical(mv, c)) < 0):
                    return -1
                if fresh and sp < CHAIN_STACK:   # always: the stack holds at most 64 jumps x 8 ways
                    stack_b[sp] = c
                    stack_h[sp] = ch.jfrom[j] if backward else ch.jto[j]
                    sp += 1
    return 0


cdef int raise_pending() except -1:
    # the exception a signal handler raised while the GIL was released is still set: raise it
    return -1


def move_children(Moves mv, Chains ch, const uint64_t[::1] keys, bint backward=False, uint64_t most=0,
                  uint64_t hard=0, double deadline=0.0, const uint8_t[::1] halt=None):
    """The positions one move from each of ``keys``, as canonical keys under ``mv``'s
    symmetries: ``(children, done)``, children (m,) uint64 unsorted, from the first
    ``done`` keys, with repeats (a position once for each hole its moving peg can be on).

    ``backward``: one move back instead (the moves that end in each key). ``most``: stop
    after the first parent that brings the children to this many (0: no cap), so that a
    caller bounds the memory and time of one call. ``hard``: at most this many children,
    each counted as 16 bytes, with the set of (position, hole) pairs the current parent's
    chains reached, each pair counted as SEEN_WEIGHT children (0: no bound), even within one
    parent; ``deadline``: a time.monotonic() value (0: none); ``halt`` (1,): another thread
    sets ``halt[0]`` to stop the call (None: none).
    ``mv`` and ``ch`` must be built from the same jumps.

    :raises ValueError: ``mv`` and ``ch`` of different boards.
    :raises MemoryError: the children do not fit in memory, or pass ``hard``.
    :raises TimeoutError: the deadline passed (the children found are dropped).
    :raises InterruptedError: ``halt[0]`` was set (the children found are dropped).
    """
    if mv.njumps != ch.njumps or mv.nholes != ch.nholes:
        raise ValueError("the symmetries and the jump lists are of different boards")
    cdef size_t n = 0, cap = 16 * <size_t>keys.shape[0] + 1024, i = 0
    cdef bits_t* buf = <bits_t*>malloc(cap * sizeof(bits_t))
    cdef int err = 0
    cdef uint64_t[::1] o
    cdef Visited seen
    cdef const uint8_t* halt_p = &halt[0] if halt is not None and halt.shape[0] > 0 else NULL
    if visited_init(&seen) != 0 or buf == NULL:
        free(buf)
        visited_free(&seen)
        raise MemoryError("children of a level")
    try:
        with nogil:
            while i < <size_t>keys.shape[0]:
                err = chain_children(mv, ch, keys[i], backward, &seen, &buf, &n, &cap, hard, deadline, halt_p)
                if err < 0:
                    break
                i += 1
                if most and n >= most:
                    break
        if err == -2:
            raise MemoryError(f"more than {hard:,} positions one move away (the chains followed count too) "
                              f"from {i + 1:,} positions")
        if err == -3:
            raise TimeoutError("the deadline passed while the positions one move away were found")
        if err == -4:
            raise_pending()
        if err == -5:
            raise InterruptedError("another thread stopped the positions one move away")
        if err:
            raise MemoryError("children of a level")
        out = np.empty(n, dtype=np.uint64)
        if n:
            o = out
            memcpy(&o[0], buf, n * sizeof(bits_t))
        return out, i
    finally:
        free(buf)
        visited_free(&seen)
