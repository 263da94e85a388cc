/*
 * Tessera shm device: single copy of heap arrays (HeapCopy.java) and the sender's copy of a
 * message piece into a ring cell (CellCopy.java). Compiled with the system's C compiler on first
 * use and cached under ~/.cache/tessera/shm/<key>/. The functions are called as critical
 * downcalls, so their pointer arguments may be Java heap arrays: the collector cannot move an
 * array while the call runs (no safepoint inside it).
 *
 * A slot is one 64-byte line of the shared file per ordered pair of ranks (the sender's ring's
 * first line): int state at 0, int message id at 4, long address at 8, long length at 16 (of the
 * piece offered), long offset at 24 (of the piece in the message), int more at 32 (nonzero: pieces
 * follow). A message larger than a piece (HeapCopy.PIECE_BYTES) is offered piece by piece, so the
 * sender's thread leaves the critical call, and may reach a safepoint, between pieces: after the
 * receiver marks a piece DONE the sender moves the slot back to READY and offers the next.
 * States: 0 IDLE, 1 POSTED (the sender announced a message), 2 READY (the receiver matched it
 * and wants to read), 3 OFFERED (the sender sits in tessera_shm_offer with the array's address
 * in the slot; from READY, or from POSTED before the receiver matched), 4 READING (the receiver
 * reads), 5 DONE, 6 FAILED (the read failed). Only the sender moves OFFERED back to the state it
 * came from (withdraw), only the receiver OFFERED to READING, both by compare-and-set: the
 * sender never leaves while the receiver reads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum { S_IDLE = 0, S_POSTED = 1, S_READY = 2, S_OFFERED = 3, S_READING = 4, S_DONE = 5, S_FAILED = 6 };

/* what tessera_shm_offer returns: bits */
enum { R_DONE = 1, R_WITHDRAWN = 2, R_GONE = 4, R_SERVED = 8, R_SERVE_FAILED = 16, R_NOT_READY = 32, R_MORE = 64 };

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static inline int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t) t.tv_sec * 1000000000LL + t.tv_nsec;
}

/*
 * Page-offset aliasing. On the AMD EPYC Zen 4 VM (docs/performance.md, stop 71) rep movsb, which
 * glibc's memcpy uses for copies of a few KiB up to about the L3's size and the kernel uses for
 * the copy of process_vm_readv, moved 2-3 GB/s where the destination lay 1 to 15 bytes past the
 * source modulo 4096, against 45-55 GB/s (memcpy of 64 KiB) and 11-13 GB/s (process_vm_readv)
 * at every other distance (all 4096 scanned). Java arrays are 8-byte aligned, so 8 is the one
 * distance of that window two arrays can have, and two rank JVMs that allocate the same buffers in
 * the same order often have it. A copy whose distance falls in the window goes another way: a read
 * through a bounce buffer half a page away from the source (7-8 GB/s), a memcpy replaced by
 * 64-byte moves (24-28 GB/s).
 */
#define ALIAS_WINDOW 16
#define BOUNCE (64 * 1024)

static inline int aliased(const void *dst, const void *src) {
    uintptr_t d = ((uintptr_t) dst - (uintptr_t) src) & 4095;
    return d != 0 && d < ALIAS_WINDOW;
}

/* 1 if a copy from src to dst lies in the aliasing window (for tests). */
int32_t tessera_shm_aliased(const void *dst, int64_t src) {
    return aliased(dst, (const void *) (uintptr_t) src);
}

/* per thread; the C library frees it when the thread ends */
static __thread char bounce_area[BOUNCE + 2 * 4096];

/* process_vm_readv of n bytes from remote in process pid into local; n, or -errno. */
static int64_t read_direct(int32_t pid, void *local, int64_t remote, int64_t n) {
    int64_t done = 0;
    while (done < n) {
        struct iovec l = { (char *) local + done, (size_t) (n - done) };
        struct iovec r = { (void *) (uintptr_t) (remote + done), (size_t) (n - done) };
        ssize_t got = process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -errno;
        }
        if (got == 0) {
            return -EFAULT;
        }
        done += got;
    }
    return done;
}

