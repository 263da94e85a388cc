/*
 * Tessera shm device: single copy of heap arrays (HeapCopy.java). Compiled with the system's C
 * compiler on first use and cached under ~/.cache/tessera/shm/<key>/. Both functions are
 * called as critical downcalls, so their pointer arguments may be Java heap arrays: the
 * collector cannot move an array while the call runs (no safepoint inside it).
 *
 * A slot is one 64-byte line of the shared file per ordered pair of ranks (the sender's ring's
 * first line): int state at 0, int message id at 4, long address at 8, long length at 16.
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
enum { R_DONE = 1, R_WITHDRAWN = 2, R_GONE = 4, R_SERVED = 8, R_SERVE_FAILED = 16, R_NOT_READY = 32 };

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

/* process_vm_readv of n bytes from remote in process pid into local; n, or -errno. */
int64_t tessera_shm_read(int32_t pid, void *local, int64_t remote, int64_t n) {
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

/* Reads the message offered in slot in (if it is OFFERED) into dst, m bytes at most: R_SERVED, or 0. */
static int serve(int32_t *in, int32_t in_pid, void *dst, int64_t m) {
    int32_t expect = S_OFFERED;
    if (__atomic_load_n(in, __ATOMIC_ACQUIRE) != S_OFFERED
            || !__atomic_compare_exchange_n(in, &expect, S_READING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        return 0;
    }
    int64_t address = __atomic_load_n((int64_t *) ((char *) in + 8), __ATOMIC_ACQUIRE);
    int64_t length = __atomic_load_n((int64_t *) ((char *) in + 16), __ATOMIC_ACQUIRE);
    int64_t n = m < length ? m : length;
    int64_t got = n > 0 ? tessera_shm_read(in_pid, dst, address, n) : 0;
    __atomic_store_n(in, got == n ? S_DONE : S_FAILED, __ATOMIC_RELEASE);
    return got == n ? R_SERVED : R_SERVE_FAILED;
}

/*
 * The sender's side: slot is READY; publishes src (n bytes) in it, marks it OFFERED and waits
 * until the receiver (process peer) has read it (DONE or FAILED: R_DONE). If the receiver has
 * not started reading within spin_ns, withdraws the offer (OFFERED -> READY, R_WITHDRAWN) so the
 * caller's thread reaches a safepoint, and calls again later. Once the receiver reads, waits
 * for it to finish however long it takes, unless its process exits (R_GONE). While waiting,
 * serves one message offered to this rank (slot in, from process in_pid, into dst, m bytes at
 * most; in may be NULL), so two ranks that send to each other at once do not wait on each other.
 */
int32_t tessera_shm_offer(int32_t *slot, const void *src, int64_t n, int32_t peer, int64_t spin_ns,
                          int32_t *in, int32_t in_pid, void *dst, int64_t m) {
    int32_t result = 0;
    __atomic_store_n((int64_t *) ((char *) slot + 8), (int64_t) (uintptr_t) src, __ATOMIC_RELAXED);
    __atomic_store_n((int64_t *) ((char *) slot + 16), n, __ATOMIC_RELAXED);
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
