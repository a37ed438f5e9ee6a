# Merging: each partition's staged children into its table of the next level.

cdef struct StageView:
    # What the merge reads of a Stage, reachable without the GIL.
    uint64_t* arena
    int32_t* next_block
    int32_t* head
    int32_t* tail
    uint64_t** wpos
    int per_block
    int entry_words


def insert(Level out, stages, int part, double deadline=0.0, uint8_t[::1] halt=None):
    """Merge into ``out`` (partition ``part`` of the level being built) the children that
    ``stages`` hold for it, region by region. The stages are left as they are (reset
    them once every partition is merged). A merge into fresh memory can take seconds
    (the kernel clears each new page), so it looks for a stop every MERGE_POLL batches:
    ``deadline`` (monotonic seconds, 0 for none), Ctrl-C or SIGTERM (their handler's
    exception is raised, in the main thread), and ``halt[0]`` set by another thread.
    A stopped merge leaves ``out`` part-merged: the level is to be dropped.

    :returns: False when ``out`` cannot grow within its budget.
    :raises TimeoutError: the deadline passed.
    :raises InterruptedError: ``halt[0]`` was set.
    """
    cdef const uint8_t* halt_p = &halt[0] if halt is not None and halt.shape[0] > 0 else NULL
    cdef int stopped = 0
    cdef uint64_t polls = 0
    cdef int nst = len(stages), si, r, ew, c, k, nin, b
    cdef int rb = out.region_bits, pb = out.part_bits
    cdef Stage st
    cdef StageView sts[MAX_PARTS]
    cdef StageView* v
    if nst > MAX_PARTS:
        raise ValueError(f"at most {MAX_PARTS} stages")
    for si in range(nst):
        st = stages[si]
        if st.bucket_bits != pb + rb:
            raise ValueError("stage buckets do not match the table's partition and regions")
        if (st.entry_words == 1) == out.counted:
            raise ValueError("the stage's entries do not match the level")
        sts[si].arena = st.arena
        sts[si].next_block = st.next_block
        sts[si].head = st.head
        sts[si].tail = st.tail
        sts[si].wpos = st.wpos
        sts[si].per_block = st.per_block
        sts[si].entry_words = st.entry_words
    cdef int ok = 1
    cdef bint counted = out.counted, over = out.overflow
    cdef int32_t x
    cdef uint64_t lo = 1, hi = 0, rn, size, i, added = 0, sum_
    cdef uint64_t home_[BATCH]
    cdef uint64_t* e
    cdef uint64_t* batch
    cdef bits_t key
    cdef Slot* slots
    cdef bits_t* keys
    cdef Slot* sl
    cdef int start, nb
    with nogil:
        for r in range(1 << rb):
            b = (part << rb) | r
            rn = out.region_n[r]
            slots = out.slots
            keys = out.keys
            size = out.size
            for si in range(nst):
                v = &sts[si]
                ew = v.entry_words
                x = v.head[b]
                while x >= 0 and ok:
                    e = v.arena + <size_t>x * BLOCK_WORDS
                    if v.next_block[x] >= 0:  # blocks are scattered: start fetching the next one
                        for c in range(0, 8 * 8, 8):
                            prefetch(v.arena + <size_t>v.next_block[x] * BLOCK_WORDS + c)
                    # children in the block: full, unless it is the bucket's last
                    nin = v.per_block if x != v.tail[b] else <int>(v.wpos[b] - e) // ew
                    start = 0
                    while start < nin and ok:
                        polls += 1
                        if polls % MERGE_POLL == 0:
                            stopped = stop_asked(deadline, halt_p)
                            if stopped:
                                ok = 0
                                break
                        # find and fetch a batch's home slots, then merge the batch
                        batch = e + start * ew
                        nb = min(BATCH, nin - start)
                        start += nb
                        for c in range(nb):
                            home_[c] = mulhi(hash_bits(batch[c * ew]) << pb, size)
                            if counted:
                                prefetch(&slots[home_[c]])
                            else:
                                prefetch(&keys[home_[c]])
                        for c in range(nb):
                            key = batch[c * ew]
                            i = home_[c]
                            if not counted:
                                while keys[i] != key:
                                    if keys[i] == 0:
                                        keys[i] = key
                                        rn += 1
                                        break
                                    i += 1
                                    if i == size:
                                        i = 0
                            else:
                                while slots[i].key != key:
                                    if slots[i].key == 0:
                                        slots[i].key = key
                                        rn += 1
                                        break
                                    i += 1
                                    if i == size:
                                        i = 0
                                sl = &slots[i]
                                lo = batch[c * ew + 1]
                                hi = batch[c * ew + 2] if ew == 3 else 0
                                sum_ = sl.lo + lo
                                sl.lo = sum_
                                hi += sum_ < lo     # carry
                                if hi:              # rare: a count past 2**64
                                    if out.his == NULL and make_wide(out) != 0:
                                        ok = 0
                                        break
                                    if out.his[i] + hi < hi:
                                        over = True
                                    out.his[i] += hi
                            # keep this region at most half full (its share of the slots)
                            if (2 * rn) << rb > size:
                                added += rn - out.region_n[r]
                                out.region_n[r] = rn
                                if level_grow(out) != 0:
                                    ok = 0
                                    break
                                slots = out.slots
                                keys = out.keys
                                size = out.size
                                for k in range(c + 1, nb):
                                    home_[k] = mulhi(hash_bits(batch[k * ew]) << pb, size)
                    x = v.next_block[x]
            added += rn - out.region_n[r]
            out.region_n[r] = rn
            if not ok:
                break
    out.n += added
    out.overflow = over
    if stopped == -3:
        raise TimeoutError("the deadline passed while a level was merged")
    if stopped == -4:
        raise_pending()
    if stopped == -5:
        raise InterruptedError("another thread's merge was interrupted")
    return bool(ok)


