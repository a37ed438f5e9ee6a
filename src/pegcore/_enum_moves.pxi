# A board's jumps and symmetries as the enumeration reads them: the legal jumps of a
# position as one bit set (pext where the build has BMI2), and canonical keys.

cdef extern from *:
    """
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

    static int pegcore_cpu_has_popcnt(void) {
        #if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt") != 0;
        #else
        return 0;
        #endif
    }

    static int pegcore_cpu_has_bmi2(void) {
        #if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
        __builtin_cpu_init();
        return __builtin_cpu_supports("bmi2") != 0;
        #else
        return 0;
        #endif
    }
    """
    void legal_set "pegcore_legal_set"(uint64_t, int, const uint64_t*, const int*, const int*, uint64_t*) nogil
    void legal_soft "pegcore_legal_soft"(uint64_t, int, const uint64_t*, const int*, const int*, uint64_t*) nogil
    int FAST_JUMPS_C "PEGCORE_FAST_JUMPS"
    int cpu_has_bmi2_c "pegcore_cpu_has_bmi2"() nogil
    int cpu_has_popcnt_c "pegcore_cpu_has_popcnt"() nogil


FAST_JUMPS = bool(FAST_JUMPS_C)   # this build finds legal jumps with the pext instruction


def cpu_has_bmi2():
    """Whether this processor has BMI2 and popcnt (and so can load the _enum64_bmi2 build)."""
    return bool(cpu_has_bmi2_c()) and bool(cpu_has_popcnt_c())


def cpu_has_popcnt():
    """Whether this processor has popcnt (and so can load the _enum64_v2 build)."""
    return bool(cpu_has_popcnt_c())


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


def probe_seconds(Moves mv, uint64_t n, uint64_t seed=1):
    """Seconds this build takes to find the legal jumps and the canonical key of n
    pseudo-random positions of ``mv``'s board: the inner work of an expansion, timed to
    choose between builds by what they do on this processor (pext, for one, is fast on
    some processors and microcoded on others)."""
    cdef uint64_t i, x = seed | 1, sink = 0
    cdef uint64_t words[MAX_WORDS]
    cdef bits_t pegs
    cdef double t0
    with nogil:
        t0 = now_seconds()
        for i in range(n):
            x ^= x << 13   # xorshift64
            x ^= x >> 7
            x ^= x << 17
            pegs = x & mv.full
            legal_set(pegs, mv.ngroups, mv.g_from, mv.g_shift, mv.g_base, words)
            sink += words[0] ^ canonical(mv, pegs)
        t0 = now_seconds() - t0
    if sink == 1:   # never: keeps the work from being optimised away
        t0 += 1e-12
    return t0


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


def complement_keys(Moves mv, const uint64_t[::1] keys):
    """The canonical key of each key's complement (pegs and holes exchanged), shape (n,),
    uint64. Symmetries commute with the exchange, so distinct classes give distinct keys."""
    out = np.empty(keys.shape[0], dtype=np.uint64)
    cdef uint64_t[::1] o = out
    cdef Py_ssize_t i
    with nogil:
        for i in range(keys.shape[0]):
            o[i] = canonical(mv, mv.full & ~keys[i])
    return out


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
