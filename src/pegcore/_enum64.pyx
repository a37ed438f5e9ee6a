# Whole-board enumeration over 64-bit bitboards (bit i = hole i), level by level.
# A level is the set of positions after k jumps, each kept once per symmetry class
# (its smallest image) with the number of jump sequences that reach its class.
# Counts are 128-bit (two uint64 words) and checked for overflow.
#
# One level is 2**part_bits hash tables (partitions, one per thread). Expanding it:
# every thread generates the children of its own table into its Stage, bucketed by
# partition and by region of the partition's table (the next bits of the hash); then
# every thread merges its partition's buckets region by region, so the inserts stay
# in a piece of the table small enough for the cache. A child carries its parent's
# count, so the merge reads nothing but its bucket and its region.
from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, free

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

import numpy as np

from libc.string cimport memset

cdef extern from *:
    """
    #define pegcore_prefetch_w(p) __builtin_prefetch((p), 1)
    static inline uint64_t pegcore_mulhi(uint64_t a, uint64_t b) {
        return (uint64_t)(((unsigned __int128)a * b) >> 64);
    }
    """
    uint64_t mulhi "pegcore_mulhi"(uint64_t a, uint64_t b) nogil
    void prefetch "__builtin_prefetch"(const void*) nogil
    void prefetch_w "pegcore_prefetch_w"(const void*) nogil
    int ctz "__builtin_ctzll"(unsigned long long) nogil

cdef extern from "<sys/mman.h>" nogil:
    void* mmap(void* addr, size_t length, int prot, int flags, int fd, long offset)
    int munmap(void* addr, size_t length)
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE, PROT_READ, PROT_WRITE, MAP_PRIVATE, MAP_ANONYMOUS
    void* MAP_FAILED

ctypedef uint64_t bits_t

MAX_HOLES = 64
MAX_BUCKETS = 4096        # partitions x regions staged by one thread
BLOCK_BYTES = 1024        # a stage's unit of allocation
MIN_SLOTS = 1024


cdef enum:
    MAX_PARTS = 64
    BUCKETS = 4096
    BLOCK_WORDS = 128
    HUGE_PAGE = 2 << 20
    MAPPED = 4 << 20      # allocations from this size up are mappings of their own


cdef inline size_t mapped_size(size_t nbytes) noexcept nogil:
    return (nbytes + HUGE_PAGE - 1) // HUGE_PAGE * HUGE_PAGE


cdef void* zeroed(size_t nbytes) noexcept nogil:
    # Zeroed memory. Large blocks are fresh mappings (already zero) on huge pages:
    # random probes into hundreds of megabytes otherwise spend much of their time on
    # TLB misses. One write per huge page maps it at once (a read first would map the
    # shared zero page, and the first write would then copy it).
    cdef void* p
    cdef size_t i, n
    if nbytes < MAPPED:
        n = max(nbytes, 64)
        if posix_memalign(&p, 64, n) != 0:  # whole cache lines
            return NULL
        memset(p, 0, n)
        return p
    n = mapped_size(nbytes)
    p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if p == MAP_FAILED:
        return NULL
    madvise(p, n, MADV_HUGEPAGE)  # advice only: ignored where unsupported
    i = 0
    while i < n:
        (<char*>p)[i] = 0
        i += HUGE_PAGE
    return p


cdef void release(void* p, size_t nbytes) noexcept nogil:
    if p == NULL:
        return
    if nbytes < MAPPED:
        free(p)
    else:
        munmap(p, mapped_size(nbytes))


cdef inline uint64_t hash_bits(bits_t b) noexcept nogil:
    # Fibonacci hashing: the top bits choose the partition, then the region, then the slot
    return b * <uint64_t>0x9E3779B97F4A7C15ULL


