# Expanding a level: the children of a table's positions, keyed and staged.

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
    # buckets by hash, or by key: key >> key_shift is the top bits of key << key_lead
    cdef int key_lead = 64 - st.bucket_bits - st.key_shift if st.key_shift >= 0 else 0
    cdef uint64_t hash_mask = 0 if st.key_shift >= 0 else ~<uint64_t>0
    cdef uint64_t key_mask = ~hash_mask
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
    cdef bits_t ckeys[MAX_WORDS * 64]   # a position's children: keys and buckets
    cdef int cbucket[MAX_WORDS * 64]
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
            for w in range(nw):   # the children's keys and buckets first, then their stores:
                m = words[w]       # a bucket's write pointer is then never waited on for a key
                while m:
                    j = ord_jump[(w << 6) + ctz64(m)]
                    m &= m - 1
                    key = smallest_image(pegs ^ m3[j], pimg, &jump_img[j * nsym], nsym)
                    ckeys[moved] = key
                    # branch-free: the hash's top bits, or the key's (shifted to the top)
                    cbucket[moved] = <int>mulhi((hash_bits(key) & hash_mask) | ((key << key_lead) & key_mask), nbuckets)
                    moved += 1
            for k in range(moved):
                b = cbucket[k]
                e = wpos[b]
                if e == wend[b]:
                    e = new_block(st, b)
                # fetch the bucket's line two ahead: the hardware follows few of the
                # buckets' write streams, and a store that misses holds up those behind it
                prefetch_write(e + STAGE_AHEAD, 1)
                # three words whatever the entry's size (no branches): the words past
                # it are overwritten by the next entry or left in the block's slack
                e[0] = ckeys[k]
                e[1] = clo
                e[2] = chi
                wpos[b] = e + ew
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
