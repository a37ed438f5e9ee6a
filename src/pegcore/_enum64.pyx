# Whole-board enumeration over 64-bit bitboards (bit i = hole i), level by level.
# A level is the set of positions after k jumps, each kept once per symmetry class
# (its smallest image) with the number of jump sequences that reach its class.
# Counts are 128-bit (two uint64 words) and checked for overflow.
from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free

import numpy as np

from libc.string cimport memcpy, memset

cdef extern from *:
    void prefetch "__builtin_prefetch"(const void*) nogil

cdef extern from "<sys/mman.h>" nogil:
    void* mmap(void* addr, size_t length, int prot, int flags, int fd, long offset)
    int munmap(void* addr, size_t length)
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE, PROT_READ, PROT_WRITE, MAP_PRIVATE, MAP_ANONYMOUS
    void* MAP_FAILED

ctypedef uint64_t bits_t

MAX_HOLES = 64
cdef int MIN_LOG2 = 10


cdef enum:
    MAX_PARTS = 64
    REGION_BITS = 6       # each partition's children are staged in 64 groups by slot region (8, 10: slower)
    REGIONS = 1 << REGION_BITS


cdef enum:
    HUGE_PAGE = 2 << 20
    MAPPED = 4 << 20      # allocations from this size up are mappings of their own


cdef inline size_t mapped_size(size_t nbytes) noexcept nogil:
    return (nbytes + HUGE_PAGE - 1) // HUGE_PAGE * HUGE_PAGE