cdef class Moves:
    """A board's jumps and symmetries as the enumeration reads them.

    jumps: (n_jumps, 3) int32 (from, over, to); perms: (n_sym, n_holes) int32 symmetry
    permutations besides the identity (positions are keyed by their smallest image).
    Jumps are grouped by their two steps (over - from, to - over): the legal jumps of a
    group are found at once with two shifts of the position.
    """
    cdef bits_t* m3
    cdef int njumps
    cdef int nsym
    cdef int nbytes
    cdef int nholes
    cdef bits_t* lut
    cdef bits_t* jump_img   # njumps x nsym: each jump's from|over|to mapped by each symmetry
    cdef bits_t full
    cdef int ngroups
    cdef bits_t* g_from     # per group: holes a jump of the group starts from
    cdef int* g_shift       # per group: right and left shifts bringing over, then to, onto from
    cdef int* g_jump        # ngroups x 64: the group's jump from each hole

    def __cinit__(self, const int32_t[:, ::1] jumps, const int32_t[:, ::1] perms, int nholes):
        cdef int i, s, b, v, k, h, g
        cdef bits_t img
        if not 1 <= nholes <= MAX_HOLES:
            raise ValueError(f"the enumeration takes 1..{MAX_HOLES} holes, not {nholes}")
        if perms.shape[0] > 64:
            raise ValueError("the enumeration takes at most 65 symmetries")
        self.nholes = nholes
        self.njumps = jumps.shape[0]
        self.nsym = perms.shape[0]
        self.nbytes = (nholes + 7) // 8
        self.full = (<bits_t>-1) if nholes == 64 else ((<bits_t>1 << nholes) - 1)
        steps = sorted({(jumps[i, 1] - jumps[i, 0], jumps[i, 2] - jumps[i, 1]) for i in range(self.njumps)})
        self.ngroups = len(steps)
        self.m3 = <bits_t*>malloc((self.njumps + 1) * sizeof(bits_t))
        self.lut = <bits_t*>calloc(self.nsym * self.nbytes * 256 + 1, sizeof(bits_t))
        self.jump_img = <bits_t*>malloc((self.nsym * self.njumps + 1) * sizeof(bits_t))
        self.g_from = <bits_t*>calloc(self.ngroups + 1, sizeof(bits_t))
        self.g_shift = <int*>calloc(4 * self.ngroups + 1, sizeof(int))
        self.g_jump = <int*>calloc(64 * self.ngroups + 1, sizeof(int))
        if (self.m3 == NULL or self.lut == NULL or self.jump_img == NULL or self.g_from == NULL
                or self.g_shift == NULL or self.g_jump == NULL):
            raise MemoryError("jump and symmetry tables")
        for g, (d1, d2) in enumerate(steps):
            # bit a of (x >> r) << l is bit a + d of x
            self.g_shift[4 * g] = max(d1, 0)
            self.g_shift[4 * g + 1] = max(-d1, 0)
            self.g_shift[4 * g + 2] = max(d1 + d2, 0)
            self.g_shift[4 * g + 3] = max(-d1 - d2, 0)
        group = {st: g for g, st in enumerate(steps)}
        for i in range(self.njumps):
            self.m3[i] = (<bits_t>1 << jumps[i, 0]) | (<bits_t>1 << jumps[i, 1]) | (<bits_t>1 << jumps[i, 2])
            g = group[(jumps[i, 1] - jumps[i, 0], jumps[i, 2] - jumps[i, 1])]
            if self.g_from[g] >> jumps[i, 0] & 1:
                raise ValueError(f"two jumps from hole {jumps[i, 0]} with the same steps")
            self.g_from[g] |= <bits_t>1 << jumps[i, 0]
            self.g_jump[64 * g + jumps[i, 0]] = i
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
        free(self.m3)
        free(self.lut)
        free(self.g_from)
        free(self.g_shift)
        free(self.g_jump)

    @property
    def groups(self):
        """Number of jump groups (jumps with the same steps, tested together)."""
        return self.ngroups

    def canonical(self, bits_t pegs):
        """The smallest image of ``pegs`` under the symmetries (an int)."""
        return canonical(self, pegs)

    def legal(self, bits_t pegs):
        """The jumps legal in ``pegs``, as a sorted list of jump indices (a check of the
        bit-parallel test against the jump list)."""
        return sorted(legal_jumps(self, pegs))


