# Positions of one peg count ranked among all positions of that count (the combinatorial
# number system: a position's pegs c1 < c2 < ... < ck have rank C(c1, 1) + ... + C(ck, k)).
# For one peg count the rank grows with the key, so a level's sorted keys stay sorted as
# ranks, and the gaps between neighbours shrink from the 2**holes keys to the C(holes, k)
# ranks: the stored form delta-codes ranks (pegsolver.engine.partition). Its words are
# then byte-shuffled (here too: numpy's strided copy took a tenth of an out-of-core run).

cdef uint64_t BINOM[65][65]     # BINOM[n][k] = C(n, k); C(64, 32) < 2**64


cdef void binom_fill() noexcept nogil:
    cdef int n, k
    for n in range(65):
        BINOM[n][0] = 1
        for k in range(1, 65):
            BINOM[n][k] = 0 if n == 0 else BINOM[n - 1][k - 1] + BINOM[n - 1][k]


binom_fill()


def rank_keys(const uint64_t[::1] keys, uint64_t[::1] out):
    """Rank each key among the keys of its peg count into ``out`` (shapes (n,), uint64).

    :returns: the keys' peg count, or -1 when they do not all have the same one (``out``
        then holds no meaning).
    :raises ValueError: arrays of different lengths.
    """
    cdef Py_ssize_t n = keys.shape[0], i
    cdef uint64_t b, r
    cdef int pegs = -1, k
    if out.shape[0] != n:
        raise ValueError(f"{n} keys but room for {out.shape[0]} ranks")
    if n == 0:
        return 0
    pegs = popcount64(keys[0])
    with nogil:
        for i in range(n):
            b = keys[i]
            if popcount64(b) != pegs:
                pegs = -1
                break
            r = 0
            k = 1
            while b:
                r += BINOM[ctz64(b)][k]
                k += 1
                b &= b - 1
            out[i] = r
    return pegs


def unrank_keys(const uint64_t[::1] ranks, int pegs, int holes, uint64_t[::1] out):
    """The keys of ``pegs`` pegs on ``holes`` holes with the given ranks, into ``out``
    (shapes (n,), uint64): the inverse of :func:`rank_keys`.

    Sorted ranks (a stored partition's) are unranked from the key before: the positions
    whose top pegs are the previous key's top pegs have consecutive ranks, so only the
    pegs below the highest one that changes are searched for (a few of them, in a few
    holes, instead of every hole: 125 ns a key on 3-3-2-2's level 16 before).

    :raises ValueError: arrays of different lengths, pegs or holes out of 0..64, or a rank
        of C(holes, pegs) or more (not a position).
    """
    cdef Py_ssize_t n = ranks.shape[0], i
    cdef uint64_t r, prev = 0, key = 0, rem
    cdef int k, p, j
    cdef bint bad = False
    cdef int cpos[66]       # cpos[1..pegs]: the last key's pegs, lowest first; cpos[pegs + 1] = holes
    cdef uint64_t top[66]   # top[j]: the rank its pegs above the j lowest make, C(cpos[j+1], j+1) + ...
    if out.shape[0] != n:
        raise ValueError(f"{n} ranks but room for {out.shape[0]} keys")
    if not (0 <= pegs <= holes <= 64):
        raise ValueError(f"{pegs} pegs on {holes} holes is not a position of at most 64 holes")
    cpos[pegs + 1] = holes
    top[pegs] = 0
    with nogil:
        for i in range(n):
            r = ranks[i]
            if r >= BINOM[holes][pegs]:
                bad = True
                break
            j = pegs                # the pegs to find: all of them, unless the last key's top ones stay
            if i > 0 and r >= prev:
                j = 0
                while r - top[j] >= BINOM[cpos[j + 1]][j]:
                    j += 1
            rem = r - top[j]
            # keep the pegs from cpos[j + 1] up; find the j below it, highest first: the
            # largest p with C(p, k) <= rem
            key &= ~((<uint64_t>1 << cpos[j + 1]) - 1) if cpos[j + 1] < 64 else 0
            k = j
            p = cpos[j + 1] - 1
            while k > 0:
                if BINOM[p][k] <= rem:
                    rem -= BINOM[p][k]
                    key |= (<uint64_t>1) << p
                    cpos[k] = p
                    k -= 1
                p -= 1
            for k in range(j, 0, -1):
                top[k - 1] = top[k] + BINOM[cpos[k]][k]
            prev = r
            out[i] = key
    if bad:
        raise ValueError(f"a rank past the {BINOM[holes][pegs]} positions of {pegs} pegs on {holes} holes")


def shuffle_words(const uint64_t[::1] words, unsigned char[::1] out):
    """Byte-shuffle ``words`` (shape (n,), uint64) into ``out`` (shape (8 * n,), uint8): every
    word's lowest byte, then every second byte, ... The zero high bytes of small numbers
    then lie side by side for the codec (as Blosc's shuffle filter does).

    :raises ValueError: ``out`` is not 8 * n bytes.
    """
    cdef Py_ssize_t n = words.shape[0], i
    cdef uint64_t w
    cdef int b
    if out.shape[0] != 8 * n:
        raise ValueError(f"{n} words need {8 * n} bytes, not {out.shape[0]}")
    with nogil:
        for i in range(n):
            w = words[i]
            for b in range(8):
                out[b * n + i] = <unsigned char>(w >> (8 * b))


def unshuffle_words(const unsigned char[::1] raw, uint64_t[::1] out):
    """The inverse of :func:`shuffle_words`: ``raw`` (shape (8 * n,), uint8) into ``out``
    (shape (n,), uint64).

    :raises ValueError: ``raw`` is not 8 * n bytes.
    """
    cdef Py_ssize_t n = out.shape[0], i
    cdef uint64_t w
    cdef int b
    if raw.shape[0] != 8 * n:
        raise ValueError(f"{n} words need {8 * n} bytes, not {raw.shape[0]}")
    with nogil:
        for i in range(n):
            w = 0
            for b in range(8):
                w |= (<uint64_t>raw[b * n + i]) << (8 * b)
            out[i] = w
