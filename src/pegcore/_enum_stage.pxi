# Children staged by one thread between generate() and insert().

# A staged child's words: its key (uncounted levels), and its count's low, then high word.
KEY_ENTRY_WORDS = 1
COUNT_ENTRY_WORDS = 2
WIDE_ENTRY_WORDS = 3
WIDE_ENTRY_BYTES = WIDE_ENTRY_WORDS * sizeof(uint64_t)


cdef class Stage:
    """Children staged by one thread, in buckets: a bucket is a partition of the next level
    and a region of that partition's table (the top bits of the child's hash). A child
    is 1 word (its key, uncounted levels), 2 (key, count) or 3 (key, 128-bit count).
    Buckets are chains of BLOCK_BYTES blocks taken from one arena of ``nbytes``, kept
    across levels; generation stops when the arena is nearly full, and the caller grows
    it or merges and resets the stage.
    """
    cdef uint64_t* arena
    cdef size_t mem_bytes
    cdef int32_t nblocks
    cdef int32_t used           # blocks taken
    cdef int32_t* next_block
    cdef int32_t head[BUCKETS]
    cdef int32_t tail[BUCKETS]
    cdef uint64_t* wpos[BUCKETS]  # where the bucket's next child goes
    cdef uint64_t* wend[BUCKETS]  # the end of its last block
    cdef public int bucket_bits
    cdef public int entry_words
    cdef public int key_shift   # -1: buckets by hash; else by key >> key_shift (key ranges)
    cdef int per_block

    def __cinit__(self, size_t nbytes):
        self.nblocks = <int32_t>min(nbytes // (BLOCK_WORDS * 8), 0x7FFFFFFF)
        if self.nblocks < STAGE_MIN_BLOCKS:
            raise ValueError(f"a stage of {nbytes:,} bytes is under {STAGE_MIN_BLOCKS} blocks of {BLOCK_WORDS * 8} bytes")
        self.mem_bytes = <size_t>self.nblocks * BLOCK_WORDS * 8
        self.arena = <uint64_t*>zeroed(self.mem_bytes, False)
        self.next_block = <int32_t*>malloc(self.nblocks * sizeof(int32_t))
        if self.arena == NULL or self.next_block == NULL:
            raise MemoryError(f"a stage of {nbytes:,} bytes")
        self.reset(0, 2)

    def __dealloc__(self):
        release(self.arena, self.mem_bytes)
        free(self.next_block)

    def grow(self, size_t nbytes):
        """Enlarge the arena to ``nbytes``, keeping what is staged.

        :returns: False when memory is refused (the stage is unchanged).
        """
        cdef int32_t blocks = <int32_t>min(nbytes // (BLOCK_WORDS * 8), 0x7FFFFFFF)
        cdef size_t new_bytes = <size_t>blocks * BLOCK_WORDS * 8
        cdef uint64_t* old = self.arena
        cdef uint64_t* p
        cdef void* q
        cdef int b
        if blocks <= self.nblocks:
            return True
        q = realloc(self.next_block, blocks * sizeof(int32_t))
        if q == NULL:
            return False
        self.next_block = <int32_t*>q
        p = <uint64_t*>regrow(self.arena, self.mem_bytes, new_bytes, False)
        if p == NULL:
            return False
        self.arena = p
        self.mem_bytes = new_bytes
        self.nblocks = blocks
        for b in range(1 << self.bucket_bits):  # the write positions move with the arena
            if self.wpos[b] != NULL:
                self.wpos[b] = p + (self.wpos[b] - old)
                self.wend[b] = p + (self.wend[b] - old)
        return True

    @property
    def nbytes(self):
        return self.mem_bytes + self.nblocks * sizeof(int32_t)

    @property
    def blocks(self):
        """Blocks in the arena."""
        return self.nblocks

    def reset(self, int bucket_bits, int entry_words, int key_shift=-1):
        """Empty the stage, for 2**bucket_bits buckets of entries of ``entry_words`` words:
        by the top bits of a child's hash (key_shift -1), or by ``key >> key_shift`` (ranges
        of keys, for levels stored sorted; keys must be below 2**(key_shift + bucket_bits))."""
        cdef int b
        if not 0 <= bucket_bits or (1 << bucket_bits) > BUCKETS or (1 << bucket_bits) * BUCKET_MIN_BLOCKS > self.nblocks:
            raise ValueError(f"{1 << bucket_bits} buckets for a stage of {self.nblocks} blocks")
        if entry_words not in (1, 2, 3):
            raise ValueError("entries are 1, 2 or 3 words")
        if key_shift < -1 or key_shift + bucket_bits > 64:
            raise ValueError(f"a key shift of {key_shift} for {1 << bucket_bits} buckets")
        self.bucket_bits = bucket_bits
        self.entry_words = entry_words
        self.key_shift = key_shift
        self.per_block = (BLOCK_WORDS - 2) // entry_words   # room to write 3 words
        self.used = 0
        for b in range(1 << bucket_bits):
            self.head[b] = -1
            self.tail[b] = -1
            self.wpos[b] = NULL
            self.wend[b] = NULL


cdef uint64_t* new_block(Stage st, int b) noexcept nogil:
    # Chain a fresh block to bucket b (the caller made sure one is free).
    cdef int32_t x = st.used
    st.used += 1
    st.next_block[x] = -1
    if st.tail[b] < 0:
        st.head[b] = x
    else:
        st.next_block[st.tail[b]] = x
    st.tail[b] = x
    st.wpos[b] = st.arena + <size_t>x * BLOCK_WORDS
    st.wend[b] = st.wpos[b] + st.per_block * st.entry_words
    return st.wpos[b]