cdef list legal_jumps(Moves mv, bits_t pegs):
    cdef list out = []
    cdef int g
    cdef bits_t m
    for g in range(mv.ngroups):
        m = legal_from(mv, g, pegs)
        while m:
            out.append(mv.g_jump[64 * g + ctz(m)])
            m &= m - 1
    return out


cdef inline bits_t legal_from(Moves mv, int g, bits_t pegs) noexcept nogil:
    # Holes from which a jump of group g is legal: a peg there and on the hole jumped
    # over, and the landing hole empty.
    cdef const int* s = &mv.g_shift[4 * g]
    return mv.g_from[g] & pegs & ((pegs >> s[0]) << s[1]) & ~((pegs >> s[2]) << s[3])


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
    """One partition of a level: an open-addressed hash table of positions.

    Keys are canonical positions (0 marks an empty slot: a position always has a peg);
    counts (when counted) are the jump sequences from the start that reach the key's
    symmetry class. ``budget`` bounds the bytes this table may hold: past it the table
    does not grow and the caller stops. The table keeps its memory when cleared, so a
    run reuses two sets of tables (the level expanded and the level built).
    """
    cdef Slot* slots            # counted levels
    cdef bits_t* keys           # uncounted levels
    cdef uint64_t size          # slots in use
    cdef size_t mem_bytes       # bytes allocated
    cdef public uint64_t n      # positions held
    cdef public bint counted
    cdef public uint64_t budget
    cdef public bint overflow   # a count passed 2**128
    cdef public bint wide       # some count passed 2**64
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
        release(self.keys, self.mem_bytes)

    cdef inline uint64_t slot_bytes(self) noexcept nogil:
        return sizeof(Slot) if self.counted else sizeof(bits_t)

    cdef inline bits_t key_at(self, uint64_t i) noexcept nogil:
        return self.slots[i].key if self.counted else self.keys[i]

    @property
    def nbytes(self):
        """Bytes allocated for the keys and counts."""
        return self.mem_bytes

    @property
    def slots_used(self):
        """Slots of the table in use (positions are spread over these)."""
        return self.size

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

    def clear(self, uint64_t expect=0, int region_bits=0):
        """Empty the table for ``expect`` positions at half load, in 2**region_bits
        regions. It keeps its memory when that is large enough and at most twice the need.
        A table too small would grow while a region's children go in, and a region merged
        into a table much smaller than its share piles up in one long probe run.

        :returns: False when the table would pass its budget or memory is refused.
        """
        cdef uint64_t size = max(<uint64_t>MIN_SLOTS, 2 * expect)
        cdef size_t nbytes = size * self.slot_bytes()
        cdef void* p
        if not 0 <= region_bits or (1 << (self.part_bits + region_bits)) > BUCKETS:
            raise ValueError(f"at most {BUCKETS} partitions x regions")
        self.n = 0
        self.overflow = False
        self.wide = False
        self.region_bits = region_bits
        memset(self.region_n, 0, BUCKETS * sizeof(uint64_t))
        if nbytes <= self.mem_bytes <= 2 * nbytes:
            self.size = size
            with nogil:
                memset(<void*>self.slots if self.counted else <void*>self.keys, 0, nbytes)
            return True
        if nbytes > self.budget:
            return False
        release(self.slots, self.mem_bytes)
        release(self.keys, self.mem_bytes)
        self.slots = NULL
        self.keys = NULL
        self.mem_bytes = 0
        self.size = 0
        p = zeroed(nbytes)
        if p == NULL:
            return False
        if self.counted:
            self.slots = <Slot*>p
        else:
            self.keys = <bits_t*>p
        self.mem_bytes = nbytes
        self.size = size
        return True


cdef inline uint64_t home(Level t, uint64_t h) noexcept nogil:
    # The slot a hash starts probing at: monotone in the bits after the partition's,
    # so each region's positions start in their own stretch of the table.
    return mulhi(h << t.part_bits, t.size)


