# A set of positions for breadth-first search by moves: a child is new when it is in no
# level before, so every level is checked against all of them, in one hash table.

cdef class KeySet:
    """Positions (keys: uint64) seen so far, in an open-addressed hash table filled to at most
    7/10 (linear probing stays short there: about 2 probes to find a key, 6 to miss one);
    it doubles as it fills. The empty position (key 0) is held apart.

    expect: keys to make room for at first (0: the fewest slots).

    :raises MemoryError: the table cannot be allocated.
    """
    cdef bits_t* slots
    cdef uint64_t cap       # slots, a power of two
    cdef int log2
    cdef uint64_t count
    cdef bint has_zero

    def __cinit__(self, uint64_t expect=0):
        self.log2 = 10
        while (<uint64_t>1 << self.log2) * 7 < 10 * expect + 10:
            self.log2 += 1
        self.cap = <uint64_t>1 << self.log2
        self.slots = <bits_t*>zeroed(self.cap * sizeof(bits_t))
        if self.slots == NULL:
            raise MemoryError(f"a set of {expect} positions")

    def __dealloc__(self):
        release(self.slots, self.cap * sizeof(bits_t))

    def __len__(self):
        return self.count

    @property
    def nbytes(self):
        """Bytes of the table."""
        return self.cap * sizeof(bits_t)

    def bytes_for(self, uint64_t more):
        """Bytes the table will take once ``more`` keys are added (the peak while it
        doubles: old and new tables together)."""
        cdef uint64_t cap = self.cap
        while cap * 7 < 10 * (self.count + more) + 10:
            cap *= 2
        return cap * sizeof(bits_t) + (0 if cap == self.cap else cap // 2 * sizeof(bits_t))

    cdef int grow(self) noexcept nogil:
        # double the table, every key rehashed; -1 when memory runs out
        cdef uint64_t old_cap = self.cap, i, j, mask
        cdef bits_t* old = self.slots
        cdef bits_t* new = <bits_t*>zeroed(2 * old_cap * sizeof(bits_t))
        if new == NULL:
            return -1
        self.log2 += 1
        self.cap = 2 * old_cap
        mask = self.cap - 1
        for i in range(old_cap):
            if old[i]:
                j = hash_bits(old[i]) >> (64 - self.log2)
                while new[j]:
                    j = (j + 1) & mask
                new[j] = old[i]
        self.slots = new
        release(old, old_cap * sizeof(bits_t))
        return 0

    def add_new(self, const uint64_t[::1] keys):
        """Add ``keys`` (n,) uint64; return those not in the set before, each once, in the
        order they first appear: (m,) uint64.

        :raises MemoryError: the table cannot grow.
        """
        out = np.empty(keys.shape[0], dtype=np.uint64)
        cdef uint64_t[::1] o = out
        cdef uint64_t i, j, m = 0, mask = self.cap - 1
        cdef bits_t k
        cdef int err = 0
        with nogil:
            for i in range(<uint64_t>keys.shape[0]):
                k = keys[i]
                if k == 0:
                    if not self.has_zero:
                        self.has_zero = True
                        self.count += 1
                        o[m] = 0
                        m += 1
                    continue
                j = hash_bits(k) >> (64 - self.log2)
                while self.slots[j] != 0 and self.slots[j] != k:
                    j = (j + 1) & mask
                if self.slots[j] == 0:
                    self.slots[j] = k
                    self.count += 1
                    o[m] = k
                    m += 1
                    if 10 * self.count + 10 > 7 * self.cap:
                        if self.grow() < 0:
                            err = 1
                            break
                        mask = self.cap - 1
        if err:
            raise MemoryError(f"a set of {2 * self.count} positions")
        return out[:m].copy()

    def contains(self, const uint64_t[::1] keys):
        """(n,) bool: whether each of ``keys`` is in the set."""
        out = np.zeros(keys.shape[0], dtype=np.bool_)
        cdef unsigned char[::1] o = out.view(np.uint8)
        cdef uint64_t i, j, mask = self.cap - 1
        cdef bits_t k
        with nogil:
            for i in range(<uint64_t>keys.shape[0]):
                k = keys[i]
                if k == 0:
                    o[i] = self.has_zero
                    continue
                j = hash_bits(k) >> (64 - self.log2)
                while self.slots[j] != 0:
                    if self.slots[j] == k:
                        o[i] = 1
                        break
                    j = (j + 1) & mask
        return out