/* process_vm_readv of n bytes from remote in process pid into local (outside the aliasing window); n, or -errno. */
int64_t tessera_shm_read(int32_t pid, void *local, int64_t remote, int64_t n) {
    if (!aliased(local, (const void *) (uintptr_t) remote)) {
        return read_direct(pid, local, remote, n);
    }
    /* pieces of BOUNCE bytes (a multiple of 4096) keep every piece's distance: 2048 to the bounce, 2048 less to local */
    char *base = (char *) (((uintptr_t) bounce_area + 4095) & ~(uintptr_t) 4095);
    char *b = base + (((uintptr_t) remote + 2048) & 4095);
    int64_t done = 0;
    while (done < n) {
        int64_t k = n - done < BOUNCE ? n - done : BOUNCE;
        int64_t got = read_direct(pid, b, remote + done, k);
        if (got != k) {
            return got < 0 ? got : -EFAULT;
        }
        memcpy((char *) local + done, b, (size_t) k);
        done += k;
    }
    return done;
}

/* memcpy of n bytes, by 64-byte moves where the distance lies in the aliasing window. */
static void copy_cached(void *dst, const void *src, int64_t n) {
    if (!aliased(dst, src)) {
        memcpy(dst, src, (size_t) n);
        return;
    }
    char *d = (char *) dst;
    const char *s = (const char *) src;
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        struct { uint64_t w[8]; } line;
        memcpy(&line, s + i, 64);
        memcpy(d + i, &line, 64);
        __asm__("" : "+r"(i));   /* keeps the compiler from making the loop a memcpy call */
    }
    memcpy(d + i, s + i, (size_t) (n - i));
}

/*
 * The cell copy's two ways. On the AMD EPYC Zen 4 VM the rate at which one vCPU's writes reach
 * the other's reads has two levels that last seconds to minutes (docs/performance.md, stop 71;
 * two threads of a C program passing 32 KiB pieces through 128 cells): 25-28 GB/s with memcpy at
 * one, 2-3 GB/s at the other, where each line the writer fetches back from the reader's cache
 * costs about as much as a trip to memory. Non-temporal stores, which write around the caches,
 * moved 12-13 GB/s at the first level and 14-16 at the second. So a sender's pieces of
 * ADAPT_MIN bytes or more go the way whose recent pieces cost fewer cycles per byte (a moving
 * average per thread, a piece counting at most twice the average), with memcpy favoured
 * STREAM_FACTOR to 1: a non-temporal piece always costs
 * its writer less (75-110 cycles per KiB at both levels), but its reader fetches it from memory;
 * memcpy cost 85-105 at the first level and 1,100-1,400 at the second (in that ring, 230-440
 * where it was tried between non-temporal pieces at the first). The other way is tried after
 * PROBE_EVERY pieces, then after twice as many each time it loses, up to PROBE_MAX, so that a
 * memcpy tried at the slow level (30 us for 32 KiB) costs little; a switch starts over.
 * copy_mode: 0 adaptive, 1 memcpy only, 2 streaming only (tessera.shm.cellCopy).
 */
#define ADAPT_MIN (16 * 1024)
#define PROBE_EVERY 64
#define PROBE_MAX 1024
#define STREAM_FACTOR 8

static int32_t copy_mode;
static __thread uint64_t cost[2];   /* smoothed cycles per KiB: [0] memcpy, [1] streaming; 0 = not yet seen */
static __thread uint32_t pieces;
static __thread uint32_t probe_every = PROBE_EVERY;
static __thread int32_t preferred;
static __thread int32_t last_way;

#if defined(__x86_64__)
#include <emmintrin.h>
#include <x86intrin.h>
#define HAVE_STREAM 1

