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
# count, so the merge reads nothing but its bucket and its region. The top bits of a
# position's hash (hash_bits) choose its partition, then its region, then its slot.
from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from pegcore._common cimport prefetch, ctz64
from pegcore._bits64 cimport bits_t, hash_bits

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

import numpy as np

from libc.string cimport memcpy, memset

cdef extern from *:
    """
    static inline uint64_t pegcore_mulhi(uint64_t a, uint64_t b) {
        return (uint64_t)(((unsigned __int128)a * b) >> 64);
    }

    /* The legal jumps of a position as a bit set over the jumps in group order
       (group g's jumps are bits base[g] ... in the order of their from-holes).
       A group's legal from-holes are found with two shifts, then compressed into
       consecutive bits (pext) and laid into the set: a position's jumps are then
       visited in one loop over a few words instead of one loop a group, whose
       exits the branch predictor cannot guess. Groups come in order of base, so
       the words fill in turn and stay in registers. */
    #define PEGCORE_LEGAL_SET(NAME, ATTR, PEXT)                                      \
    ATTR void NAME(uint64_t pegs, int ngroups, const uint64_t* from,                 \
                   const int* shift, const int* base, uint64_t* out) {               \
        uint64_t cur = 0, next = 0, m;                                                \
        int word = 0, g, off;                                                         \
        for (g = 0; g < ngroups; g++) {                                               \
            const int* s = shift + 4 * g;                                             \
            m = from[g] & pegs & ((pegs >> s[0]) << s[1]) & ~((pegs >> s[2]) << s[3]); \
            m = PEXT(m, from[g]);                                                     \
            off = base[g];                                                            \
            while ((off >> 6) > word) {                                               \
                out[word++] = cur;                                                    \
                cur = next;                                                           \
                next = 0;                                                             \
            }                                                                         \
            cur |= m << (off & 63);                                                   \
            next |= (m >> 1) >> (63 - (off & 63));                                    \
        }                                                                             \
        out[word] = cur;                                                              \
        out[word + 1] = next;                                                         \
    }

    /* pext for m within mask, without the instruction: rank each bit of m in mask */
    static inline uint64_t pegcore_soft_pext(uint64_t m, uint64_t mask) {
        uint64_t r = 0, low;
        while (m) {
            low = m & (0 - m);
            r |= (uint64_t)1 << __builtin_popcountll(mask & (low - 1));
            m ^= low;
        }
        return r;
    }
    PEGCORE_LEGAL_SET(pegcore_legal_soft, static inline, pegcore_soft_pext)

    /* The module is built twice: as _enum64 for any processor and, on x86-64, as
       _enum64_bmi2 with BMI2 (pext), which pegsolver loads where the processor has it. */
    #if defined(__BMI2__)
    #include <immintrin.h>
    PEGCORE_LEGAL_SET(pegcore_legal_set, static inline, _pext_u64)
    #define PEGCORE_FAST_JUMPS 1
    #else
    PEGCORE_LEGAL_SET(pegcore_legal_set, static inline, pegcore_soft_pext)
    #define PEGCORE_FAST_JUMPS 0
    #endif

    static int pegcore_cpu_has_bmi2(void) {
        #if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
        __builtin_cpu_init();
        return __builtin_cpu_supports("bmi2") != 0;
        #else
        return 0;
        #endif
    }
    """
    uint64_t mulhi "pegcore_mulhi"(uint64_t a, uint64_t b) nogil
    void legal_set "pegcore_legal_set"(uint64_t, int, const uint64_t*, const int*, const int*, uint64_t*) nogil
    void legal_soft "pegcore_legal_soft"(uint64_t, int, const uint64_t*, const int*, const int*, uint64_t*) nogil
    int FAST_JUMPS_C "PEGCORE_FAST_JUMPS"
    int cpu_has_bmi2_c "pegcore_cpu_has_bmi2"() nogil


FAST_JUMPS = bool(FAST_JUMPS_C)   # this build finds legal jumps with the pext instruction


def cpu_has_bmi2():
    """Whether this processor has BMI2 (and so can load the _enum64_bmi2 build)."""
    return bool(cpu_has_bmi2_c())