cdef void* zeroed(size_t nbytes) noexcept nogil:
    # Zeroed memory. Large tables are fresh mappings (already zero, so no second
    # clearing pass) that ask for huge pages: random probes into hundreds of
    # megabytes otherwise spend much of their time on TLB misses.
    cdef void* p
    if nbytes < MAPPED:
        return calloc(1, nbytes)
    p = mmap(NULL, mapped_size(nbytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if p == MAP_FAILED:
        return NULL
    madvise(p, mapped_size(nbytes), MADV_HUGEPAGE)  # advice only: ignored where unsupported
    return p


cdef void release(void* p, size_t nbytes) noexcept nogil:
    if p == NULL:
        return
    if nbytes < MAPPED:
        free(p)
    else:
        munmap(p, mapped_size(nbytes))


cdef inline uint64_t hash_bits(bits_t b) noexcept nogil:
    # Fibonacci hashing: tables take the top bits
    return b * <uint64_t>0x9E3779B97F4A7C15ULL


cdef class Moves:
    """A board's jumps and symmetries as the enumeration reads them.

    jumps: (n_jumps, 3) int32 (from, over, to); perms: (n_sym, n_holes) int32 symmetry
    permutations besides the identity (positions are keyed by their smallest image).
    """
    cdef bits_t* m2
    cdef bits_t* m3
    cdef int njumps
    cdef int nsym
    cdef int nbytes
    cdef int nholes
    cdef bits_t* lut
    cdef bits_t* jump_img   # njumps x nsym: each jump's from|over|to mapped by each symmetry
    cdef bits_t full

    def __cinit__(self, const int32_t[:, ::1] jumps, const int32_t[:, ::1] perms, int nholes):
        cdef int i, s, b, v, k, h
        cdef bits_t img
        if not 1 <= nholes <= MAX_HOLES:
            raise ValueError(f"the enumeration takes 1..{MAX_HOLES} holes, not {nholes}")
        self.nholes = nholes
        self.njumps = jumps.shape[0]
        self.nsym = perms.shape[0]
        self.nbytes = (nholes + 7) // 8
        self.full = (<bits_t>-1) if nholes == 64 else ((<bits_t>1 << nholes) - 1)
        self.m2 = <bits_t*>malloc((self.njumps + 1) * sizeof(bits_t))
        self.m3 = <bits_t*>malloc((self.njumps + 1) * sizeof(bits_t))
        self.lut = <bits_t*>calloc(self.nsym * self.nbytes * 256 + 1, sizeof(bits_t))
        self.jump_img = <bits_t*>malloc((self.nsym * self.njumps + 1) * sizeof(bits_t))
        if self.m2 == NULL or self.m3 == NULL or self.lut == NULL or self.jump_img == NULL:
            raise MemoryError("jump and symmetry tables")
        for i in range(self.njumps):
            self.m2[i] = (<bits_t>1 << jumps[i, 0]) | (<bits_t>1 << jumps[i, 1])
            self.m3[i] = self.m2[i] | (<bits_t>1 << jumps[i, 2])
        for s in range(self.nsym):
            for b in range(self.nbytes):
                for v in range(256):
                    img = 0
                    for k in range(8):
                        h = 8 * b + k
                        if (v >> k) & 1 and h < nholes:
                            img |= <bits_t>1 << perms[s, h]
                    self.lut[(s * self.nbytes + b) * 256 + v] = img
            for i in range(self.njumps):
                self.jump_img[i * self.nsym + s] = ((<bits_t>1 << perms[s, jumps[i, 0]])
                                                      | (<bits_t>1 << perms[s, jumps[i, 1]])
                                                      | (<bits_t>1 << perms[s, jumps[i, 2]]))

    def __dealloc__(self):
        free(self.jump_img)
        free(self.m2)
        free(self.m3)
        free(self.lut)

    def canonical(self, bits_t pegs):
        """The smallest image of ``pegs`` under the symmetries (an int)."""
        return canonical(self, pegs)


cdef inline bits_t canonical(Moves mv, bits_t pegs) noexcept nogil:
    cdef bits_t best = pegs, img
    cdef int s, b
    cdef const bits_t* lut = mv.lut
    for s in range(mv.nsym):
        img = 0
        for b in range(mv.nbytes):
            img |= lut[b * 256 + <int>((pegs >> (8 * b)) & 255)]
        if img < best:
            best = img
        lut += mv.nbytes * 256
    return best


cdef struct Slot:
    # One position and its count (lo + 2**64 * hi): key and count share a cache line.
    bits_t key
    uint64_t lo
    uint64_t hi


cdef inline object as_int(uint64_t lo, uint64_t hi):
    return (int(hi) << 64) | int(lo)


cdef class Level:
    """One level under construction (a hash table) or finished (compact, n entries).

    Keys are canonical positions (0 marks an empty slot: a position always has a peg);
    counts (when counted) are the jump sequences from the start that reach the key's
    symmetry class. ``budget`` bounds the bytes this level may hold: past it the
    table does not grow and the caller stops.
    """
    cdef Slot* slots            # counted levels
    cdef bits_t* keys           # uncounted levels
    cdef uint64_t size          # slots (table) or entries (compact)
    cdef size_t mem_bytes       # bytes allocated for slots or keys
    cdef public uint64_t n      # positions held
    cdef int log2
    cdef public bint compact
    cdef public bint counted
    cdef public uint64_t budget
    cdef public bint overflow   # a count passed 2**128
    cdef int part_bits          # top hash bits that chose this table's partition
    # positions per region (the next REGION_BITS hash bits): children are inserted a
    # region at a time, so each region must stay at most half full on its own
    cdef uint64_t region_n[REGIONS]

    def __cinit__(self, bint counted, uint64_t budget, uint64_t expect=0, int part_bits=0):
        self.counted = counted
        self.budget = budget
        self.part_bits = part_bits
        memset(self.region_n, 0, sizeof(self.region_n))
        self.log2 = MIN_LOG2
        while (<uint64_t>1 << self.log2) < 2 * expect:
            self.log2 += 1
        self.size = <uint64_t>1 << self.log2
        if self.size * self.slot_bytes() > budget:
            raise MemoryError(f"a level of {self.size:,} slots needs {self.size * self.slot_bytes():,} bytes, "
                              f"over the budget of {budget:,}")
        self.mem_bytes = self.size * self.slot_bytes()
        if counted:
            self.slots = <Slot*>zeroed(self.mem_bytes)
        else:
            self.keys = <bits_t*>zeroed(self.mem_bytes)
        if self.slots == NULL and self.keys == NULL:
            raise MemoryError(f"a level of {self.size:,} slots")

    def __dealloc__(self):
        release(self.slots, self.mem_bytes)
        release(self.keys, self.mem_bytes)

    cdef inline uint64_t slot_bytes(self) noexcept nogil:
        return sizeof(Slot) if self.counted else sizeof(bits_t)

    cdef inline bits_t key_at(self, uint64_t i) noexcept nogil:
        return self.slots[i].key if self.counted else self.keys[i]

    @property
    def nbytes(self):
        """Bytes held by the keys and counts."""
        return self.size * self.slot_bytes()

    def keys_array(self):
        """The positions as a numpy uint64 array of shape (n,) (a copy)."""
        out = np.empty(self.n, dtype=np.uint64)
        cdef uint64_t[::1] o = out
        cdef uint64_t i, k = 0
        cdef bits_t key
        with nogil:
            for i in range(self.size):
                key = self.key_at(i)
                if key:
                    o[k] = key
                    k += 1
        return out

    def counts_arrays(self):
        """The counts as two numpy uint64 arrays (lo, hi) of shape (n,), in the order of
        ``keys_array()``: count = lo + 2**64 * hi. None when the level is not counted."""
        if not self.counted:
            return None
        lo = np.empty(self.n, dtype=np.uint64)
        hi = np.empty(self.n, dtype=np.uint64)
        cdef uint64_t[::1] a = lo, b = hi
        cdef uint64_t i, k = 0
        with nogil:
            for i in range(self.size):
                if self.slots[i].key:
                    a[k] = self.slots[i].lo
                    b[k] = self.slots[i].hi
                    k += 1
        return lo, hi

    def total_count(self):
        """The sum of all counts (a Python int), or None when not counted."""
        cdef uint64_t i, lo = 0, hi = 0, top = 0, x
        if not self.counted:
            return None
        with nogil:
            for i in range(self.size):
                if self.slots[i].key:
                    x = lo + self.slots[i].lo
                    hi += x < lo             # carry into the high word
                    if hi < (x < lo):
                        top += 1
                    lo = x
                    x = hi + self.slots[i].hi
                    top += x < hi
                    hi = x
        return (int(top) << 128) | as_int(lo, hi)

    def clear(self, uint64_t expect=0):
        """Empty the table for reuse, sized for ``expect`` positions at half load: it keeps
        its memory when that is about right, else takes a table of the right size (one
        too small would grow while a region's children go in, and a region inserted
        into a table much smaller than its share piles up in one long probe run)."""
        cdef int log2 = MIN_LOG2
        cdef size_t nbytes
        cdef void* p
        if self.compact:
            raise ValueError("only a table can be cleared")
        while (<uint64_t>1 << log2) < 2 * expect:
            log2 += 1
        self.n = 0
        self.overflow = False
        memset(self.region_n, 0, sizeof(self.region_n))
        if log2 + 2 <= self.log2 or log2 > self.log2:
            nbytes = (<size_t>1 << log2) * self.slot_bytes()
            if nbytes <= self.budget:
                p = zeroed(nbytes)
                if p != NULL:
                    release(self.slots, self.mem_bytes)
                    release(self.keys, self.mem_bytes)
                    self.slots = <Slot*>p if self.counted else NULL
                    self.keys = NULL if self.counted else <bits_t*>p
                    self.mem_bytes = nbytes
                    self.size = <uint64_t>1 << log2
                    self.log2 = log2
                    return
        with nogil:
            if self.counted:
                memset(self.slots, 0, self.size * sizeof(Slot))
            else:
                memset(self.keys, 0, self.size * sizeof(bits_t))


def pack(tables, bint counted, uint64_t budget):
    """A compact level holding the entries of several tables with disjoint keys.

    :raises MemoryError: it would pass ``budget`` bytes or memory is refused.
    """
    cdef Level t, out = Level.__new__(Level, counted, budget, 0)
    cdef uint64_t n = sum(t.n for t in tables), i, k = 0
    cdef size_t nbytes = (n + 1) * out.slot_bytes()
    if nbytes > budget:
        raise MemoryError(f"a level of {n:,} positions needs {nbytes:,} bytes, over the budget of {budget:,}")
    release(out.slots, out.mem_bytes)
    release(out.keys, out.mem_bytes)
    out.slots = NULL
    out.keys = NULL
    out.mem_bytes = nbytes
    if counted:
        out.slots = <Slot*>zeroed(nbytes)
    else:
        out.keys = <bits_t*>zeroed(nbytes)
    if out.slots == NULL and out.keys == NULL:
        raise MemoryError(f"a level of {n:,} positions")
    for t in tables:
        if t.counted != counted:
            raise ValueError("pack takes tables of one kind")
        out.overflow = out.overflow or t.overflow
        with nogil:
            for i in range(t.size):
                if counted and t.slots[i].key:
                    out.slots[k] = t.slots[i]
                    k += 1
                elif not counted and t.keys[i]:
                    out.keys[k] = t.keys[i]
                    k += 1
    out.n = n
    out.size = n
    out.compact = True
    return out


cdef int level_grow(Level t) noexcept nogil:
    # Double the table; -1 past the budget or when memory is refused.
    cdef uint64_t old_size = t.size, i, j, mask = 2 * t.size - 1
    cdef int shift = 63 - t.log2, pb = t.part_bits
    cdef Slot* old_slots = t.slots
    cdef bits_t* old_keys = t.keys
    cdef Slot* slots = NULL
    cdef bits_t* keys = NULL
    if 3 * old_size * t.slot_bytes() > t.budget:  # old and new live together while copying
        return -1
    if t.counted:
        slots = <Slot*>zeroed(2 * old_size * sizeof(Slot))
        if slots == NULL:
            return -1
        for i in range(old_size):
            if old_slots[i].key:
                j = (hash_bits(old_slots[i].key) << pb) >> shift
                while slots[j].key:
                    j = (j + 1) & mask
                slots[j] = old_slots[i]
    else:
        keys = <bits_t*>zeroed(2 * old_size * sizeof(bits_t))
        if keys == NULL:
            return -1
        for i in range(old_size):
            if old_keys[i]:
                j = (hash_bits(old_keys[i]) << pb) >> shift
                while keys[j]:
                    j = (j + 1) & mask
                keys[j] = old_keys[i]
    release(old_slots, t.mem_bytes)
    release(old_keys, t.mem_bytes)
    t.slots = slots
    t.keys = keys
    t.size = 2 * old_size
    t.mem_bytes = t.size * t.slot_bytes()
    t.log2 += 1
    return 0


cdef inline int level_add(Level t, bits_t key, uint64_t h, uint64_t lo, uint64_t hi) noexcept nogil:
    # Add the count (lo, hi) to key's entry (new entries start at 0); h = hash_bits(key).
    # -1 when the table cannot grow.
    cdef uint64_t i, mask, s
    cdef Slot* sl
    if 2 * (t.n + 1) > t.size and level_grow(t) != 0:
        return -1
    mask = t.size - 1
    i = (h << t.part_bits) >> (64 - t.log2)
    if not t.counted:
        while t.keys[i] != key:
            if t.keys[i] == 0:
                t.keys[i] = key
                t.n += 1
                break
            i = (i + 1) & mask
        return 0
    while t.slots[i].key != key:
        if t.slots[i].key == 0:
            t.slots[i].key = key
            t.n += 1
            break
        i = (i + 1) & mask
    sl = &t.slots[i]
    s = sl.lo + lo
    hi += s < lo                     # carry
    sl.lo = s
    if sl.hi + hi < hi:
        t.overflow = True
    sl.hi += hi
    return 0


cdef inline void prefetch_slot(Level t, uint64_t h) noexcept nogil:
    if t.counted:
        prefetch(&t.slots[(h << t.part_bits) >> (64 - t.log2)])
    else:
        prefetch(&t.keys[(h << t.part_bits) >> (64 - t.log2)])


cdef class Work:
    """Counters of one expansion: tests (jumps tested), nodes (positions expanded), children,
    dead_ends (positions with no jump), games (jump sequences ending in a dead end:
    complete games, a Python int)."""
    cdef public uint64_t tests
    cdef public uint64_t nodes
    cdef public uint64_t dead_ends
    cdef public uint64_t children   # jumps played (children generated, before merging)
    cdef uint64_t games_lo
    cdef uint64_t games_hi
    cdef public bint overflow   # the games count passed 2**128

    @property
    def games(self):
        return as_int(self.games_lo, self.games_hi)


cdef packed struct Entry:
    # A staged child: its key and the index of its parent (whose count it inherits).
    bits_t key
    uint32_t parent




cdef class Stage:
    """Children staged for one partition of the next level by one thread, grouped by the
    region of the partition's table they land in (the next bits of their hash). Inserting
    a whole region's children at once keeps the inserts inside a small part of the table,
    which stays in the cache, instead of missing it on nearly every insert. 12 bytes a
    child; the buffers grow as needed and keep their memory.
    """
    cdef Entry* buf[REGIONS]
    cdef uint64_t n_in[REGIONS]
    cdef uint64_t cap[REGIONS]

    def __cinit__(self):
        cdef int r
        for r in range(REGIONS):
            self.cap[r] = 64
            self.n_in[r] = 0
            self.buf[r] = <Entry*>malloc(self.cap[r] * sizeof(Entry))
            if self.buf[r] == NULL:
                raise MemoryError("an expansion buffer")

    def __dealloc__(self):
        cdef int r
        for r in range(REGIONS):
            free(self.buf[r])

    @property
    def n(self):
        return sum(self.n_in[r] for r in range(REGIONS))

    @property
    def nbytes(self):
        return sum(self.cap[r] for r in range(REGIONS)) * sizeof(Entry)


cdef struct StageView:
    # A Stage's arrays, reachable without the GIL.
    Entry** buf
    uint64_t* n_in
    uint64_t* cap


cdef inline int stage_push(StageView st, int r, bits_t key, uint32_t parent) noexcept nogil:
    cdef void* q
    if st.n_in[r] == st.cap[r]:
        q = realloc(st.buf[r], 2 * st.cap[r] * sizeof(Entry))
        if q == NULL:
            return -1
        st.buf[r] = <Entry*>q
        st.cap[r] *= 2
    st.buf[r][st.n_in[r]].key = key
    st.buf[r][st.n_in[r]].parent = parent
    st.n_in[r] += 1
    return 0


def generate(Moves mv, Level parents, uint64_t lo, uint64_t hi, stages, int part_bits, Work work):
    """Stage the children of parents[lo:hi] (a compact level), each keyed canonically, in
    ``stages[part]`` where part is the top ``part_bits`` bits of its hash
    (``len(stages) == 2**part_bits``). Appends to what the stages hold. Runs without the
    GIL (the caller keeps each call short, so that limits and Ctrl-C are seen between calls).

    :raises MemoryError: a stage cannot grow.
    """
    if not parents.compact:
        raise ValueError("generate reads a compact level")
    if parents.n >= 0xFFFFFFFF:
        raise ValueError("a level of 2**32 positions or more")
    cdef int nparts = len(stages), p
    if nparts != 1 << part_bits or nparts > MAX_PARTS:
        raise ValueError(f"need 2**part_bits stages, at most {MAX_PARTS}")
    cdef StageView sts[MAX_PARTS]
    cdef Stage st
    for p in range(nparts):
        st = stages[p]
        sts[p].buf = st.buf
        sts[p].n_in = st.n_in
        sts[p].cap = st.cap
    cdef uint64_t i, clo = 1, chi = 0, s, hsh
    cdef int j, k, b, moved, failed = 0
    cdef int rshift = 64 - REGION_BITS
    cdef bits_t pegs, key, img
    # A symmetry is a permutation of holes, so it maps pegs ^ jump to
    # image(pegs) ^ image(jump): each child's images cost one xor per symmetry.
    cdef bits_t pimg[64]
    if mv.nsym > 64:
        raise ValueError("the enumeration takes at most 65 symmetries")
    with nogil:
        for i in range(lo, min(hi, parents.n)):
            if parents.counted:
                pegs = parents.slots[i].key
                clo = parents.slots[i].lo
                chi = parents.slots[i].hi
            else:
                pegs = parents.keys[i]
            moved = 0
            for k in range(mv.nsym):
                img = 0
                for b in range(mv.nbytes):
                    img |= mv.lut[(k * mv.nbytes + b) * 256 + <int>((pegs >> (8 * b)) & 255)]
                pimg[k] = img
            work.tests += mv.njumps
            # (a branch-free legal-jump mask and a loop over empty holes were both slower)
            for j in range(mv.njumps):
                if (pegs & mv.m3[j]) != mv.m2[j]:
                    continue
                moved = 1
                key = pegs ^ mv.m3[j]
                for k in range(mv.nsym):
                    img = pimg[k] ^ mv.jump_img[j * mv.nsym + k]
                    if img < key:
                        key = img
                hsh = hash_bits(key)
                p = <int>(hsh >> (64 - part_bits)) if part_bits else 0
                if stage_push(sts[p], <int>((hsh << part_bits) >> rshift), key, <uint32_t>i) != 0:
                    failed = 1
                    break
                work.children += 1
            if failed:
                break
            work.nodes += 1
            if not moved:
                work.dead_ends += 1
                s = work.games_lo + clo
                work.games_hi += chi + (s < clo)
                work.games_lo = s
    if failed:
        raise MemoryError("an expansion buffer cannot grow")


def insert(Level out, stages, Level parents):
    """Add the staged children of ``stages`` to the table ``out``, region by region, each
    with its parent's count from ``parents``, and empty the stages.

    :returns: False when ``out`` cannot grow within its budget.
    """
    cdef Stage st
    cdef uint64_t i, n
    cdef Entry* a
    cdef int ok = 1, r
    cdef uint32_t par
    cdef uint64_t lo = 1, hi = 0
    if out.compact:
        raise ValueError("insert fills a table")
    sts = list(stages)
    cdef uint64_t before
    for r in range(REGIONS):
        for st in sts:
            a = st.buf[r]
            n = st.n_in[r]
            with nogil:
                for i in range(n):
                    # keep this region at most half full (its share of the slots)
                    while 2 * REGIONS * (out.region_n[r] + 1) > out.size:
                        if level_grow(out) != 0:
                            ok = 0
                            break
                    if not ok:
                        break
                    if i + 8 < n:
                        prefetch_slot(out, hash_bits(a[i + 8].key))
                    par = a[i].parent
                    if parents.counted:
                        lo = parents.slots[par].lo
                        hi = parents.slots[par].hi
                    before = out.n
                    if level_add(out, a[i].key, hash_bits(a[i].key), lo, hi) != 0:
                        ok = 0
                        break
                    out.region_n[r] += out.n - before
            st.n_in[r] = 0
            if not ok:
                return False
    return True


def from_keys(const uint64_t[::1] keys, bint counted, uint64_t budget):
    """A compact level of the given canonical keys, each with count 1.

    :raises MemoryError: the level would pass ``budget`` bytes.
    """
    cdef Level t = Level(counted, budget, keys.shape[0])
    cdef uint64_t i
    for i in range(keys.shape[0]):
        if level_add(t, keys[i], hash_bits(keys[i]), 1, 0) != 0:
            raise MemoryError(f"a level of {keys.shape[0]:,} positions is over the budget of {budget:,} bytes")
    return pack([t], counted, budget)


def complement_members(Moves mv, const uint64_t[::1] keys, const uint64_t[::1] others):
    """Boolean mask (n,) over ``keys``: True where the key's class is the complement of
    a class in ``others`` (both canonical). Used to meet forward and backward levels."""
    cdef uint64_t n = others.shape[0], i, j, mask
    cdef int log2 = MIN_LOG2
    cdef bits_t k
    while (<uint64_t>1 << log2) < 2 * n + 2:
        log2 += 1
    mask = (<uint64_t>1 << log2) - 1
    cdef size_t set_bytes = (<size_t>1 << log2) * sizeof(bits_t)
    cdef bits_t* set_ = <bits_t*>zeroed(set_bytes)
    if set_ == NULL:
        raise MemoryError("complement set")
    out = np.zeros(keys.shape[0], dtype=np.bool_)
    cdef unsigned char[::1] o = out.view(np.uint8)
    try:
        with nogil:
            for i in range(n):
                k = canonical(mv, mv.full & ~others[i])
                j = hash_bits(k) >> (64 - log2)
                while set_[j] != 0 and set_[j] != k:
                    j = (j + 1) & mask
                set_[j] = k
            for i in range(keys.shape[0]):
                k = keys[i]
                j = hash_bits(k) >> (64 - log2)
                while set_[j] != 0:
                    if set_[j] == k:
                        o[i] = 1
                        break
                    j = (j + 1) & mask
    finally:
        release(set_, set_bytes)
    return out