/* non-temporal copy of n bytes; the stores are fenced, so a release store after it publishes them */
static void copy_stream(void *dst, const void *src, int64_t n) {
    char *d = (char *) dst;
    const char *s = (const char *) src;
    int64_t head = (int64_t) ((16 - ((uintptr_t) d & 15)) & 15);
    if (head > n) {
        head = n;
    }
    memcpy(d, s, (size_t) head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; d += 64, s += 64, n -= 64) {
        __m128i a = _mm_loadu_si128((const __m128i *) s);
        __m128i b = _mm_loadu_si128((const __m128i *) (s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *) (s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *) (s + 48));
        _mm_stream_si128((__m128i *) d, a);
        _mm_stream_si128((__m128i *) (d + 16), b);
        _mm_stream_si128((__m128i *) (d + 32), c);
        _mm_stream_si128((__m128i *) (d + 48), e);
    }
    _mm_sfence();
    memcpy(d, s, (size_t) n);
}
#else
#define HAVE_STREAM 0
#endif

/*
 * Sets copy_mode (0 adaptive, 1 memcpy, 2 streaming) and forgets the calling thread's figures;
 * returns the mode in force (streaming needs x86-64).
 */
int32_t tessera_shm_copy_mode(int32_t mode) {
    copy_mode = (mode == 2 && !HAVE_STREAM) ? 1 : mode;
    cost[0] = cost[1] = 0;
    pieces = 0;
    probe_every = PROBE_EVERY;
    preferred = 0;
    return copy_mode;
}

/* The way this thread's last copy of ADAPT_MIN bytes or more went: 0 memcpy, 1 streaming (tests). */
int32_t tessera_shm_copy_last_way(void) {
    return last_way;
}

/* This thread's smoothed cost of a way, cycles per KiB (0: not yet seen; diagnostics and tests). */
uint64_t tessera_shm_copy_cost(int32_t way) {
    return cost[way != 0];
}

/* The sender's copy of a message piece into a cell: memcpy or non-temporal stores, see above. */
void tessera_shm_copy(void *dst, const void *src, int64_t n) {
#if HAVE_STREAM
    if (n >= ADAPT_MIN && copy_mode != 1) {
        int way;
        if (copy_mode == 2) {
            way = 1;
        } else if (cost[0] == 0 || cost[1] == 0) {
            way = cost[0] == 0 ? 0 : 1;
        } else {
            way = cost[1] * STREAM_FACTOR < cost[0] ? 1 : 0;
            if (way != preferred) {
                preferred = way;             /* a switch: look again soon */
                probe_every = PROBE_EVERY;
                pieces = 0;
            } else if (++pieces >= probe_every) {
                way = !way;                  /* a probe; each that keeps the choice doubles the interval */
                pieces = 0;
                probe_every = probe_every < PROBE_MAX ? probe_every * 2 : PROBE_MAX;
            }
        }
        uint64_t t0 = __rdtsc();
        if (way) {
            copy_stream(dst, src, n);
        } else {
            copy_cached(dst, src, n);
        }
        uint64_t c = (__rdtsc() - t0) * 1024 / (uint64_t) n;
        if (cost[way] != 0 && c > 2 * cost[way]) {
            c = 2 * cost[way];   /* one piece slowed by an interrupt or a preemption moves the figure a little */
        }
        cost[way] = cost[way] == 0 ? c + 1 : (3 * cost[way] + c) / 4 + 1;
        last_way = way;
        return;
    }
#endif
    if (n >= ADAPT_MIN) {
        last_way = 0;
    }
    copy_cached(dst, src, n);
}

/* True if process pid has exited (gone, or a zombie not yet reaped). */
static int gone(int32_t pid) {
    if (kill(pid, 0) != 0 && errno == ESRCH) {
        return 1;
    }
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int) pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return errno == ENOENT;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) {
        return 0;
    }
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    return p != NULL && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

/*
 * Reads the piece offered in slot in (if it is OFFERED) into dst at the piece's offset, keeping
 * to the first m bytes of dst: R_SERVED (with R_MORE if pieces follow), R_SERVE_FAILED, or 0.
 */
