# Shared implementation of the search, included by each width module after it
# cimports bits_t, popcount_bits, lowest_hole and hash_bits (_bits64.pxd or
# _bits128.pxd) and sets MAX_HOLES. It includes the beams (_beam_impl.pxi, _move_beam_impl.pxi) itself, at
# its end, after everything the beam uses.
# Nothing in the hot loop touches a Python object.

from libc.stdint cimport uint64_t, uint8_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from pegcore._common cimport check_signals, clear_error, ctz64, now_seconds, prefetch

cdef extern from *:
    """
    #include <stdlib.h>
    #include <sys/mman.h>
    /* A zeroed table. Large ones are mapped directly (the kernel's zero pages: no memset)
       and offered transparent huge pages where the kernel has them: a table probed at
       random misses the TLB on every probe with 4 KiB pages. */
    #define PEG_MAPPED_BYTES ((size_t)2 << 20)
    static void* peg_table_alloc(size_t bytes) {
        void* p;
        if (bytes < PEG_MAPPED_BYTES) return calloc(bytes, 1);
        p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
    #ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);   /* advice only: refused or ignored is fine */
    #endif
        return p;
    }
    static void peg_table_free(void* p, size_t bytes) {
        if (p == NULL) return;
        if (bytes < PEG_MAPPED_BYTES) free(p); else munmap(p, bytes);
    }
    """
    void* peg_table_alloc(size_t nbytes) nogil
    void peg_table_free(void* p, size_t nbytes) nogil

# Strategy codes; Python reads them from STRATEGY_CODES below.
cdef enum:
    STRATEGY_SEED = 0
    STRATEGY_DFS = 1
    STRATEGY_GUIDED = 2
    STRATEGY_BEAM = 3
    STRATEGY_MOVES = 4   # the beam by moves (_move_beam_impl.pxi)

# Why a search stopped; Python reads them from STOP_CODES below.
cdef enum:
    STOP_NONE = 0
    STOP_NODES = 1
    STOP_SECONDS = 2
    STOP_INTERRUPT = 3
    STOP_MEMORY = 4      # the beam's levels outgrew the memory budget
    STOP_BEAM = 5        # the beam emptied after a level was cut: no proof
    STOP_CANCEL = 6      # another thread set the halt flag

# The codes for Python (pegsolver.engine.core), name -> code in code order, taken from
# the enums above so that no copy has to be kept in step.
STOP_CODES = {"none": STOP_NONE, "nodes": STOP_NODES, "seconds": STOP_SECONDS,
              "interrupt": STOP_INTERRUPT, "memory": STOP_MEMORY, "beam": STOP_BEAM,
              "cancel": STOP_CANCEL}
STRATEGY_CODES = {"seed": STRATEGY_SEED, "dfs": STRATEGY_DFS, "guided": STRATEGY_GUIDED,
                  "beam": STRATEGY_BEAM, "moves": STRATEGY_MOVES}
MAX_BEAM_WIDTH = 0xFFFFFFFF   # the beam's parent indices are 32-bit

# How often (in nodes, powers of two) the clock and the signals are polled.
cdef enum:
    CLOCK_EVERY = 1023
    SIGNAL_EVERY = 16383

cdef enum:
    MAX_JUMP_WORDS = 16   # words of a set of legal jumps: 1024 jumps, 8 a hole of 128
    MAX_SYM = 15          # symmetries (besides the identity) whose images dfs carries down
    MAX_KIDS = 64         # children whose table keys dfs computes and prefetches at once
    MAX_DEPTH = 129       # jumps from a start of at most 128 pegs, and one

cdef enum:
    TABLE_MIN_LOG2 = 12   # first table: 4096 entries
    TABLE_PROBES = 8      # slots looked at before an entry is replaced
    GROW_POLL = (1 << 18) - 1   # entries copied between looks at the limits (tens of ms)


cdef struct DeadTable:
    # Open addressing, linear probing, key 0 = empty slot (a position always
    # has at least one peg, so 0 is never a key).
    bits_t* keys
    int log2
    uint64_t count
    uint64_t max_entries  # from the memory budget
    uint64_t replaced
    int growing


