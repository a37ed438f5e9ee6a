# Memory for tables and stages: zeroed blocks, large ones mapped (on huge pages when
# asked), grown in place with mremap. mremap is Linux's: this part is why the enumeration is Linux only.

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef extern from "<sys/mman.h>" nogil:
    void* mmap(void* addr, size_t length, int prot, int flags, int fd, long offset)
    int munmap(void* addr, size_t length)
    int madvise(void* addr, size_t length, int advice)
    void* mremap(void* old, size_t old_size, size_t new_size, int flags, ...)
    int MADV_HUGEPAGE, PROT_READ, PROT_WRITE, MAP_PRIVATE, MAP_ANONYMOUS, MREMAP_MAYMOVE
    void* MAP_FAILED


cdef inline size_t mapped_size(size_t nbytes) noexcept nogil:
    return (nbytes + HUGE_PAGE - 1) // HUGE_PAGE * HUGE_PAGE


cdef void* zeroed(size_t nbytes, bint huge=True) noexcept nogil:
    # Zeroed memory. Large blocks are fresh mappings (already zero), on huge pages for
    # tables: random probes into hundreds of megabytes otherwise spend much of their
    # time on TLB misses. A stage is written and read in order and takes small pages:
    # where the kernel must find (or a hypervisor back) 2 MiB at a time, a fresh huge
    # page costs several times its small pages. Pages are mapped when first touched, so
    # an arena pays only for what it uses.
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
    if huge:
        madvise(p, n, MADV_HUGEPAGE)  # advice only: ignored where unsupported
    return p


cdef void* regrow(void* p, size_t old_bytes, size_t nbytes, bint huge=True) noexcept nogil:
    # A larger block with the old one's contents (the rest zero); NULL when refused,
    # leaving p as it was. A mapping is extended in place or moved, so only the added
    # pages are new to the process: fresh pages cost the kernel a clearing pass each.
    cdef void* q
    cdef size_t n = mapped_size(nbytes)
    if p != NULL and old_bytes >= MAPPED and nbytes >= MAPPED:
        q = mremap(p, mapped_size(old_bytes), n, MREMAP_MAYMOVE)
        if q == MAP_FAILED:
            return NULL
        if huge:
            madvise(q, n, MADV_HUGEPAGE)
        return q
    q = zeroed(nbytes, huge)
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