static int serve(int32_t *in, int32_t in_pid, void *dst, int64_t m) {
    int32_t expect = S_OFFERED;
    if (__atomic_load_n(in, __ATOMIC_ACQUIRE) != S_OFFERED
            || !__atomic_compare_exchange_n(in, &expect, S_READING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        return 0;
    }
    int64_t address = __atomic_load_n((int64_t *) ((char *) in + 8), __ATOMIC_ACQUIRE);
    int64_t length = __atomic_load_n((int64_t *) ((char *) in + 16), __ATOMIC_ACQUIRE);
    int64_t offset = __atomic_load_n((int64_t *) ((char *) in + 24), __ATOMIC_ACQUIRE);
    int32_t more = __atomic_load_n((int32_t *) ((char *) in + 32), __ATOMIC_ACQUIRE);
    int64_t n = offset >= m ? 0 : m - offset < length ? m - offset : length;
    int64_t got = n > 0 ? tessera_shm_read(in_pid, (char *) dst + offset, address, n) : 0;
    __atomic_store_n(in, got == n ? S_DONE : S_FAILED, __ATOMIC_RELEASE);
    return got != n ? R_SERVE_FAILED : more ? R_SERVED | R_MORE : R_SERVED;
}

/*
 * The sender's side: slot is READY; publishes src (n bytes, the piece of the message at offset,
 * more: pieces follow) in it, marks it OFFERED and waits
 * until the receiver (process peer) has read it (DONE or FAILED: R_DONE). If the receiver has
 * not started reading within spin_ns, withdraws the offer (OFFERED -> READY, R_WITHDRAWN) so the
 * caller's thread reaches a safepoint, and calls again later. Once the receiver reads, waits
 * for it to finish however long it takes, unless its process exits (R_GONE). While waiting,
 * serves one message offered to this rank (slot in, from process in_pid, into dst, m bytes at
 * most; in may be NULL), so two ranks that send to each other at once do not wait on each other.
 */
int32_t tessera_shm_offer(int32_t *slot, const void *src, int64_t n, int64_t offset, int32_t more, int32_t peer,
                          int64_t spin_ns, int32_t *in, int32_t in_pid, void *dst, int64_t m) {
    int32_t result = 0;
    __atomic_store_n((int64_t *) ((char *) slot + 8), (int64_t) (uintptr_t) src, __ATOMIC_RELAXED);
    __atomic_store_n((int64_t *) ((char *) slot + 16), n, __ATOMIC_RELAXED);
    __atomic_store_n((int64_t *) ((char *) slot + 24), offset, __ATOMIC_RELAXED);
    __atomic_store_n((int32_t *) ((char *) slot + 32), more, __ATOMIC_RELAXED);
    /* from READY, or from POSTED (offered before the receiver matched: it reads at its match) */
    int32_t from = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    int32_t expect = from;
    if ((from != S_READY && from != S_POSTED)
            || !__atomic_compare_exchange_n(slot, &expect, S_OFFERED, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        return R_NOT_READY;
    }
    int64_t start = now_ns();
    int64_t next_check = start + 1000000;
    for (unsigned spins = 0;; spins++) {
        int32_t s = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
        if (s == S_DONE || s == S_FAILED) {
            return result | R_DONE;
        }
        if (in != NULL && (result & (R_SERVED | R_SERVE_FAILED)) == 0) {
            result |= serve(in, in_pid, dst, m);
        }
        if ((spins & 63) != 63) {
            relax();
            continue;
        }
        int64_t t = now_ns();
        if (s == S_OFFERED && t - start >= spin_ns) {
            expect = S_OFFERED;
            if (__atomic_compare_exchange_n(slot, &expect, from, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                return result | R_WITHDRAWN;
            }
        }
        if (t >= next_check) {
            next_check = t + 1000000;
            if (gone(peer)) {
                return result | R_GONE;
            }
        }
    }
}