cdef struct Ctx:
    int nholes
    int njumps
    bits_t* m2           # from|over of each jump
    bits_t* m3           # from|over|to of each jump
    # jumps grouped by their steps (over - from, to - from): a group's legal jumps are
    # found at once with two shifts of the position, so a node costs the groups and its
    # legal jumps, not a test of every jump of the board
    int ngroups
    int nwords           # words of a set of legal jumps (bit j: jump j)
    bits_t* g_from       # per group: the holes its jumps start from
    int* g_shift         # per group: right then left shifts bringing over, then to, onto from
    int32_t* g_jump      # ngroups x nholes: the group's jump from each hole
    int orth7            # 1: only the 4 groups of orthogonal jumps on a grid 7 bits wide (English,
    int g7[4]            # French), their groups right, down, left, up: shifts by constants
    int32_t* slots       # seed order: nholes x ndir jump indices, -1 = off board
    int ndir
    int nsym             # symmetries besides the identity
    int nbytes
    bits_t* lut          # nsym x nbytes x 256 images of each byte
    bits_t* jimg         # njumps x nsym: each jump's from|over|to under each symmetry
    int carry_images     # dfs keys by images carried down (child's = parent's ^ jump's)
    bits_t goal_mask     # 0: any position with goal_count pegs
    int goal_count
    int goal_depth       # jumps from the start to goal_count pegs: a node's pegs are known by its depth
    int use_table
    uint64_t tests
    uint64_t nodes
    uint64_t dead_ends
    uint64_t table_hits
    uint64_t node_limit  # 0: none
    uint64_t next_poll   # node count at which poll_due runs next (0: at the first node)
    double deadline      # monotonic seconds, 0: none
    const uint8_t* halt  # set by another thread to stop the search (NULL: none)
    int stop
    int32_t* path
    int best_pegs        # fewest pegs of a dead end seen so far (MAX_HOLES + 1: none yet)
    int best_depth
    int32_t* best_path   # the jumps to that dead end
    DeadTable table
    # guided search only (NULL otherwise)
    int64_t iso_weight   # score of one isolated peg
    int64_t* jump_gain   # per jump: weight(to) - weight(from) - weight(over)
    bits_t* beside       # per hole: the holes a peg there could jump over
    bits_t* region       # per jump: the holes whose isolation the jump can change
    int64_t* kid_score   # per depth, njumps slots: scores of the children being sorted
    int32_t* kid_jump    # per depth, njumps slots: their jumps
    # pagoda pruning (npag = 0: none)
    int npag
    int64_t* pag_lut     # npag x nbytes x 256: each pagoda's sum over the pegs of a byte
    int64_t* pag_thr     # per pagoda: its value on the goal
    uint64_t pagoda_prunes
    # the beam by moves' score: merson_weight per full Merson region (nmerson = 0: none)
    int nmerson
    bits_t* merson
    int64_t merson_weight


cdef int poll_clock(Ctx* c, bint signals) noexcept nogil:
    # The halt flag, the deadline, then (when signals) Ctrl-C and SIGTERM: 1 and c.stop
    # set when one is due.
    if c.halt != NULL and c.halt[0]:
        c.stop = STOP_CANCEL
        return 1
    if c.deadline > 0 and now_seconds() >= c.deadline:
        c.stop = STOP_SECONDS
        return 1
    if signals:
        with gil:
            if check_signals() != 0:
                # Ctrl-C ends the search with a result that says so.
                clear_error()
                c.stop = STOP_INTERRUPT
                return 1
    return 0


cdef int poll_due(Ctx* c) noexcept nogil:
    # The node limit, then every CLOCK_EVERY + 1 nodes the clock and every SIGNAL_EVERY + 1
    # Ctrl-C; sets the next node count at which anything is due.
    if c.node_limit and c.nodes >= c.node_limit:
        c.stop = STOP_NODES
        return 1
    c.next_poll = (c.nodes | CLOCK_EVERY) + 1
    if c.node_limit and c.node_limit < c.next_poll:
        c.next_poll = c.node_limit
    if (c.nodes & CLOCK_EVERY) == 0:
        return poll_clock(c, (c.nodes & SIGNAL_EVERY) == 0)
    return 0


cdef inline int poll_limits(Ctx* c) noexcept nogil:
    # Called on every node: one comparison unless a limit or a polling period is due.
    if c.nodes < c.next_poll:
        return 0
    return poll_due(c)


# ---- symmetry ---------------------------------------------------------------

cdef inline bits_t canonical(Ctx* c, bits_t pegs) noexcept nogil:
    # Smallest image of pegs under the allowed symmetries.
    cdef bits_t best = pegs, img
    cdef int s, b
    cdef const bits_t* lut = c.lut
    for s in range(c.nsym):
        img = 0
        for b in range(c.nbytes):
            img |= lut[b * 256 + <int>((pegs >> (8 * b)) & 255)]
        if img < best:
            best = img
        lut += c.nbytes * 256
    return best


# ---- table of positions proven dead ----------------------------------------

cdef int table_init(DeadTable* t, uint64_t budget_bytes) noexcept nogil:
    t.max_entries = budget_bytes // sizeof(bits_t)
    t.log2 = TABLE_MIN_LOG2
    while t.log2 > 4 and (<uint64_t>1 << t.log2) > t.max_entries:
        t.log2 -= 1
    t.keys = <bits_t*>peg_table_alloc((<size_t>1 << t.log2) * sizeof(bits_t))
    t.count = 0
    t.replaced = 0
    t.growing = 1
    return 0 if t.keys != NULL else -1


cdef inline uint64_t key_hash(bits_t key) noexcept nogil:
    # Fibonacci hashing, then a second round of xor-shift and multiplication, so that the
    # top bits taken depend on every bit: keys of a board laid on its grid have bits that
    # are always zero (a guard; not measured to matter on the boards benched)
    cdef uint64_t h = hash_bits(key)
    h ^= h >> 32
    h *= <uint64_t>0xD6E8FEB86659FD93ULL
    return h ^ (h >> 32)


cdef inline uint64_t table_slot(DeadTable* t, bits_t key) noexcept nogil:
    return key_hash(key) >> (64 - t.log2)


cdef int table_contains(DeadTable* t, bits_t key) noexcept nogil:
    cdef uint64_t mask = (<uint64_t>1 << t.log2) - 1
    cdef uint64_t i = table_slot(t, key)
    cdef int p
    for p in range(TABLE_PROBES):
        if t.keys[i] == key:
            return 1
        if t.keys[i] == 0:
            return 0
        i = (i + 1) & mask
    return 0


