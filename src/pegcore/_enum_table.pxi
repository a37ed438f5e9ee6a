# One partition of a level: an open-addressed table of positions and their counts.

cdef struct Slot:
    # One position and the low word of its count: 16 bytes, four to a cache line.
    # The high words, needed only once a count passes 2**64, live apart (Level.his).
    bits_t key
    uint64_t lo

SLOT_BYTES = sizeof(Slot)                           # a position of a counted level
WIDE_SLOT_BYTES = sizeof(Slot) + sizeof(uint64_t)   # with its high count word


cdef inline object as_int(uint64_t lo, uint64_t hi):
    return (int(hi) << 64) | int(lo)


cdef class Level:
    """One partition of a level: an open-addressed hash table of positions.

    Keys are canonical positions (0 marks an empty slot: a position always has a peg);
    counts (when counted) are the jump sequences from the start that reach the key's
    symmetry class. ``budget`` bounds the bytes this table may hold: past it the table
    does not grow and the caller stops. The table keeps its memory when cleared, so a
    run reuses two sets of tables (the level expanded and the level built).
    """
    cdef Slot* slots            # counted levels
    cdef uint64_t* his          # counted levels, once wide: each slot's high count word
    cdef bits_t* keys           # uncounted levels
    cdef uint64_t size          # slots in use
    cdef size_t mem_bytes       # bytes allocated for slots or keys
    cdef size_t his_bytes
    cdef public uint64_t n      # positions held
    cdef public bint counted
    cdef public uint64_t budget
    cdef public bint overflow   # a count passed 2**128
    cdef public bint wide       # some count passed 2**64 (then his is allocated)
    cdef int part_bits          # top hash bits that chose this table's partition
    cdef int region_bits        # the next hash bits: the region of the table
    # positions per region: children are merged a region at a time, so each region
    # must stay at most half full on its own (else one long probe run forms)
    cdef uint64_t* region_n

    def __cinit__(self, bint counted, uint64_t budget, uint64_t expect=0, int part_bits=0, int region_bits=0):
        self.counted = counted
        self.budget = budget
        self.part_bits = part_bits
        self.region_n = <uint64_t*>calloc(BUCKETS, sizeof(uint64_t))
        if self.region_n == NULL:
            raise MemoryError("region counts")
        if not self.clear(expect, region_bits):
            raise MemoryError(f"a table for {expect:,} positions is over the budget of {budget:,} bytes")

    def __dealloc__(self):
        free(self.region_n)
        release(self.slots, self.mem_bytes)
        release(self.his, self.his_bytes)
        release(self.keys, self.mem_bytes)

    cdef inline uint64_t slot_bytes(self) noexcept nogil:
        return sizeof(Slot) if self.counted else sizeof(bits_t)

    cdef inline bits_t key_at(self, uint64_t i) noexcept nogil:
        return self.slots[i].key if self.counted else self.keys[i]

    def add(self, bits_t key, count=1):
        """Add ``count`` (an int from 0 to 2**128 - 1) to the entry of ``key`` (a canonical
        position; a new entry starts at 0), for levels made by hand: the start, tests.

        :raises ValueError: key 0 (no pegs), a count out of range, or a count for an
            uncounted level.
        :raises MemoryError: the table would pass its budget.
        """
        if key == 0:
            raise ValueError("a position has at least one peg")
        if not 0 <= count < 1 << 128 or (not self.counted and count != 1):
            raise ValueError(f"bad count {count!r}")
        if 2 * (self.n + 1) > self.size and level_grow(self) != 0 or \
                level_add(self, key, hash_bits(key), count & 0xFFFFFFFFFFFFFFFF, count >> 64) != 0:
            raise MemoryError(f"a table of {self.n:,} positions is over its budget of {self.budget:,} bytes")

    cdef inline uint64_t hi_at(self, uint64_t i) noexcept nogil:
        return self.his[i] if self.his != NULL else 0

    @property
    def nbytes(self):
        """Bytes allocated for the keys and counts."""
        return self.mem_bytes + self.his_bytes

    @property
    def slots_used(self):
        """Slots of the table in use (positions are spread over these)."""
        return self.size

    def keys_array(self, out=None):
        """The positions as a numpy uint64 array of shape (n,) (a copy), written into
        ``out`` when given (shape (n,), uint64: a slice of one array for several tables).

        :raises ValueError: ``out`` of another length.
        """
        if out is None:
            out = np.empty(self.n, dtype=np.uint64)
        cdef uint64_t[::1] o = out
        if o.shape[0] != self.n:
            raise ValueError(f"{o.shape[0]} places for the {self.n} positions of a table")
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
                    b[k] = self.hi_at(i)
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
                    x = hi + self.hi_at(i)
                    top += x < hi
                    hi = x
        return (int(top) << 128) | as_int(lo, hi)

    def clear(self, uint64_t expect=0, int region_bits=0):
        """Empty the table for ``expect`` positions at half load, in 2**region_bits
        regions. It keeps its memory when that is large enough, else grows it; only the
        bytes that held positions are cleared (grown memory is fresh, already zero).
        A table too small would grow while a region's children go in, and a region merged
        into a table much smaller than its share piles up in one long probe run.

        :returns: False when the table would pass its budget or memory is refused.
        """
        cdef uint64_t size = max(<uint64_t>TABLE_MIN_SLOTS, 2 * expect)
        cdef size_t nbytes = size * self.slot_bytes()
        cdef void* p
        cdef size_t dirty = min(nbytes, self.mem_bytes)   # what held positions: the rest is fresh (zero)
        if not 0 <= region_bits or (1 << (self.part_bits + region_bits)) > BUCKETS:
            raise ValueError(f"at most {BUCKETS} partitions x regions")
        self.n = 0
        self.overflow = False
        self.wide = False
        release(self.his, self.his_bytes)   # wide levels are rare: made again when needed
        self.his = NULL
        self.his_bytes = 0
        self.region_bits = region_bits
        memset(self.region_n, 0, BUCKETS * sizeof(uint64_t))
        if nbytes > self.mem_bytes:
            if nbytes > self.budget:
                return False
            p = regrow(<void*>self.slots if self.counted else <void*>self.keys, self.mem_bytes, nbytes)
            if p == NULL:
                return False
            if self.counted:
                self.slots = <Slot*>p
            else:
                self.keys = <bits_t*>p
            self.mem_bytes = nbytes
        self.size = size
        with nogil:
            memset(<void*>self.slots if self.counted else <void*>self.keys, 0, dirty)
        return True