cdef extern from "<sys/mman.h>" nogil:
    void* mmap(void* addr, size_t length, int prot, int flags, int fd, long offset)
    int munmap(void* addr, size_t length)
    int madvise(void* addr, size_t length, int advice)
    void* mremap(void* old, size_t old_size, size_t new_size, int flags, ...)
    int MADV_HUGEPAGE, PROT_READ, PROT_WRITE, MAP_PRIVATE, MAP_ANONYMOUS, MREMAP_MAYMOVE
    void* MAP_FAILED

cdef enum:
    MAX_PARTS = 64          # partitions of a level: the stages one merge reads
    MAX_WORDS = 16          # words of a legal-jump set, one spare
    BUCKETS = 4096          # partitions x regions a stage takes
    BLOCK_WORDS = 512
    STAGE_MIN_BLOCKS = 64   # blocks a stage has at least
    BUCKET_MIN_BLOCKS = 4   # and per bucket it takes
    TABLE_MIN_SLOTS = 1024  # slots a table has at least
    BATCH = 64              # children whose slots are fetched together
    HUGE_PAGE = 2 << 20
    MAPPED = 4 << 20        # allocations from this size up are mappings of their own

# Sizes for Python's memory planning (pegsolver.engine.core.enum_sizes); the byte sizes
# of the structures are defined further down, next to them.
MAX_HOLES = 64
MAX_THREADS = MAX_PARTS
MAX_BUCKETS = BUCKETS
BLOCK_BYTES = BLOCK_WORDS * 8       # a stage's unit of allocation
MIN_STAGE_BYTES = STAGE_MIN_BLOCKS * BLOCK_WORDS * 8
MIN_BLOCKS_PER_BUCKET = BUCKET_MIN_BLOCKS
MIN_SLOTS = TABLE_MIN_SLOTS
KEY_BYTES = sizeof(bits_t)          # a position of an uncounted level, or kept for the caller
# A table is merged a region at a time: regions of about an L2 cache (1 and 4 MiB: slower).
REGION_BYTES = 2048 << 10


cdef inline size_t mapped_size(size_t nbytes) noexcept nogil:
    return (nbytes + HUGE_PAGE - 1) // HUGE_PAGE * HUGE_PAGE


cdef void* zeroed(size_t nbytes) noexcept nogil:
    # Zeroed memory. Large blocks are fresh mappings (already zero) on huge pages:
    # random probes into hundreds of megabytes otherwise spend much of their time on
    # TLB misses. Pages are mapped when first touched, so an arena pays only for what
    # it uses.
    cdef void* p
    cdef size_t n
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
    return p


cdef void* regrow(void* p, size_t old_bytes, size_t nbytes) noexcept nogil:
    # A larger block with the old one's contents (the rest zero); NULL when refused,
    # leaving p as it was. A mapping is extended in place or moved, so only the added
    # pages are new to the process: fresh pages cost the kernel a clearing pass each.
    cdef void* q
    cdef size_t n = mapped_size(nbytes)
    if p != NULL and old_bytes >= MAPPED and nbytes >= MAPPED:
        q = mremap(p, mapped_size(old_bytes), n, MREMAP_MAYMOVE)
        if q == MAP_FAILED:
            return NULL
        madvise(q, n, MADV_HUGEPAGE)
        return q
    q = zeroed(nbytes)
    if q != NULL and p != NULL:
        memcpy(q, p, min(old_bytes, nbytes))
        release(p, old_bytes)
    return q