cdef void table_grow(Ctx* c) noexcept nogil:
    # Grow the table 4 times (twice where only that fits the budget: old and new tables
    # live together while copying), else switch to replacing entries. Growing by 4 copies
    # each entry 1.3 times on average, not 2. Copying into gigabytes of fresh pages takes
    # seconds, so the limits are polled meanwhile: a stop drops the entries not yet copied
    # (the table only speeds the search up).
    cdef DeadTable* t = &c.table
    cdef uint64_t old_size = <uint64_t>1 << t.log2
    cdef uint64_t i
    cdef int step = 2 if old_size * 5 <= t.max_entries else 1
    cdef bits_t* old = t.keys
    cdef bits_t* fresh
    if old_size * 3 > t.max_entries:
        t.growing = 0
        return
    fresh = <bits_t*>peg_table_alloc((old_size << step) * sizeof(bits_t))
    if fresh == NULL:
        t.growing = 0
        return
    t.keys = fresh
    t.log2 += step
    t.count = 0
    for i in range(old_size):
        if old[i] != 0:
            table_put(t, old[i], 1)
        if (i & GROW_POLL) == GROW_POLL and poll_clock(c, 1):
            break
    peg_table_free(old, old_size * sizeof(bits_t))


cdef int table_put(DeadTable* t, bits_t key, int may_replace) noexcept nogil:
    # 1 if stored (or already there), 0 if its probe window is full and may_replace is 0.
    cdef uint64_t mask = (<uint64_t>1 << t.log2) - 1
    cdef uint64_t home = table_slot(t, key)
    cdef uint64_t i = home
    cdef int p
    for p in range(TABLE_PROBES):
        if t.keys[i] == 0:
            t.keys[i] = key
            t.count += 1
            return 1
        if t.keys[i] == key:
            return 1
        i = (i + 1) & mask
    if not may_replace:
        return 0
    # Window full: the table only speeds the search up, so losing an entry is safe.
    t.keys[home] = key
    t.replaced += 1
    return 1


cdef inline void table_add(Ctx* c, bits_t key) noexcept nogil:
    # While the budget allows, a crowded table grows rather than forgets (after a stop it
    # forgets: the search is ending).
    cdef DeadTable* t = &c.table
    if t.growing and t.count * 2 >= (<uint64_t>1 << t.log2) and not c.stop:
        table_grow(c)
    while not table_put(t, key, not t.growing or c.stop):
        table_grow(c)


# ---- the searches -----------------------------------------------------------

cdef int pagoda_dead(Ctx* c, bits_t pegs) noexcept nogil:
    # A jump never raises a pagoda's value, so below the goal's value means dead.
    cdef int k, b
    cdef int64_t total
    cdef const int64_t* lut = c.pag_lut
    for k in range(c.npag):
        total = 0
        for b in range(c.nbytes):
            total += lut[b * 256 + <int>((pegs >> (8 * b)) & 255)]
        if total < c.pag_thr[k]:
            c.pagoda_prunes += 1
            return 1
        lut += c.nbytes * 256
    return 0


cdef void dead_end(Ctx* c, bits_t pegs, int depth) noexcept nogil:
    # Counted, and kept when it has the fewest pegs yet: the fewest-pegs search's answer
    # (the fewest pegs reachable are always at a dead end). Rare, so off the hot path.
    cdef int n = c.goal_depth + c.goal_count - depth   # the pegs left, without a popcount
    c.dead_ends += 1
    if n < c.best_pegs:
        c.best_pegs = n
        c.best_depth = depth
        memcpy(c.best_path, c.path, depth * sizeof(int32_t))


cdef inline int goal_reached(Ctx* c, bits_t pegs) noexcept nogil:
    if c.goal_mask:
        return pegs == c.goal_mask
    return popcount_bits(pegs) == c.goal_count


cdef inline int goal_at_depth(Ctx* c, bits_t pegs) noexcept nogil:
    # goal_reached at the goal's depth, where the pegs are goal_count already
    return pegs == c.goal_mask if c.goal_mask else 1


cdef inline void images(Ctx* c, bits_t pegs, bits_t* out) noexcept nogil:
    # The images of pegs under each symmetry, from the byte tables.
    cdef int s, b
    cdef const bits_t* lut = c.lut
    for s in range(c.nsym):
        out[s] = 0
        for b in range(c.nbytes):
            out[s] |= lut[b * 256 + <int>((pegs >> (8 * b)) & 255)]
        lut += c.nbytes * 256


cdef inline bits_t smallest(Ctx* c, bits_t pegs, const bits_t* imgs) noexcept nogil:
    cdef bits_t best = pegs
    cdef int s
    for s in range(c.nsym):
        if imgs[s] < best:
            best = imgs[s]
    return best


cdef inline int enter_node(Ctx* c, bits_t pegs, int depth, bits_t* key, const bits_t* imgs=NULL) noexcept nogil:
    # What dfs and guided do on entering a position: limits, goal, pagodas, table.
    # Returns 0 or 1 when that settles the position, -1 when its jumps must be tried
    # (then *key is its table key). imgs: pegs's images, when the caller carries them;
    # a *key other than 0 is the table key already (the parent computed it).
    if poll_limits(c):
        return 0
    c.nodes += 1
    if depth >= c.goal_depth:   # goal_count pegs left (no popcount a node)
        return goal_at_depth(c, pegs)
    if c.npag and pagoda_dead(c, pegs):
        return 0
    if c.use_table:
        if key[0] == 0:
            key[0] = smallest(c, pegs, imgs) if imgs != NULL else canonical(c, pegs) if c.nsym else pegs
        if table_contains(&c.table, key[0]):
            c.table_hits += 1
            return 0
    return -1


