/*
 * Loopback TCP streaming in plain C, to tell the kernel's part of the tcp device's bandwidth
 * from Tessera's: a child process writes 4 GiB as MESSAGE-byte messages in PIECE-byte
 * write(2) calls to its parent, which reads them in PIECE-byte read(2) calls; prints GB/s.
 *
 * Usage: tcp_stream MESSAGE PIECE WAIT
 *   WAIT  block  blocking sockets
 *         spin   non-blocking sockets, retrying read/write at once (how a polling MPI
 *                progress loop, or Tessera's tcp device, waits)
 *         poll   non-blocking sockets, spinning on poll(2) with a zero timeout before
 *                retrying (how Open MPI's tcp transport waits, through libevent)
 *         sleep  non-blocking sockets, sleeping in poll(2) until ready
 * Build: cc -O2 -o tcp_stream bench/native/tcp_stream.c
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { BLOCK, SPIN, POLL, SLEEP };
static int wait_mode;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The socket could not take or give anything: wait as WAIT says. */
static void wait_ready(int fd, short events) {
    if (wait_mode == SPIN) return;
    struct pollfd p = {fd, events, 0};
    while (poll(&p, 1, wait_mode == SLEEP ? -1 : 0) == 0) {
    }
}

static void transfer(int fd, char *buf, size_t n, size_t piece, int writing) {
    for (size_t off = 0; off < n;) {
        size_t k = n - off < piece ? n - off : piece;
        ssize_t r = writing ? write(fd, buf + off, k) : read(fd, buf + off, k);
        if (r < 0 && errno == EAGAIN) {
            wait_ready(fd, writing ? POLLOUT : POLLIN);
            continue;
        }
        if (r <= 0) {
            perror(writing ? "write" : "read");
            exit(1);
        }
        off += (size_t) r;
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: tcp_stream MESSAGE PIECE block|spin|poll|sleep\n");
        return 2;
    }
    size_t message = strtoul(argv[1], NULL, 10), piece = strtoul(argv[2], NULL, 10);
    wait_mode = strcmp(argv[3], "spin") == 0 ? SPIN : strcmp(argv[3], "poll") == 0 ? POLL
              : strcmp(argv[3], "sleep") == 0 ? SLEEP : BLOCK;
    if (message == 0 || piece == 0) {
        fprintf(stderr, "tcp_stream: MESSAGE and PIECE must be positive\n");
        return 2;
    }
    size_t total = (size_t) 4 << 30;
    total -= total % message;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(listener, (struct sockaddr *) &a, sizeof a) != 0 || listen(listener, 1) != 0
        || getsockname(listener, (struct sockaddr *) &a, &len) != 0) {
        perror("listen");
        return 1;
    }
    char *buf = malloc(message);
    memset(buf, 'a', message);
    int one = 1;
    pid_t child = fork();
    if (child == 0) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(s, (struct sockaddr *) &a, sizeof a) != 0) {
            perror("connect");
            _exit(1);
        }
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (wait_mode != BLOCK) fcntl(s, F_SETFL, O_NONBLOCK);
        for (size_t sent = 0; sent < total; sent += message) transfer(s, buf, message, piece, 1);
        close(s);
        _exit(0);
    }
    int s = accept(listener, NULL, NULL);
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (wait_mode != BLOCK) fcntl(s, F_SETFL, O_NONBLOCK);
    double t0 = now();
    for (size_t got = 0; got < total; got += message) transfer(s, buf, message, piece, 0);
    double t = now() - t0;
    waitpid(child, NULL, 0);
    printf("message %zu piece %zu %s: %.2f GB/s\n", message, piece, argv[3], total / t / 1e9);
    return 0;
}