cdef void release(void* p, size_t nbytes) noexcept nogil:
    if p == NULL:
        return
    if nbytes < MAPPED:
        free(p)
    else:
        munmap(p, mapped_size(nbytes))


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
    cdef int nchunks        # a position is looked up in chunks of cbits holes
    cdef int cbits
    cdef int nholes
    cdef int lrow           # nsym rounded up to 8: a row of the table
    cdef bits_t* lut        # nchunks x 2**cbits x lrow: a chunk's images, a row per value
    cdef size_t lut_bytes
    cdef bits_t* jump_img   # njumps x nsym: each jump's from|over|to mapped by each symmetry
    cdef bits_t full
    cdef int ngroups
    cdef bits_t* g_from     # per group: holes a jump of the group starts from
    cdef int* g_shift       # per group: right and left shifts bringing over, then to, onto from
    cdef int* g_base        # per group: where its jumps start in group order
    cdef int* ord_jump      # jumps in group order (by group, then from-hole)
    cdef int nwords         # words of a legal-jump set

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
        # chunks of at most 8 holes; a chunk's images under every symmetry lie in one
        # row (a cache line for 8 symmetries), ORed into the images a row at a time
        self.nchunks = (nholes + 7) // 8
        self.cbits = (nholes + self.nchunks - 1) // self.nchunks
        self.lrow = (self.nsym + 7) // 8 * 8
        self.full = (<bits_t>-1) if nholes == 64 else ((<bits_t>1 << nholes) - 1)
        steps = sorted({(jumps[i, 1] - jumps[i, 0], jumps[i, 2] - jumps[i, 1]) for i in range(self.njumps)})
        self.ngroups = len(steps)
        self.m3 = <bits_t*>malloc((self.njumps + 1) * sizeof(bits_t))
        self.lut_bytes = ((self.lrow * self.nchunks) << self.cbits) * sizeof(bits_t)
        self.lut = <bits_t*>zeroed(self.lut_bytes)
        self.jump_img = <bits_t*>malloc((self.nsym * self.njumps + 1) * sizeof(bits_t))
        self.g_from = <bits_t*>calloc(self.ngroups + 1, sizeof(bits_t))
        self.g_shift = <int*>calloc(4 * self.ngroups + 1, sizeof(int))
        self.g_base = <int*>calloc(self.ngroups + 1, sizeof(int))
        self.ord_jump = <int*>calloc(self.njumps + 1, sizeof(int))
        self.nwords = (self.njumps + 63) // 64
        if self.nwords + 1 > MAX_WORDS:
            raise ValueError(f"the enumeration takes at most {64 * (MAX_WORDS - 1)} jumps, not {self.njumps}")
        if (self.m3 == NULL or self.lut == NULL or self.jump_img == NULL or self.g_from == NULL
                or self.g_shift == NULL or self.g_base == NULL or self.ord_jump == NULL):
            raise MemoryError("jump and symmetry tables")
        for g, (d1, d2) in enumerate(steps):
            # bit a of (x >> r) << l is bit a + d of x
            self.g_shift[4 * g] = max(d1, 0)
            self.g_shift[4 * g + 1] = max(-d1, 0)
            self.g_shift[4 * g + 2] = max(d1 + d2, 0)
            self.g_shift[4 * g + 3] = max(-d1 - d2, 0)
        group = {st: g for g, st in enumerate(steps)}
        by_from = {}
        for i in range(self.njumps):
            self.m3[i] = (<bits_t>1 << jumps[i, 0]) | (<bits_t>1 << jumps[i, 1]) | (<bits_t>1 << jumps[i, 2])
            g = group[(jumps[i, 1] - jumps[i, 0], jumps[i, 2] - jumps[i, 1])]
            if self.g_from[g] >> jumps[i, 0] & 1:
                raise ValueError(f"two jumps from hole {jumps[i, 0]} with the same steps")
            self.g_from[g] |= <bits_t>1 << jumps[i, 0]
            by_from[g, jumps[i, 0]] = i
        k = 0
        for g in range(self.ngroups):
            self.g_base[g] = k
            for h in range(64):
                if self.g_from[g] >> h & 1:
                    self.ord_jump[k] = by_from[g, h]
                    k += 1
        for s in range(self.nsym):
            for b in range(self.nchunks):
                for v in range(1 << self.cbits):
                    img = 0
                    for k in range(self.cbits):
                        h = self.cbits * b + k
                        if (v >> k) & 1 and h < nholes:
                            img |= <bits_t>1 << perms[s, h]
                    self.lut[((b << self.cbits) + v) * self.lrow + s] = img
            for i in range(self.njumps):
                self.jump_img[i * self.nsym + s] = ((<bits_t>1 << perms[s, jumps[i, 0]])
                                                      | (<bits_t>1 << perms[s, jumps[i, 1]])
                                                      | (<bits_t>1 << perms[s, jumps[i, 2]]))

    def __dealloc__(self):
        free(self.jump_img)
        free(self.m3)
        release(self.lut, self.lut_bytes)
        free(self.g_from)
        free(self.g_shift)
        free(self.g_base)
        free(self.ord_jump)

    def canonical(self, bits_t pegs):
        """The smallest image of ``pegs`` under the symmetries (an int)."""
        return canonical(self, pegs)

    def legal(self, bits_t pegs, bint portable=False):
        """The jumps legal in ``pegs``, as a sorted list of jump indices, found as the
        enumeration finds them (``portable``: without the pext instruction)."""
        cdef uint64_t words[MAX_WORDS]
        cdef int w
        cdef uint64_t m
        out = []
        if portable:
            legal_soft(pegs, self.ngroups, self.g_from, self.g_shift, self.g_base, words)
        else:
            legal_set(pegs, self.ngroups, self.g_from, self.g_shift, self.g_base, words)
        for w in range(self.nwords):
            m = words[w]
            while m:
                out.append(self.ord_jump[64 * w + ctz64(m)])
                m &= m - 1
        return sorted(out)