cdef inline void legal_jumps(Ctx* c, bits_t pegs, uint64_t* legal) noexcept nogil:
    # The legal jumps of pegs as a set (c.nwords words): per group, the from-holes with a
    # peg, a peg beside them and a hole beyond, then each one's jump.
    cdef int g, w, j
    cdef const int* s
    cdef const int32_t* row
    cdef bits_t m
    for w in range(c.nwords):
        legal[w] = 0
    for g in range(c.ngroups):
        s = c.g_shift + 4 * g
        m = c.g_from[g] & pegs & ((pegs >> s[0]) << s[1]) & ~((pegs >> s[2]) << s[3])
        row = c.g_jump + g * c.nholes
        while m:
            j = row[lowest_hole(m)]
            legal[j >> 6] |= (<uint64_t>1) << (j & 63)
            m &= m - 1


cdef inline bits_t child_key(Ctx* c, bits_t pegs, int j, const bits_t* imgs) noexcept nogil:
    # The table key of pegs's child by jump j.
    cdef bits_t child = pegs ^ c.m3[j], best
    cdef const bits_t* ji
    cdef int s
    if imgs == NULL:
        return canonical(c, child) if c.nsym else child
    best = child
    ji = c.jimg + j * c.nsym
    for s in range(c.nsym):
        if imgs[s] ^ ji[s] < best:
            best = imgs[s] ^ ji[s]
    return best


cdef int dfs(Ctx* c, bits_t pegs, int depth, const bits_t* imgs, bits_t key) noexcept nogil:
    # Jump-table order over the legal jumps; a position left without success is proven
    # dead. tests counts what a scan of every jump in that order would test: up to the
    # jump that succeeds, else all of them (the seed's noOfTests). imgs: the images of
    # pegs under the symmetries when c.carry_images (else NULL); a child's are the
    # parent's xor the jump's, one xor a symmetry instead of a table look-up a byte.
    # key: pegs's table key, or 0. With a table, the children's keys are computed first
    # and their slots fetched, so that their look-ups overlap instead of each waiting.
    cdef int j, w, s, settled, n, moved = 0
    cdef uint64_t word
    cdef uint64_t legal[MAX_JUMP_WORDS]
    cdef bits_t kid_imgs[MAX_SYM]
    cdef bits_t kid_key[MAX_KIDS]
    cdef const bits_t* m3 = c.m3
    cdef const bits_t* ji
    settled = enter_node(c, pegs, depth, &key, imgs)
    if settled >= 0:
        return settled
    legal_jumps(c, pegs, legal)
    n = 0
    if c.use_table:
        for w in range(c.nwords):
            word = legal[w]
            while word and n < MAX_KIDS:
                kid_key[n] = child_key(c, pegs, (w << 6) | ctz64(word), imgs)
                prefetch(&c.table.keys[table_slot(&c.table, kid_key[n])])
                n += 1
                word &= word - 1
    n = 0
    for w in range(c.nwords):
        word = legal[w]
        while word:
            j = (w << 6) | ctz64(word)
            word &= word - 1
            moved = 1
            c.path[depth] = j
            if imgs != NULL:
                ji = c.jimg + j * c.nsym
                for s in range(c.nsym):
                    kid_imgs[s] = imgs[s] ^ ji[s]
            if dfs(c, pegs ^ m3[j], depth + 1, kid_imgs if imgs != NULL else NULL,
                   kid_key[n] if c.use_table and n < MAX_KIDS else 0):
                c.tests += j + 1
                return 1
            if c.stop:
                c.tests += j + 1
                return 0
            n += 1
    c.tests += c.njumps
    if not moved:
        dead_end(c, pegs, depth)
    if c.use_table:
        table_add(c, key)
    return 0


cdef inline void pair_add(const int32_t* row, bits_t m, uint64_t* a, uint64_t* b) noexcept nogil:
    # the jumps (row: each from-hole's jump) of a group's legal from-holes m into two words
    cdef int j
    cdef uint64_t bit
    while m:
        j = row[lowest_hole(m)]
        bit = (<uint64_t>1) << (j & 63)
        if j < 64:
            a[0] |= bit
        else:
            b[0] |= bit
        m &= m - 1


cdef inline void legal_pair(Ctx* c, bits_t pegs, uint64_t* lo, uint64_t* hi) noexcept nogil:
    # legal_jumps for boards of at most 128 jumps, in two words the caller keeps in registers
    cdef int g
    cdef const int* s
    cdef uint64_t a = 0, b = 0
    for g in range(c.ngroups):
        s = c.g_shift + 4 * g
        pair_add(c.g_jump + g * c.nholes,
                 c.g_from[g] & pegs & ((pegs >> s[0]) << s[1]) & ~((pegs >> s[2]) << s[3]), &a, &b)
    lo[0] = a
    hi[0] = b


