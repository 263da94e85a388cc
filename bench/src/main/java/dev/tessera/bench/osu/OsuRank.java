package dev.tessera.bench.osu;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.comm.Request;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The per-rank program of {@code tessera bench}, started by {@code tessera run} on any
 * device. Arguments: {@code SUITE SIZES ITERS WARMUP WARMUP_MS BLOCKS WINDOW} (sizes as a
 * comma list of bytes). For every size: at least WARMUP discarded blocks and as many more as
 * it takes to spend WARMUP_MS milliseconds (so the JIT has compiled the path), then BLOCKS timed blocks of
 * {@link Sizes#itersFor} operations, each block after a barrier; a block's value is the
 * slowest rank's time per operation (MAX allreduce), in seconds. Rank 0 prints the
 * protocol that {@link ResultParser} reads, the same as bench/native/osu_mpi.c prints:
 * <pre>
 * TB start SIZE ITERS
 * TB result SIZE ITERS BYTES_PER_OP T1 ... TBLOCKS
 * </pre>
 * For ping-pong suites the time per operation is half a round trip; for window suites it
 * is one window (bandwidth = BYTES_PER_OP / time).
 */
public final class OsuRank {

    static final int TAG = 7;

    private OsuRank() {
    }

    public static void main(String[] args) {
        try (Session rt = Tessera.init(args)) {
            List<String> a = rt.args();
            if (a.size() != 7) {
                throw new IllegalArgumentException("usage: OsuRank SUITE SIZES ITERS WARMUP WARMUP_MS BLOCKS WINDOW");
            }
            Suite suite = Suite.parse(a.get(0));
            int[] sizes = Arrays.stream(a.get(1).split(",")).mapToInt(Integer::parseInt).toArray();
            int iters = Integer.parseInt(a.get(2));
            int warmup = Integer.parseInt(a.get(3));
            double warmupSeconds = Integer.parseInt(a.get(4)) / 1e3;
            int blocks = Integer.parseInt(a.get(5));
            int window = Integer.parseInt(a.get(6));
            run(rt.world(), suite, sizes, iters, warmup, warmupSeconds, blocks, window, System.out,
                    Baton.fromEnvironment(rt.world()));
        }
    }

    /**
     * How long the JIT compiler threads of every rank must have been idle before a size is timed
     * (TESSERA_BENCH_JIT_QUIET_MS, milliseconds, default 100; 0: do not wait), after the warm-up
     * time: with two spinning ranks on two cores a compilation takes a core from a rank a scheduler
     * tick at a time, and the other waits (see {@link JitActivity}). Up to {@link #JIT_WAIT_NANOS}
     * per size, pausing between warm-up blocks so that the compilers get the cores.
     */
    static final long JIT_QUIET_NANOS = quietMillis(System.getenv("TESSERA_BENCH_JIT_QUIET_MS")) * 1_000_000L;
    /** The longest a size waits for the JIT compilers to be idle before it is timed anyway. */
    static final long JIT_WAIT_NANOS = 5_000_000_000L;

    static long quietMillis(String value) {
        if (value == null || value.isBlank()) {
            return 100;
        }
        try {
            return Math.max(0, Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("TESSERA_BENCH_JIT_QUIET_MS must be a whole number of milliseconds, got '" + value + "'");
        }
    }

    /**
     * Whether every rank's JIT compilers have been idle for {@link #JIT_QUIET_NANOS}, or this size
     * has waited {@link #JIT_WAIT_NANOS} since {@code waitFrom}: one allreduce, so every rank
     * decides alike.
     */
    static boolean jitQuiet(Comm world, JitActivity jit, long waitFrom) {
        long now = System.nanoTime();
        double quiet = Math.min(jit.quietNanos(now), 1e15);
        double[] v = {-quiet, now - waitFrom};   // MAX: the shortest quiet time, the longest wait
        world.allreduce(Buffer.of(v), Op.MAX);
        return settled(-v[0], v[1]);
    }

    /** The decision of {@link #jitQuiet} from the shortest quiet time and the longest wait of the ranks (nanoseconds). */
    static boolean settled(double quietNanos, double waitedNanos) {
        return quietNanos >= JIT_QUIET_NANOS || waitedNanos >= JIT_WAIT_NANOS;
    }

    /** Warm-up blocks after which the first size stops pausing for the JIT compiler. */
    static final int MAX_PAUSED_WARMUP_BLOCKS = 200;
    /** Warm-up blocks after which a size is measured even if its warm-up time is not reached. */
    static final int MAX_WARMUP_BLOCKS = 1000;

    /** Runs the suite on this rank; rank 0 prints the protocol lines to {@code out}. */
    static void run(Comm world, Suite suite, int[] sizes, int iters, int warmup, double warmupSeconds, int blocks,
                    int window, PrintStream out) {
        run(world, suite, sizes, iters, warmup, warmupSeconds, blocks, window, out, null);
    }

    /**
     * Runs the suite on this rank, taking turns with the other side of an interleaved comparison
     * through {@code baton} (null: alone): the pre-warm pass, each size's warm-up and each timed
     * block are one segment each, as in bench/native/osu_mpi.c.
     */
    static void run(Comm world, Suite suite, int[] sizes, int iters, int warmup, double warmupSeconds, int blocks,
                    int window, PrintStream out, Baton baton) {
        int rank = world.rank();
        await(baton);
        prewarm(world, suite, sizes, iters, window);
        pass(baton);
        // with a warm-up time (not in the tests' runs with --warmup-ms 0): wait for the JIT compilers too
        boolean waitForJit = warmupSeconds > 0 && JIT_QUIET_NANOS > 0;
        JitActivity jit = waitForJit ? new JitActivity() : null;
        boolean first = true;
        for (int size : sizes) {
            // The first size also warms the JIT for the whole run: ten times the per-size warm-up
            // (2 s by default; on two cores C2 competes with the ranks for the CPUs).
            double warmFor = first ? 10 * warmupSeconds : warmupSeconds;
            boolean warmingJit = first;
            first = false;
            int n = Sizes.itersFor(size, iters);
            if (rank == 0) {
                out.println("TB start " + size + " " + n);
                out.flush();
            }
            Kernel k = kernel(world, suite, size, window);
            double[] t = new double[blocks];
            double warmed = 0; // the same on every rank: a sum of allreduced values
            int warmBlocks = 0;
            long waitFrom = 0;   // when this size began to wait for the JIT compilers (0: not yet)
            await(baton);   // the warm-up is a segment; then each timed block
            for (int b = -warmup; b < blocks; b++) {
                if (b >= 0 && baton != null) {
                    pass(baton);
                    await(baton);
                    // back from sleep: an untimed lead-in, so the block is timed hot as in a run alone
                    world.barrier();
                    k.body().accept(leadIn(n));
                }
                world.barrier();
                long start = System.nanoTime();
                k.body().accept(n);
                double perOp = (System.nanoTime() - start) / 1e9 / n / k.timeDivisor();
                double slowest = world.allreduce(perOp, Op.MAX);
                if (b >= 0) {
                    t[b] = slowest;
                } else {
                    warmed += slowest * n * k.timeDivisor();
                    warmBlocks++;
                    if (warmingJit && warmBlocks <= MAX_PAUSED_WARMUP_BLOCKS) {
                        // Spinning ranks leave the JIT compiler threads no CPU on a small machine:
                        // pause between warm-up blocks so the hot path gets compiled.
                        pause();
                    }
                    // Time bounds the warm-up, and so does a count of blocks: an operation of
                    // 0.1 us would otherwise need thousands of blocks (and pauses) to fill 2 s.
                    if (b == -1 && warmed < warmFor && warmBlocks < MAX_WARMUP_BLOCKS) {
                        b--; // one more warm-up block
                    } else if (b == -1 && waitForJit) {
                        if (waitFrom == 0) {
                            waitFrom = System.nanoTime();
                        }
                        if (!jitQuiet(world, jit, waitFrom)) {
                            pause();   // the compiler threads get the cores
                            b--;
                        }
                    }
                }
            }
            pass(baton);
            if (rank == 0) {
                StringBuilder sb = new StringBuilder("TB result ").append(size).append(' ').append(n)
                        .append(' ').append(k.bytesPerOp());
                for (double v : t) {
                    sb.append(' ').append(v);
                }
                out.println(sb);
                out.flush();
            }
        }
    }

    /**
     * A pass over every size before any is measured, with pauses for the JIT, so that each
     * protocol of the device (eager, rendezvous, single copy...) runs compiled by C2 before
     * its first size is timed, not only the first size's path. The first round keeps each
     * size going until it has moved {@value #PREWARM_MESSAGES} messages (C2 compiles a
     * method after about ten thousand calls) or spent {@value #PREWARM_SECONDS} s, pausing
     * every eighth batch; two short rounds follow, pausing after every batch. Without it the
     * tcp device's first rendezvous size (128 KiB) was timed while its path was still being
     * compiled: 1.0-2.5 GB/s with a slow tail, 4-5 GB/s once compiled.
     */
    private static void prewarm(Comm world, Suite suite, int[] sizes, int iters, int window) {
        for (int round = 0; round < 3; round++) {
            for (int size : sizes) {
                Kernel k = kernel(world, suite, size, window);
                int n = Math.max(1, Sizes.itersFor(size, iters) / 8);
                long perOp = k.bytesPerOp() > 0 ? Math.max(1, k.bytesPerOp() / Math.max(1, size)) : k.timeDivisor();
                long messages = 0;
                long start = System.nanoTime();
                for (int batch = 1; ; batch++) {
                    world.barrier();
                    k.body().accept(n);
                    messages += n * perOp;
                    if (round > 0 || batch % 8 == 0) {
                        pause();
                    }
                    if (round > 0 || messages >= PREWARM_MESSAGES) {
                        break;
                    }
                    // the same decision on every rank: the slowest rank's elapsed time
                    if (world.allreduce((System.nanoTime() - start) / 1e9, Op.MAX) >= PREWARM_SECONDS) {
                        break;
                    }
                }
            }
        }
    }

    private static final long PREWARM_MESSAGES = 20_000;
    private static final double PREWARM_SECONDS = 1.0;

    /** Untimed operations before each timed block of an interleaved run (a quarter of the block). */
    static int leadIn(int n) {
        return (n + 3) / 4;
    }

    private static void await(Baton baton) {
        if (baton != null) {
            baton.await();
        }
    }

    private static void pass(Baton baton) {
        if (baton != null) {
            baton.pass();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One size's work: {@code body} runs ITERS operations; the measured time is divided by
     * ITERS and {@code timeDivisor}; {@code bytesPerOp} is what one operation moves (0 for latency suites).
     */
    record Kernel(IntConsumer body, int timeDivisor, long bytesPerOp) {
    }

    /** Partner rank of {@code rank} in a point-to-point suite, or -1 when the rank sits out. */
    static int partner(Suite suite, int rank, int size) {
        boolean allPairs = suite == Suite.MULTI_LAT || suite == Suite.MBW_MR;
        int half = allPairs ? size / 2 : 1;
        if (rank < half) {
            return rank + half;
        }
        return rank < 2 * half ? rank - half : -1;
    }

    /** Point-to-point suites send from and receive into native memory instead of byte arrays. */
    static final boolean NATIVE_BUFFERS = "native".equals(System.getenv("TESSERA_BENCH_BUFFERS"));

    private static Buffer nativeBytes(int size) {
        return Buffer.of(java.lang.foreign.Arena.ofAuto().allocate(Math.max(1, size), 64).asSlice(0, size),
                dev.tessera.comm.Datatype.BYTE);
    }

    static Kernel kernel(Comm c, Suite suite, int size, int window) {
        int np = c.size();
        int rank = c.rank();
        int peer = partner(suite, rank, np);
        int pairs = suite == Suite.MULTI_LAT || suite == Suite.MBW_MR ? np / 2 : 1;
        byte[] s = new byte[Math.max(1, suite.kind() == Suite.Kind.COLLECTIVE ? size * np : size)];
        byte[] r = new byte[s.length];
        boolean nativeP2p = NATIVE_BUFFERS && suite.kind() != Suite.Kind.COLLECTIVE;
        // point-to-point from native memory (TESSERA_BENCH_BUFFERS=native, bench --buffers native)
        Buffer sb = nativeP2p ? nativeBytes(size) : Buffer.of(s, 0, size);
        Buffer rb = nativeP2p ? nativeBytes(size) : Buffer.of(r, 0, size);
        Buffer fs = Buffer.of(new float[size / 4]);
        Buffer fr = Buffer.of(new float[size / 4]);
        Buffer sAll = Buffer.of(s, 0, suite.kind() == Suite.Kind.COLLECTIVE ? size * np : 0);
        Buffer rAll = Buffer.of(r, 0, suite.kind() == Suite.Kind.COLLECTIVE ? size * np : 0);
        return switch (suite) {
            case LATENCY, MULTI_LAT -> new Kernel(iters -> {
                if (peer < 0) {
                    return;
                }
                boolean first = rank < peer;
                for (int i = 0; i < iters; i++) {
                    if (first) {
                        c.send(sb, peer, TAG);
                        c.recv(rb, peer, TAG);
                    } else {
                        c.recv(rb, peer, TAG);
                        c.send(sb, peer, TAG);
                    }
                }
            }, 2, 0);
            case BW, BIBW, MBW_MR -> {
                boolean both = suite == Suite.BIBW;
                Buffer ack = Buffer.of(new byte[4]);
                Request[] reqs = new Request[both ? 2 * window : window];
                yield new Kernel(iters -> {
                    if (peer < 0) {
                        return;
                    }
                    boolean sender = rank < peer;
                    for (int i = 0; i < iters; i++) {
                        int k = 0;
                        for (int w = 0; w < window; w++) {
                            if (both || !sender) {
                                reqs[k++] = c.irecv(rb, peer, TAG);
                            }
                        }
                        for (int w = 0; w < window; w++) {
                            if (both || sender) {
                                reqs[k++] = c.isend(sb, peer, TAG);
                            }
                        }
                        Request.waitAll(reqs);
                        if (sender) {
                            c.recv(ack, peer, TAG + 1);
                        } else {
                            c.send(ack, peer, TAG + 1);
                        }
                    }
                }, 1, (long) size * window * pairs * (both ? 2 : 1));
            }
            case BARRIER -> collective(iters -> c.barrier());
            case BCAST -> collective(iters -> c.bcast(sb, 0));
            case REDUCE -> collective(iters -> c.reduce(fs, fr, Op.SUM, 0));
            case ALLREDUCE -> collective(iters -> c.allreduce(fs, fr, Op.SUM));
            case GATHER -> collective(iters -> c.gather(sb, rAll, 0));
            case SCATTER -> collective(iters -> c.scatter(sAll, rb, 0));
            case ALLGATHER -> collective(iters -> c.allgather(sb, rAll));
            case ALLTOALL -> collective(iters -> c.alltoall(sAll, rAll));
        };
    }

    /** A collective kernel: {@code op} is one call, repeated ITERS times. */
    private static Kernel collective(IntConsumer op) {
        return new Kernel(iters -> {
            for (int i = 0; i < iters; i++) {
                op.accept(i);
            }
        }, 1, 0);
    }
}