cdef inline void images(Moves mv, bits_t pegs, bits_t* out) noexcept nogil:
    # out[s]: the image of pegs under symmetry s (out holds mv.lrow words)
    cdef int s, b, cb = mv.cbits, nc = mv.nchunks, lrow = mv.lrow
    cdef bits_t mask = (<bits_t>1 << cb) - 1
    cdef const bits_t* row
    if lrow == 8:  # the common case, a fixed row length the compiler turns into vector ORs
        for s in range(8):
            out[s] = 0
        for b in range(nc):
            row = mv.lut + (((b << cb) + <int>((pegs >> (cb * b)) & mask)) << 3)
            for s in range(8):
                out[s] |= row[s]
        return
    for s in range(lrow):
        out[s] = 0
    for b in range(nc):
        row = mv.lut + ((b << cb) + <int>((pegs >> (cb * b)) & mask)) * lrow
        for s in range(lrow):
            out[s] |= row[s]


cdef inline bits_t canonical(Moves mv, bits_t pegs) noexcept nogil:
    cdef bits_t best = pegs
    cdef bits_t img[64]
    cdef int s
    images(mv, pegs, img)
    for s in range(mv.nsym):
        best = min(best, img[s])
    return best


cdef struct Slot:
    # One position and the low word of its count: 16 bytes, four to a cache line.
    # The high words, needed only once a count passes 2**64, live apart (Level.his).
    bits_t key
    uint64_t lo

