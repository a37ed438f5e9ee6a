# Declarations every pegcore module shares, written once: compiler builtins, the hash
# multiply, the monotonic clock and Ctrl-C polling. Only C-level names and inline
# functions live here, so cimporting them adds no import at run time.
from libc.stdint cimport uint64_t, uint8_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil
    void prefetch "__builtin_prefetch"(const void*) nogil
    void prefetch_write "__builtin_prefetch"(const void*, int) nogil

cdef extern from "Python.h":
    # Declared without Cython's exception check: a caller reads the -1 itself and turns
    # a pending Ctrl-C into a clean stop.
    int check_signals "PyErr_CheckSignals"() noexcept
    void clear_error "PyErr_Clear"() noexcept


cdef inline uint64_t fib_hash(uint64_t x) noexcept nogil:
    # Fibonacci hashing: callers take the top bits
    return x * <uint64_t>0x9E3779B97F4A7C15ULL


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int stop_asked(double deadline, const uint8_t* halt) noexcept nogil:
    # For long loops without the GIL: 0, or why to stop: -3 the deadline (monotonic
    # seconds, 0: none) passed, -4 a signal handler raised (Ctrl-C, SIGTERM; main thread
    # only, the exception stays set for the caller), -5 another thread set *halt (NULL: none)
    if halt != NULL and halt[0]:
        return -5
    if deadline > 0 and now_seconds() >= deadline:
        return -3
    with gil:
        if check_signals() != 0:
            return -4
    return 0