cdef int level_grow(Level t) noexcept nogil:
    # Double the table; -1 past the budget or when memory is refused.
    cdef uint64_t old_size = t.size, size = 2 * t.size, i, j
    cdef Slot* old_slots = t.slots
    cdef bits_t* old_keys = t.keys
    cdef size_t old_bytes = t.mem_bytes, nbytes = size * t.slot_bytes()
    cdef void* p
    if old_bytes + nbytes > t.budget:  # old and new live together while copying
        return -1
    p = zeroed(nbytes)
    if p == NULL:
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
    release(old_keys, old_bytes)
    t.mem_bytes = nbytes
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
    if sl.hi + hi < hi:
        t.overflow = True
    sl.hi += hi
    if sl.hi:
        t.wide = True
    return 0


cdef class Work:
    """Counters of one expansion: tests (jumps checked: every jump of the board for each
    position, checked a group of parallel jumps at a time), nodes (positions expanded),
    children (jumps played, before merging), dead_ends (positions with no jump), games
    (jump sequences ending in a dead end: complete games, a Python int)."""
    cdef public uint64_t tests
    cdef public uint64_t nodes
    cdef public uint64_t dead_ends
    cdef public uint64_t children
    cdef uint64_t games_lo
    cdef uint64_t games_hi
    cdef public bint overflow   # the games count passed 2**128

    @property
    def games(self):
        return as_int(self.games_lo, self.games_hi)