cdef inline void legal_pair7(Ctx* c, bits_t pegs, uint64_t* lo, uint64_t* hi) noexcept nogil:
    # legal_pair for orth7 boards: the four groups' shifts are constants, not loads
    cdef uint64_t a = 0, b = 0
    cdef const int* g = c.g7
    pair_add(c.g_jump + g[0] * c.nholes, c.g_from[g[0]] & pegs & (pegs >> 1) & ~(pegs >> 2), &a, &b)
    pair_add(c.g_jump + g[1] * c.nholes, c.g_from[g[1]] & pegs & (pegs >> 7) & ~(pegs >> 14), &a, &b)
    pair_add(c.g_jump + g[2] * c.nholes, c.g_from[g[2]] & pegs & (pegs << 1) & ~(pegs << 2), &a, &b)
    pair_add(c.g_jump + g[3] * c.nholes, c.g_from[g[3]] & pegs & (pegs << 7) & ~(pegs << 14), &a, &b)
    lo[0] = a
    hi[0] = b


cdef int dfs_plain(Ctx* c, bits_t pegs) noexcept nogil:
    # dfs without a table, on boards of at most 128 jumps: the same search, nodes and
    # counters, as a loop over an explicit stack instead of calls (the plain search's
    # nodes are its cheapest, and the call's frame and the counters' stores were most
    # of their cost). Each depth keeps its untried legal jumps in two words.
    cdef int j, d = 0, goal_depth = c.goal_depth
    cdef uint64_t lo, hi, nodes = c.nodes, tests = c.tests, next_poll = c.next_poll
    cdef uint64_t njumps = c.njumps
    cdef const bits_t* m3 = c.m3
    cdef int32_t* path = c.path
    cdef bits_t at[MAX_DEPTH]
    cdef uint64_t left_lo[MAX_DEPTH]
    cdef uint64_t left_hi[MAX_DEPTH]
    while True:
        # enter the position pegs at depth d; settled: go back to its parent
        if nodes >= next_poll:
            c.nodes = nodes
            if poll_due(c):
                break
            next_poll = c.next_poll
        nodes += 1
        if d >= goal_depth:
            if goal_at_depth(c, pegs):
                c.nodes, c.tests = nodes, tests + path_tests(path, d)
                return 1
            d -= 1
        elif c.npag and pagoda_dead(c, pegs):
            d -= 1
        else:
            if c.orth7:
                legal_pair7(c, pegs, &lo, &hi)
            else:
                legal_pair(c, pegs, &lo, &hi)
            if lo | hi:
                at[d], left_lo[d], left_hi[d] = pegs, lo, hi
            else:
                tests += njumps
                dead_end(c, pegs, d)
                d -= 1
        # the next untried jump of the deepest position that has one
        while d >= 0:
            if left_lo[d]:
                j = ctz64(left_lo[d])
                left_lo[d] &= left_lo[d] - 1
                break
            if left_hi[d]:
                j = 64 | ctz64(left_hi[d])
                left_hi[d] &= left_hi[d] - 1
                break
            tests += njumps   # every jump tried and failed
            d -= 1
        if d < 0:
            c.nodes, c.tests = nodes, tests
            return 0
        path[d] = j
        pegs = at[d] ^ m3[j]
        d += 1
    # stopped by a limit: each position on the path counts the jumps up to its child's
    c.tests = tests + path_tests(path, d)
    return 0


cdef inline uint64_t path_tests(const int32_t* path, int depth) noexcept nogil:
    # the tests of a scan in jump order up to each jump on the path (the seed's noOfTests)
    cdef uint64_t n = 0
    cdef int i
    for i in range(depth):
        n += path[i] + 1
    return n


cdef int seed_dfs(Ctx* c, bits_t pegs, int depth) noexcept nogil:
    # The seed article's search: scan holes in index (row-major) order, try each
    # direction at every peg, count every try, check the goal after the scan.
    cdef bits_t rest = pegs
    cdef int h, d, j, moved = 0
    cdef const int32_t* row
    if poll_limits(c):
        return 0
    c.nodes += 1
    while rest:
        h = lowest_hole(rest)
        rest &= rest - 1
        row = c.slots + h * c.ndir
        for d in range(c.ndir):
            c.tests += 1
            j = row[d]
            if j >= 0 and (pegs & c.m3[j]) == c.m2[j]:
                moved = 1
                c.path[depth] = j
                if seed_dfs(c, pegs ^ c.m3[j], depth + 1):
                    return 1
                if c.stop:
                    return 0
    if not moved:
        dead_end(c, pegs, depth)
    return goal_reached(c, pegs)


cdef inline int64_t isolated_in(Ctx* c, bits_t pegs, bits_t area) noexcept nogil:
    # Pegs in area with no peg beside them along any line they could jump on.
    cdef bits_t rest = pegs & area
    cdef int h
    cdef int64_t n = 0
    while rest:
        h = lowest_hole(rest)
        rest &= rest - 1
        if (pegs & c.beside[h]) == 0:
            n += 1
    return n