SLOT_BYTES = sizeof(Slot)                           # a position of a counted level
WIDE_SLOT_BYTES = sizeof(Slot) + sizeof(uint64_t)   # with its high count word
# A staged child's words: its key (uncounted levels), and its count's low, then high word.
KEY_ENTRY_WORDS = 1
COUNT_ENTRY_WORDS = 2
WIDE_ENTRY_WORDS = 3
WIDE_ENTRY_BYTES = WIDE_ENTRY_WORDS * sizeof(uint64_t)


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
        regions. It keeps its memory when that is large enough, else grows it.
        A table too small would grow while a region's children go in, and a region merged
        into a table much smaller than its share piles up in one long probe run.

        :returns: False when the table would pass its budget or memory is refused.
        """
        cdef uint64_t size = max(<uint64_t>TABLE_MIN_SLOTS, 2 * expect)
        cdef size_t nbytes = size * self.slot_bytes()
        cdef void* p
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
            memset(<void*>self.slots if self.counted else <void*>self.keys, 0, nbytes)
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


cdef class Work:
    """Counters of one expansion: tests (jumps checked: every jump of the board for each
    position, checked a group of parallel jumps at a time), nodes (positions expanded),
    children (jumps played, before merging), dead_ends (positions with no jump), games
    (jump sequences ending in a dead end: complete games, a Python int), sequences (jump
    sequences one jump longer than the parents': the next level's total count)."""
    cdef public uint64_t tests
    cdef public uint64_t nodes
    cdef public uint64_t dead_ends
    cdef public uint64_t children
    cdef uint64_t games_lo
    cdef uint64_t games_hi
    cdef public bint overflow   # the games count passed 2**128
    cdef uint64_t seq[3]        # sequences, 192-bit

    @property
    def games(self):
        return as_int(self.games_lo, self.games_hi)

    @property
    def sequences(self):
        return (int(self.seq[2]) << 128) | as_int(self.seq[0], self.seq[1])


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
    cdef int per_block

    def __cinit__(self, size_t nbytes):
        self.nblocks = <int32_t>min(nbytes // (BLOCK_WORDS * 8), 0x7FFFFFFF)
        if self.nblocks < STAGE_MIN_BLOCKS:
            raise ValueError(f"a stage of {nbytes:,} bytes is under {STAGE_MIN_BLOCKS} blocks of {BLOCK_WORDS * 8} bytes")
        self.mem_bytes = <size_t>self.nblocks * BLOCK_WORDS * 8
        self.arena = <uint64_t*>zeroed(self.mem_bytes)
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
        p = <uint64_t*>regrow(self.arena, self.mem_bytes, new_bytes)
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

    def reset(self, int bucket_bits, int entry_words):
        """Empty the stage, for 2**bucket_bits buckets of entries of ``entry_words`` words."""
        cdef int b
        if not 0 <= bucket_bits or (1 << bucket_bits) > BUCKETS or (1 << bucket_bits) * BUCKET_MIN_BLOCKS > self.nblocks:
            raise ValueError(f"{1 << bucket_bits} buckets for a stage of {self.nblocks} blocks")
        if entry_words not in (1, 2, 3):
            raise ValueError("entries are 1, 2 or 3 words")
        self.bucket_bits = bucket_bits
        self.entry_words = entry_words
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
    cdef uint64_t seq0 = work.seq[0], seq1 = work.seq[1], seq2 = work.seq[2], plo, phi, c
    cdef int j, k, b, g, moved, ew = st.entry_words, over = 0
    cdef int reserve = mv.njumps + 1     # blocks a position may take at most
    cdef bits_t pegs, key, img, m
    cdef uint64_t* e
    # the board's tables as locals: stores into the stage may alias anything else
    cdef int nsym = mv.nsym, ngroups = mv.ngroups, njumps = mv.njumps
    cdef const bits_t* m3 = mv.m3
    cdef const bits_t* jump_img = mv.jump_img
    cdef const bits_t* g_from = mv.g_from
    cdef const int* g_shift = mv.g_shift
    cdef const int* g_base = mv.g_base
    cdef const int* ord_jump = mv.ord_jump
    cdef uint64_t words[MAX_WORDS]
    cdef int w, nw = mv.nwords
    cdef uint64_t** wpos = st.wpos
    cdef uint64_t** wend = st.wend
    cdef bint counted = parents.counted
    cdef const Slot* slots = parents.slots
    cdef const uint64_t* his = parents.his
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
                chi = his[i] if his != NULL else 0
            else:
                pegs = keys[i]
            if pegs == 0:
                i += 1
                continue
            if st.nblocks - st.used < reserve:
                break
            images(mv, pegs, pimg)
            moved = 0
            legal_set(pegs, ngroups, g_from, g_shift, g_base, words)
            for w in range(nw):
                m = words[w]
                while m:
                    j = ord_jump[(w << 6) + ctz64(m)]
                    m &= m - 1
                    key = smallest_image(pegs ^ m3[j], pimg, &jump_img[j * nsym], nsym)
                    b = <int>mulhi(hash_bits(key), nbuckets)
                    e = wpos[b]
                    if e == wend[b]:
                        e = new_block(st, b)
                    # three words whatever the entry's size (no branches): the words past
                    # it are overwritten by the next entry or left in the block's slack
                    e[0] = key
                    e[1] = clo
                    e[2] = chi
                    wpos[b] = e + ew
                    moved += 1
            children += moved
            nodes += 1
            # sequences += count * moved, in 192 bits
            plo = clo * <uint64_t>moved
            c = chi * <uint64_t>moved
            phi = mulhi(clo, moved) + c
            seq2 += mulhi(chi, moved) + (phi < c)
            seq0 += plo
            c = seq0 < plo
            phi += c
            seq2 += phi < c
            seq1 += phi
            seq2 += seq1 < phi
            if not moved:  # a dead end: its sequences are complete games
                dead += 1
                s = games_lo + clo
                carry = s < clo
                games_lo = s
                s = games_hi + chi
                over = over or s < chi
                games_hi = s + carry
                over = over or games_hi < carry
            i += 1
    work.tests += nodes * njumps
    work.nodes += nodes
    work.children += children
    work.dead_ends += dead
    work.games_lo = games_lo
    work.games_hi = games_hi
    work.seq[0] = seq0
    work.seq[1] = seq1
    work.seq[2] = seq2
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
        t = tables[(h >> (64 - part_bits)) if part_bits else 0]
        t.add(keys[i])
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