cdef inline uint64_t home(Level t, uint64_t h) noexcept nogil:
    # The slot a hash starts probing at: monotone in the bits after the partition's,
    # so each region's positions start in their own stretch of the table.
    return mulhi(h << t.part_bits, t.size)


cdef int level_grow(Level t) noexcept nogil:
    # Double the table; -1 past the budget or when memory is refused.
    cdef uint64_t old_size = t.size, size = 2 * t.size, i, j
    cdef Slot* old_slots = t.slots
    cdef uint64_t* old_his = t.his
    cdef bits_t* old_keys = t.keys
    cdef size_t old_bytes = t.mem_bytes, nbytes = size * t.slot_bytes(), old_his_bytes = t.his_bytes
    cdef size_t his_bytes = 2 * old_his_bytes
    cdef void* p
    cdef uint64_t* his = NULL
    if old_bytes + old_his_bytes + nbytes + his_bytes > t.budget:  # old and new live together while copying
        return -1
    p = zeroed(nbytes)
    if p == NULL:
        return -1
    if old_his != NULL:
        his = <uint64_t*>zeroed(his_bytes)
        if his == NULL:
            release(p, nbytes)
            return -1
    t.size = size
    if t.counted:
        t.slots = <Slot*>p
        for i in range(old_size):
            if old_slots[i].key:
                j = home(t, hash_bits(old_slots[i].key))
                while t.slots[j].key:
                    j += 1
                    if j == size:
                        j = 0
                t.slots[j] = old_slots[i]
                if his != NULL:
                    his[j] = old_his[i]
    else:
        t.keys = <bits_t*>p
        for i in range(old_size):
            if old_keys[i]:
                j = home(t, hash_bits(old_keys[i]))
                while t.keys[j]:
                    j += 1
                    if j == size:
                        j = 0
                t.keys[j] = old_keys[i]
    release(old_slots, old_bytes)
    release(old_his, old_his_bytes)
    release(old_keys, old_bytes)
    t.mem_bytes = nbytes
    t.his = his
    t.his_bytes = his_bytes
    return 0


cdef int make_wide(Level t) noexcept nogil:
    # Give the table its high count words (all 0); -1 past the budget or when refused.
    cdef size_t nbytes = t.size * sizeof(uint64_t)
    if t.his != NULL:
        return 0
    if t.mem_bytes + nbytes > t.budget:
        return -1
    t.his = <uint64_t*>zeroed(nbytes)
    if t.his == NULL:
        return -1
    t.his_bytes = nbytes
    t.wide = True
    return 0


cdef inline int level_add(Level t, bits_t key, uint64_t h, uint64_t lo, uint64_t hi) noexcept nogil:
    # Add the count (lo, hi) to key's entry (new entries start at 0); h = hash_bits(key).
    # -1 when the table cannot grow. The caller keeps the table under half full.
    cdef uint64_t i = home(t, h), size = t.size, s
    cdef Slot* sl
    if not t.counted:
        while t.keys[i] != key:
            if t.keys[i] == 0:
                t.keys[i] = key
                t.n += 1
                break
            i += 1
            if i == size:
                i = 0
        return 0
    while t.slots[i].key != key:
        if t.slots[i].key == 0:
            t.slots[i].key = key
            t.n += 1
            break
        i += 1
        if i == size:
            i = 0
    sl = &t.slots[i]
    s = sl.lo + lo
    hi += s < lo                     # carry
    sl.lo = s
    if hi:
        if make_wide(t) != 0:
            return -1
        if t.his[i] + hi < hi:
            t.overflow = True
        t.his[i] += hi
    return 0


def from_keys(const uint64_t[::1] keys, bint counted, uint64_t budget, int part_bits=0):
    """A level of the given canonical keys, each with count 1: a list of
    2**part_bits tables (the partitions).

    :raises MemoryError: the level would pass ``budget`` bytes.
    """
    cdef int parts = 1 << part_bits, p
    tables = [Level(counted, budget // parts, keys.shape[0], part_bits) for _ in range(parts)]
    cdef Level t
    cdef uint64_t i, h
    for i in range(keys.shape[0]):
        h = hash_bits(keys[i])
        t = tables[(h >> (64 - part_bits)) if part_bits else 0]
        t.add(keys[i])
    return tables