def drain(Stage st):
    """The staged children as arrays, bucket after bucket (not summed: the out-of-core merge
    sums them): keys, low and high count words (shape (n,), uint64; the count words are
    None for entries of 1 word, the high ones None for 2), and offsets (shape (buckets + 1,),
    int64: bucket b is [offsets[b], offsets[b + 1])). The stage is left as it is."""
    cdef int nb = 1 << st.bucket_bits, b, ew = st.entry_words, c
    cdef int32_t x
    cdef int64_t n = 0, nin
    cdef uint64_t* e
    offsets = np.zeros(nb + 1, dtype=np.int64)
    cdef int64_t[::1] off = offsets
    for b in range(nb):        # children per bucket: full blocks, then the last one's part
        x = st.head[b]
        while x >= 0:
            nin = st.per_block if x != st.tail[b] else <int64_t>(st.wpos[b] - (st.arena + <size_t>x * BLOCK_WORDS)) // ew
            n += nin
            x = st.next_block[x]
        off[b + 1] = n
    keys = np.empty(n, dtype=np.uint64)
    lo = np.empty(n if ew > 1 else 0, dtype=np.uint64)
    hi = np.empty(n if ew > 2 else 0, dtype=np.uint64)
    cdef uint64_t[::1] k = keys, l = lo, h = hi
    cdef int64_t i = 0, j
    with nogil:
        for b in range(nb):
            x = st.head[b]
            while x >= 0:
                e = st.arena + <size_t>x * BLOCK_WORDS
                nin = st.per_block if x != st.tail[b] else <int64_t>(st.wpos[b] - e) // ew
                for j in range(nin):
                    k[i] = e[j * ew]
                    if ew > 1:
                        l[i] = e[j * ew + 1]
                    if ew > 2:
                        h[i] = e[j * ew + 2]
                    i += 1
                x = st.next_block[x]
    return keys, lo if ew > 1 else None, hi if ew > 2 else None, offsets


def add_arrays(Level t, const uint64_t[::1] keys, const uint64_t[::1] lo, const uint64_t[::1] hi=None):
    """Add counts lo[i] + 2**64 * hi[i] (hi None: 0) to the entries of keys[i] of ``t``
    (a counted table; uncounted: lo and hi are ignored), summing duplicates: the merge of
    the out-of-core runs. Shapes (n,), uint64; keys are canonical positions, never 0.

    :returns: False when ``t`` cannot grow within its budget (what was added stays).
    :raises ValueError: arrays of different lengths, or a key 0.
    """
    cdef Py_ssize_t n = keys.shape[0], i
    cdef bint ok = True, bad = False
    cdef bint counted = t.counted
    if counted and lo.shape[0] != n or hi is not None and hi.shape[0] != n:
        raise ValueError(f"{n} keys but {lo.shape[0]} low and {hi.shape[0] if hi is not None else n} high count words")
    cdef const uint64_t* his = &hi[0] if hi is not None and n else NULL
    with nogil:
        for i in range(n):
            if keys[i] == 0:
                bad = True
                break
            if 2 * (t.n + 1) > t.size and level_grow(t) != 0 or \
                    level_add(t, keys[i], hash_bits(keys[i]), lo[i] if counted else 1,
                              his[i] if his != NULL else 0) != 0:
                ok = False
                break
    if bad:
        raise ValueError("a position has at least one peg (key 0)")
    return ok