cdef class Stage:
    """Children staged by one thread, in buckets: a bucket is a partition of the next level
    and a region of that partition's table (the top bits of the child's hash). A child
    is 1 word (its key, uncounted levels), 2 (key, count) or 3 (key, 128-bit count).
    Buckets are chains of BLOCK_BYTES blocks taken from one arena of ``nbytes``,
    allocated once; generation stops when the arena is nearly full, and the caller
    merges and resets the stage.
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
    cdef int per_block

    def __cinit__(self, size_t nbytes):
        self.nblocks = <int32_t>min(nbytes // (BLOCK_WORDS * 8), 0x7FFFFFFF)
        if self.nblocks < 64:
            raise ValueError(f"a stage of {nbytes:,} bytes is under 64 blocks of {BLOCK_WORDS * 8} bytes")
        self.mem_bytes = <size_t>self.nblocks * BLOCK_WORDS * 8
        self.arena = <uint64_t*>zeroed(self.mem_bytes)
        self.next_block = <int32_t*>malloc(self.nblocks * sizeof(int32_t))
        if self.arena == NULL or self.next_block == NULL:
            raise MemoryError(f"a stage of {nbytes:,} bytes")
        self.reset(0, 2)

    def __dealloc__(self):
        release(self.arena, self.mem_bytes)
        free(self.next_block)

    @property
    def nbytes(self):
        return self.mem_bytes + self.nblocks * sizeof(int32_t)

    @property
    def blocks(self):
        """Blocks in the arena."""
        return self.nblocks

    @property
    def n(self):
        """Children staged."""
        cdef int b
        cdef uint64_t total = 0
        cdef int32_t x
        for b in range(1 << self.bucket_bits):
            x = self.head[b]
            while x >= 0:
                total += self.block_entries(b, x)
                x = self.next_block[x]
        return total

    cdef inline int block_entries(self, int b, int32_t x) noexcept nogil:
        # children in block x of bucket b: full, unless it is the bucket's last
        if x != self.tail[b]:
            return self.per_block
        return <int>(self.wpos[b] - (self.arena + <size_t>x * BLOCK_WORDS)) // self.entry_words

    def reset(self, int bucket_bits, int entry_words):
        """Empty the stage, for 2**bucket_bits buckets of entries of ``entry_words`` words."""
        cdef int b
        if not 0 <= bucket_bits or (1 << bucket_bits) > BUCKETS or (1 << bucket_bits) * 4 > self.nblocks:
            raise ValueError(f"{1 << bucket_bits} buckets for a stage of {self.nblocks} blocks")
        if entry_words not in (1, 2, 3):
            raise ValueError("entries are 1, 2 or 3 words")
        self.bucket_bits = bucket_bits
        self.entry_words = entry_words
        self.per_block = BLOCK_WORDS // entry_words
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


cdef inline bits_t smallest_image(bits_t key, const bits_t* pimg, const bits_t* ji, int nsym) noexcept nogil:
    # min(key, pimg[k] ^ ji[k] for k < nsym); the usual 7 images as a tree, for speed
    cdef bits_t a, b, c, d
    cdef int k
    if nsym == 7:
        a = min(pimg[0] ^ ji[0], pimg[1] ^ ji[1])
        b = min(pimg[2] ^ ji[2], pimg[3] ^ ji[3])
        c = min(pimg[4] ^ ji[4], pimg[5] ^ ji[5])
        d = min(pimg[6] ^ ji[6], key)
        return min(min(a, b), min(c, d))
    for k in range(nsym):
        key = min(key, pimg[k] ^ ji[k])
    return key


def generate(Moves mv, Level parents, uint64_t lo, uint64_t hi, Stage st, Work work):
    """Stage the children of the positions in slots [lo, hi) of ``parents``, each keyed
    canonically, in ``st`` (bucketed by the top ``st.bucket_bits`` bits of its hash, with
    its parent's count when ``st.entry_words`` > 1). Appends to what the stage holds.
    Runs without the GIL; the caller keeps each call short, so that limits and Ctrl-C
    are seen between calls.

    :returns: the slot reached: ``hi``, or less when the stage filled up (merge, reset
        and call again from there).
    :raises ValueError: a count does not fit the stage's entries, or the stage is too
        small to take one position's children.
    """
    if parents.counted and st.entry_words == 1 or not parents.counted and st.entry_words != 1:
        raise ValueError("the stage's entries do not match the level")
    if parents.wide and st.entry_words < 3:
        raise ValueError("counts past 2**64 need entries of 3 words")
    if st.nblocks < mv.njumps + 1 + (1 << st.bucket_bits):
        raise ValueError(f"a stage of {st.nblocks} blocks is too small for {mv.njumps} jumps")
    cdef uint64_t i, clo = 1, chi = 0, s, carry, end = min(hi, parents.size)
    cdef uint64_t nbuckets = <uint64_t>1 << st.bucket_bits
    cdef uint64_t tests = 0, nodes = 0, children = 0, dead = 0, games_lo = work.games_lo, games_hi = work.games_hi
    cdef int j, k, b, g, moved, ew = st.entry_words, over = 0
    cdef int reserve = mv.njumps + 1     # blocks a position may take at most
    cdef bits_t pegs, key, img, m
    cdef uint64_t* e
    # the board's tables as locals: stores into the stage may alias anything else
    cdef int nsym = mv.nsym, nbytes = mv.nbytes, ngroups = mv.ngroups, njumps = mv.njumps
    cdef const bits_t* m3 = mv.m3
    cdef const bits_t* jump_img = mv.jump_img
    cdef const bits_t* lut = mv.lut
    cdef const bits_t* g_from = mv.g_from
    cdef const int* g_shift = mv.g_shift
    cdef const int* g_jump = mv.g_jump
    cdef uint64_t** wpos = st.wpos
    cdef uint64_t** wend = st.wend
    cdef bint counted = parents.counted
    cdef const Slot* slots = parents.slots
    cdef const bits_t* keys = parents.keys
    # A symmetry is a permutation of holes, so it maps pegs ^ jump to
    # image(pegs) ^ image(jump): each child's images cost one xor per symmetry.
    cdef bits_t pimg[64]
    with nogil:
        i = lo
        while i < end:
            if counted:
                pegs = slots[i].key
                clo = slots[i].lo
                chi = slots[i].hi
            else:
                pegs = keys[i]
            if pegs == 0:
                i += 1
                continue
            if st.nblocks - st.used < reserve:
                break
            for k in range(nsym):
                img = 0
                for b in range(nbytes):
                    img |= lut[(k * nbytes + b) * 256 + <int>((pegs >> (8 * b)) & 255)]
                pimg[k] = img
            moved = 0
            for g in range(ngroups):
                m = (g_from[g] & pegs & ((pegs >> g_shift[4 * g]) << g_shift[4 * g + 1])
                     & ~((pegs >> g_shift[4 * g + 2]) << g_shift[4 * g + 3]))
                while m:
                    j = g_jump[64 * g + ctz(m)]
                    m &= m - 1
                    key = smallest_image(pegs ^ m3[j], pimg, &jump_img[j * nsym], nsym)
                    b = <int>mulhi(hash_bits(key), nbuckets)
                    e = wpos[b]
                    if e == wend[b]:
                        e = new_block(st, b)
                    e[0] = key
                    if ew > 1:
                        e[1] = clo
                        if ew > 2:
                            e[2] = chi
                    wpos[b] = e + ew
                    prefetch_w(e + 8)   # the bucket's next line, long before it is written
                    moved += 1
            children += moved
            nodes += 1
            if not moved:
                dead += 1
                s = games_lo + clo
                carry = chi + (s < clo)
                if games_hi + carry < carry:
                    over = 1
                games_hi += carry
                games_lo = s
            i += 1
    work.tests += nodes * njumps
    work.nodes += nodes
    work.children += children
    work.dead_ends += dead
    work.games_lo = games_lo
    work.games_hi = games_hi
    work.overflow = work.overflow or over
    return i


cdef struct StageView:
    # What the merge reads of a Stage, reachable without the GIL.
    uint64_t* arena
    int32_t* next_block
    int32_t* head
    int32_t* tail
    uint64_t** wpos
    int per_block
    int entry_words


def insert(Level out, stages, int part):
    """Merge into ``out`` (partition ``part`` of the level being built) the children that
    ``stages`` hold for it, region by region. The stages are left as they are (reset
    them once every partition is merged).

    :returns: False when ``out`` cannot grow within its budget.
    """
    cdef int nst = len(stages), si, r, ew, c, nin, b
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
    cdef bint counted = out.counted, wide = out.wide, over = out.overflow
    cdef int32_t x
    cdef uint64_t lo = 1, hi = 0, rn, size, i, added = 0, sum_
    cdef uint64_t hs[BLOCK_WORDS]
    cdef uint64_t* e
    cdef bits_t key
    cdef Slot* slots
    cdef bits_t* keys
    cdef Slot* sl
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
                    if v.next_block[x] >= 0:  # blocks are scattered: fetch the next one now
                        for c in range(0, BLOCK_WORDS, 8):
                            prefetch(v.arena + <size_t>v.next_block[x] * BLOCK_WORDS + c)
                    # children in the block: full, unless it is the bucket's last
                    nin = v.per_block if x != v.tail[b] else <int>(v.wpos[b] - e) // ew
                    # hash the block's children and fetch their slots before merging them
                    for c in range(nin):
                        hs[c] = hash_bits(e[c * ew])
                        if counted:
                            prefetch(&slots[mulhi(hs[c] << pb, size)])
                        else:
                            prefetch(&keys[mulhi(hs[c] << pb, size)])
                    for c in range(nin):
                        key = e[c * ew]
                        i = mulhi(hs[c] << pb, size)
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
                            if ew > 1:
                                lo = e[c * ew + 1]
                                hi = e[c * ew + 2] if ew > 2 else 0
                            sum_ = sl.lo + lo
                            hi += sum_ < lo                     # carry
                            sl.lo = sum_
                            if sl.hi + hi < hi:
                                over = True
                            sl.hi += hi
                            wide = wide or sl.hi != 0
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
                    x = v.next_block[x]
            added += rn - out.region_n[r]
            out.region_n[r] = rn
            if not ok:
                break
    out.n += added
    out.wide = wide
    out.overflow = over
    return bool(ok)


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
        # (one table: regions play no part here)
        t = tables[(h >> (64 - part_bits)) if part_bits else 0]
        if 2 * (t.n + 1) > t.size and level_grow(t) != 0:
            raise MemoryError(f"a level of {keys.shape[0]:,} positions is over the budget of {budget:,} bytes")
        level_add(t, keys[i], h, 1, 0)
    return tables


def complement_members(Moves mv, const uint64_t[::1] keys, const uint64_t[::1] others):
    """Boolean mask (n,) over ``keys``: True where the key's class is the complement of
    a class in ``others`` (both canonical). Used to meet forward and backward levels."""
    cdef uint64_t n = others.shape[0], i, j, mask
    cdef int log2 = 10
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
