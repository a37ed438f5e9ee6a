# Sorting a level's keys (kept for the winning positions and Analysis.positions): a
# least-significant-digit radix sort, a few passes over the keys. numpy's sort of 80
# million keys took 7.3 s here and could not be stopped; this takes 1.2 s. (An in-place
# most-significant-digit sort, with no scratch, took 3.7 s: its swaps wait on memory.)

cdef enum:
    DIGIT_BITS = 10                 # 1,024 counters a pass: they stay in L1 (8 and 11 bits: slower)
    DIGITS = 1 << DIGIT_BITS
    SORT_POLL = 1 << 20             # keys moved between two looks for a stop


def sort_keys(uint64_t[::1] keys, double deadline=0.0, uint8_t[::1] halt=None):
    """Sort ``keys`` (shape (n,), uint64) in place, ascending, with scratch of the same
    size. It looks for a stop every SORT_POLL keys: ``deadline`` (monotonic seconds, 0 for
    none), Ctrl-C or SIGTERM (their handler's exception is raised), ``halt[0]`` set by
    another thread; a stopped sort leaves ``keys`` in some order (the level is dropped).

    :raises MemoryError: no memory for the scratch.
    :raises TimeoutError: the deadline passed.
    :raises InterruptedError: ``halt[0]`` was set.
    """
    cdef const uint8_t* halt_p = &halt[0] if halt is not None and halt.shape[0] > 0 else NULL
    cdef size_t n = keys.shape[0], i, total
    cdef uint64_t* src
    cdef uint64_t* dst
    cdef uint64_t* tmp
    cdef uint64_t every = 0, x
    cdef int shift, d, stopped = 0
    cdef size_t counts[DIGITS]
    if n < 2:
        return
    cdef uint64_t* scratch = <uint64_t*>malloc(n * sizeof(uint64_t))
    if scratch == NULL:
        raise MemoryError(f"scratch for sorting {n:,} keys")
    src, dst = &keys[0], scratch
    with nogil:
        for i in range(n):
            every |= src[i]
        shift = 0
        while shift < 64 and (every >> shift) != 0 and not stopped:
            memset(counts, 0, DIGITS * sizeof(size_t))
            for i in range(n):
                counts[(src[i] >> shift) & (DIGITS - 1)] += 1
            if counts[(src[0] >> shift) & (DIGITS - 1)] != n:   # else every key has this digit
                total = 0
                for d in range(DIGITS):
                    total += counts[d]
                    counts[d] = total - counts[d]
                for i in range(n):
                    if i % SORT_POLL == SORT_POLL - 1:
                        stopped = stop_asked(deadline, halt_p)
                        if stopped:
                            break
                    x = src[i]
                    d = (x >> shift) & (DIGITS - 1)
                    dst[counts[d]] = x
                    counts[d] += 1
                tmp = src
                src = dst
                dst = tmp
            shift += DIGIT_BITS
        if src != &keys[0] and not stopped:
            memcpy(&keys[0], src, n * sizeof(uint64_t))
    free(scratch)
    if stopped == -3:
        raise TimeoutError("the deadline passed while a level's keys were sorted")
    if stopped == -4:
        raise_pending()
    if stopped == -5:
        raise InterruptedError("the sort of a level's keys was halted")