cdef int guided(Ctx* c, bits_t pegs, int depth) noexcept nogil:
    # The table DFS with the children tried lowest score first, where a position
    # scores iso_weight per isolated peg plus the weights of its pegs. Each child is
    # scored by its change from the parent (same order as the full score, since the
    # parent's is common to all), and a jump changes isolation only inside its region.
    cdef int j, i, settled, n = 0
    cdef bits_t key = 0, child, reg
    cdef int64_t sc
    cdef int64_t* score = c.kid_score + <size_t>depth * c.njumps
    cdef int32_t* kid = c.kid_jump + <size_t>depth * c.njumps
    cdef const bits_t* m2 = c.m2
    cdef const bits_t* m3 = c.m3
    settled = enter_node(c, pegs, depth, &key)
    if settled >= 0:
        return settled
    for j in range(c.njumps):
        if (pegs & m3[j]) == m2[j]:
            child = pegs ^ m3[j]
            reg = c.region[j]
            sc = (c.iso_weight * (isolated_in(c, child, reg) - isolated_in(c, pegs, reg))
                  + c.jump_gain[j])
            # Insertion sort, stable: equal scores keep jump-table order (as the
            # reference's sorted() does).
            i = n
            while i > 0 and score[i - 1] > sc:
                score[i] = score[i - 1]
                kid[i] = kid[i - 1]
                i -= 1
            score[i] = sc
            kid[i] = j
            n += 1
    # Every jump was tested once, whichever child then succeeds.
    c.tests += c.njumps
    for i in range(n):
        j = kid[i]
        c.path[depth] = j
        if guided(c, pegs ^ m3[j], depth + 1):
            return 1
        if c.stop:
            return 0
    if n == 0:
        dead_end(c, pegs, depth)
    if c.use_table:
        table_add(c, key)
    return 0


cdef inline bits_t hole_bit(int h) noexcept nogil:
    return (<bits_t>1) << h


# ---- the entry point --------------------------------------------------------

cdef void group_jumps(Ctx* c, const int32_t[:, ::1] jumps):
    # Jumps with the same steps share a group (a repeated jump gets one of its own).
    cdef int i, g, f, d, k
    seen = {}
    c.ngroups = 0
    for i in range(c.njumps):
        f = jumps[i, 0]
        steps = (jumps[i, 1] - f, jumps[i, 2] - f)
        g = seen.get(steps, -1)
        if g < 0 or c.g_from[g] & hole_bit(f):
            g = c.ngroups
            c.ngroups += 1
            seen.setdefault(steps, g)
            for k in range(2):   # a step right is a shift right of the position, a step left one left
                d = steps[k]
                c.g_shift[4 * g + 2 * k] = d if d > 0 else 0
                c.g_shift[4 * g + 2 * k + 1] = -d if d < 0 else 0
        c.g_from[g] |= hole_bit(f)
        c.g_jump[g * c.nholes + f] = i
    c.orth7 = c.ngroups == 4
    for k, steps in enumerate(((1, 2), (7, 14), (-1, -2), (-7, -14))):
        g = seen.get(steps, -1)
        c.orth7 = c.orth7 and g >= 0
        c.g7[k] = g


def search(const int32_t[:, ::1] jumps, const int32_t[:, ::1] slots,
           const int32_t[:, ::1] perms, const int32_t[::1] start,
           const int32_t[::1] goal_holes, int goal_count, int nholes,
           int strategy, bint use_table, uint64_t node_limit=0,
           double seconds=0.0, uint64_t table_bytes=64 << 20,
           const int64_t[::1] weights=None, int64_t iso_weight=0,
           const int64_t[:, ::1] pagodas=None, const int64_t[::1] thresholds=None,
           uint64_t beam_width=0, const int32_t[:, ::1] merson=None, int64_t merson_weight=0,
           const uint8_t[::1] halt=None):
    """Run one search.

    jumps: (n_jumps, 3) hole indices (from, over, to) in the order the DFS tries them.
    slots: (n_holes, n_dir) jump index per direction for the seed scan, -1 = none.
    perms: (n_sym, n_holes) symmetry permutations to canonicalise with (may be 0 rows).
    start: holes with pegs. goal_holes: the final pattern, or empty for "goal_count
    pegs anywhere". node_limit 0 and seconds <= 0 mean no limit. table_bytes is the
    memory budget of the table of dead positions. weights (n_holes,) and iso_weight:
    the guided strategy's score (needed by it only): iso_weight per isolated peg plus
    the weights of the holes with pegs; children are tried lowest score first, ties
    in jump order. pagodas (n_pag, n_holes) integer pagoda functions (no jump raises
    their total) and thresholds (n_pag,) their values on the goal: the searches drop a
    position whose total falls below a threshold. beam_width: the beam strategy's
    positions kept per level (scored as guided, merged up to perms); its levels,
    children and key set must fit in table_bytes. halt (1,): another thread sets halt[0]
    to stop the search (looked at with the clock, every 1,024 nodes).

    Returns a dict: solved, stop (0 none, 1 nodes, 2 seconds, 3 interrupted, 4 memory
    budget, 5 beam emptied after a cut, 6 halt set), path (jump indices), tests, nodes, dead_ends,
    table_hits (beam: children merged with one already generated), table_entries (beam:
    positions kept over all levels), table_bytes (beam: peak bytes), table_replaced,
    pagoda_prunes, seconds, best_pegs (the fewest pegs of a dead end met, None if none or
    beam) and best_path (the jumps to it).

    The moves strategy is a beam by moves (a move: consecutive jumps by one peg;
    _move_beam_impl.pxi): each level keeps the beam_width positions lowest in pegs plus
    merson_weight for each full region of merson (n_regions, n_holes) 0/1. Its "path" is the
    solution's jumps, "moves" their moves and "cut" whether a level before the goal lost
    positions to the width (if not, no solution has fewer moves); "tests" counts chain steps.
    """
    cdef Ctx c
    cdef Beam bm
    cdef int i, s, b, v, k, h, nj = jumps.shape[0], depth_max
    cdef bits_t pegs = 0, img
    cdef int solved = 0
    cdef bits_t root_imgs[MAX_SYM]
    cdef int64_t total
    cdef double t0
    if nholes < 1 or nholes > MAX_HOLES:
        raise ValueError(f"this core takes 1..{MAX_HOLES} holes, not {nholes}")
    if nj > 64 * MAX_JUMP_WORDS:
        raise ValueError(f"this core takes at most {64 * MAX_JUMP_WORDS} jumps, not {nj}")
    cdef int scored = strategy == STRATEGY_GUIDED or strategy == STRATEGY_BEAM
    if scored and (weights is None or weights.shape[0] != nholes):
        raise ValueError(f"the guided and beam strategies need weights for the {nholes} holes")
    cdef int beams = strategy == STRATEGY_BEAM or strategy == STRATEGY_MOVES
    if beams and not 1 <= beam_width <= 0xFFFFFFFF:  # MAX_BEAM_WIDTH
        raise ValueError(f"the beam strategies need a width from 1 to {0xFFFFFFFF}, not {beam_width}")
    if merson is not None and merson.shape[0] and merson.shape[1] != nholes:
        raise ValueError(f"Merson regions must be (n, {nholes})")
    if beams:
        use_table = False  # the beam merges within a level instead
    if pagodas is not None and (thresholds is None or pagodas.shape[1] != nholes
                                or thresholds.shape[0] != pagodas.shape[0]):
        raise ValueError(f"pagodas must be (n, {nholes}) with n thresholds")
    memset(&c, 0, sizeof(Ctx))
    memset(&bm, 0, sizeof(Beam))
    bm.budget = table_bytes
    c.nholes = nholes
    c.njumps = nj
    c.ndir = slots.shape[1]
    c.nsym = perms.shape[0]
    c.nbytes = (nholes + 7) // 8
    c.goal_count = goal_count
    c.use_table = use_table
    c.node_limit = node_limit
    if halt is not None and halt.shape[0] > 0:
        c.halt = &halt[0]
    c.m2 = <bits_t*>malloc((nj + 1) * sizeof(bits_t))
    c.m3 = <bits_t*>malloc((nj + 1) * sizeof(bits_t))
    c.nwords = (nj + 63) // 64
    c.g_from = <bits_t*>calloc(nj + 1, sizeof(bits_t))
    c.g_shift = <int*>malloc(4 * (nj + 1) * sizeof(int))
    c.g_jump = <int32_t*>malloc((<size_t>nj * nholes + 1) * sizeof(int32_t))
    c.slots = <int32_t*>malloc((nholes * c.ndir + 1) * sizeof(int32_t))
    c.lut = <bits_t*>calloc(c.nsym * c.nbytes * 256 + 1, sizeof(bits_t))
    c.jimg = <bits_t*>malloc((<size_t>nj * c.nsym + 1) * sizeof(bits_t))
    c.carry_images = use_table and 0 < c.nsym <= MAX_SYM
    c.path = <int32_t*>malloc((nholes + 1) * sizeof(int32_t))
    c.best_path = <int32_t*>malloc((nholes + 1) * sizeof(int32_t))
    c.best_pegs = MAX_HOLES + 1
    if strategy == STRATEGY_MOVES and merson is not None and merson.shape[0] > 0:
        c.nmerson = merson.shape[0]
        c.merson_weight = merson_weight
        c.merson = <bits_t*>calloc(c.nmerson, sizeof(bits_t))
    if pagodas is not None and pagodas.shape[0] > 0:
        c.npag = pagodas.shape[0]
        c.pag_lut = <int64_t*>calloc(<size_t>c.npag * c.nbytes * 256, sizeof(int64_t))
        c.pag_thr = <int64_t*>malloc(c.npag * sizeof(int64_t))
    if scored:
        # Scratch for the children of every depth at once, so no node allocates.
        depth_max = start.shape[0] + 1
        c.iso_weight = iso_weight
        c.jump_gain = <int64_t*>malloc((nj + 1) * sizeof(int64_t))
        c.beside = <bits_t*>calloc(nholes + 1, sizeof(bits_t))
        c.region = <bits_t*>calloc(nj + 1, sizeof(bits_t))
        c.kid_score = <int64_t*>malloc((<size_t>depth_max * nj + 1) * sizeof(int64_t))
        c.kid_jump = <int32_t*>malloc((<size_t>depth_max * nj + 1) * sizeof(int32_t))
    try:
        if (c.m2 == NULL or c.m3 == NULL or c.slots == NULL or c.lut == NULL
                or c.path == NULL or c.best_path == NULL or c.g_from == NULL or c.g_shift == NULL
                or c.g_jump == NULL or c.jimg == NULL):
            raise MemoryError("search arrays")
        if scored and (c.jump_gain == NULL or c.beside == NULL or c.region == NULL
                                            or c.kid_score == NULL or c.kid_jump == NULL):
            raise MemoryError("guided search arrays")
        if c.npag and (c.pag_lut == NULL or c.pag_thr == NULL):
            raise MemoryError("pagoda tables")
        if c.nmerson and c.merson == NULL:
            raise MemoryError("Merson regions")
        for k in range(c.nmerson):
            for h in range(nholes):
                if merson[k, h]:
                    c.merson[k] |= hole_bit(h)
        # Byte tables, each entry from the one without its lowest bit (the tables are
        # built on every call: one add per entry, not eight).
        for k in range(c.npag):
            c.pag_thr[k] = thresholds[k]
            for b in range(c.nbytes):
                for v in range(1, 256):
                    i = 0
                    while not (v >> i) & 1:
                        i += 1
                    h = 8 * b + i
                    c.pag_lut[(k * c.nbytes + b) * 256 + v] = (
                        c.pag_lut[(k * c.nbytes + b) * 256 + (v & (v - 1))] + (pagodas[k, h] if h < nholes else 0))
        if use_table and table_init(&c.table, table_bytes) != 0:
            raise MemoryError(f"table of {table_bytes} bytes")
        for i in range(nj):
            c.m2[i] = hole_bit(jumps[i, 0]) | hole_bit(jumps[i, 1])
            c.m3[i] = c.m2[i] | hole_bit(jumps[i, 2])
        group_jumps(&c, jumps)
        for i in range(nholes * c.ndir):
            c.slots[i] = slots[i // c.ndir, i % c.ndir]
        if scored:
            for i in range(nj):
                c.jump_gain[i] = weights[jumps[i, 2]] - weights[jumps[i, 0]] - weights[jumps[i, 1]]
                c.beside[jumps[i, 0]] |= hole_bit(jumps[i, 1])
            # A jump changes the isolation of its own three holes and of any hole
            # with one of them beside it.
            for i in range(nj):
                c.region[i] = c.m3[i]
                for h in range(nholes):
                    if c.beside[h] & c.m3[i]:
                        c.region[i] |= hole_bit(h)
        for s in range(c.nsym):
            for b in range(c.nbytes):
                for v in range(1, 256):
                    k = 0
                    while not (v >> k) & 1:
                        k += 1
                    h = 8 * b + k
                    img = c.lut[(s * c.nbytes + b) * 256 + (v & (v - 1))]
                    if h < nholes:
                        img |= hole_bit(perms[s, h])
                    c.lut[(s * c.nbytes + b) * 256 + v] = img
        for i in range(nj):
            images(&c, c.m3[i], c.jimg + i * c.nsym)
        for i in range(start.shape[0]):
            pegs |= hole_bit(start[i])
        for i in range(goal_holes.shape[0]):
            c.goal_mask |= hole_bit(goal_holes[i])
        c.goal_depth = popcount_bits(pegs) - goal_count
        t0 = now_seconds()
        if seconds > 0:
            c.deadline = t0 + seconds
        with nogil:
            if strategy == STRATEGY_SEED:
                solved = seed_dfs(&c, pegs, 0)
            elif strategy == STRATEGY_GUIDED:
                solved = guided(&c, pegs, 0)
            elif strategy == STRATEGY_BEAM:
                solved = beam(&c, &bm, pegs, beam_width)
                if not solved and c.stop == STOP_NONE and bm.cut:
                    c.stop = STOP_BEAM
            elif strategy == STRATEGY_MOVES:
                solved = move_beam(&c, &bm, pegs, beam_width)
                if not solved and c.stop == STOP_NONE and bm.cut:
                    c.stop = STOP_BEAM
            elif c.carry_images:
                images(&c, pegs, root_imgs)
                solved = dfs(&c, pegs, 0, root_imgs, 0)
            elif use_table or nj > 128:
                solved = dfs(&c, pegs, 0, NULL, 0)
            else:
                solved = dfs_plain(&c, pegs)
        elapsed = now_seconds() - t0
        depth = popcount_bits(pegs) - goal_count
        return {
            "solved": bool(solved),
            "stop": c.stop,
            "path": [c.path[i] for i in range(depth)] if solved else [],
            "tests": c.tests,
            "nodes": c.nodes,
            "dead_ends": c.dead_ends,
            "table_hits": c.table_hits,
            "table_entries": bm.kept if beams else c.table.count,
            "table_bytes": bm.peak if beams else
                           (<uint64_t>1 << c.table.log2) * sizeof(bits_t) if use_table else 0,
            "table_replaced": c.table.replaced,
            "pagoda_prunes": c.pagoda_prunes,
            "seconds": elapsed,
            "best_pegs": c.best_pegs if c.best_pegs <= MAX_HOLES and not beams else None,
            "best_path": [c.best_path[i] for i in range(c.best_depth)] if c.best_pegs <= MAX_HOLES and not beams else [],
            "moves": c.best_depth if strategy == STRATEGY_MOVES else None,
            "cut": bool(bm.cut),
        }
    finally:
        free(c.m2)
        free(c.m3)
        free(c.g_from)
        free(c.g_shift)
        free(c.g_jump)
        free(c.slots)
        free(c.lut)
        free(c.jimg)
        free(c.path)
        free(c.best_path)
        if c.table.keys != NULL:
            peg_table_free(c.table.keys, (<size_t>1 << c.table.log2) * sizeof(bits_t))
        free(c.jump_gain)
        free(c.beside)
        free(c.region)
        free(c.kid_score)
        free(c.kid_jump)
        free(c.pag_lut)
        free(c.pag_thr)
        free(c.merson)
        beam_free(&bm)


# ---- the beam: uses Ctx and the helpers above; search() runs it ------------
# (Cython takes search()'s use of Beam and beam() before their definitions here.)

include "_beam_impl.pxi"
include "_chain_seen.pxi"
include "_move_beam_impl.pxi"
