package dev.tessera.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.conformance.MovingCollector;
import dev.tessera.conformance.ProcessJobRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two-rank bcast, reduce, allgather and alltoall of heap arrays that go point to point by the shm
 * device's single copy ({@link PairCopyDecision}, {@link PairCopyAlgorithms}), with real rank
 * processes whose collectors run all the while (a thread allocates and calls {@code System.gc()} in
 * a loop, and the ranks collect between calls), so the arrays move between calls and would move
 * during them were they not held. Sizes just below, at and just above the path's lower limit and
 * the device's upper one, odd element counts, every root, the in-place variants, each rank arriving
 * first, calls that run ahead of the other rank (their messages arrive before the receive is
 * posted), and a collective's blocking send head to head with the other rank's blocking
 * point-to-point send. Every element is checked, and each call is checked to have taken the path
 * its size says. Then the same calls with the switch off, and with sleeping (blocking) waits: all
 * through the slots, which copy the arrays rather than hold them, so those runs leave the collector
 * thread out (on two cores it took half of their time).
 */
@Timeout(240)
class PairCopyCollectivesTest {

    /** Long elements per message: either side of the lower limit (16 KiB), odd counts, either side of the 2 MiB cap. */
    static final int[] COUNTS = {2047, 2048, 2049, 40001, 262144, 262145};
    /**
     * Either side of the default lower limits (32 KiB for allgather and alltoall, 128 KiB for bcast and
     * reduce) and of reduce's upper one (1 MiB), and a large one.
     */
    static final int[] DEFAULT_COUNTS = {4095, 4096, 16383, 16384, 131071, 131072, 262144};
    /** For the runs that take the slots: a message in the path's range and one above it. */
    static final int[] SLOT_COUNTS = {2048, 40001, 262145};

    static final Op ORDERED = Op.ofLongs((a, b) -> a * 31 + b, false);

    /** Every collective that has the path, from the device's lower limit. */
    static final List<String> SPIN = List.of("-Dtessera.shm.singleCopy=true", "-Dtessera.shm.heapSingleCopy=true",
            "-Dtessera.wait=spin", "-Xmx512m", "-Dtessera.shm.coll.singleCopyCalls=bcast,reduce,allgather,alltoall",
            "-Dtessera.shm.coll.singleCopyMin=16384");

    @Test
    void twoRankCollectivesGoBySingleCopyWhileTheCollectorsMoveTheArrays() {
        new ProcessJobRunner("shm", Duration.ofSeconds(200), 0, SPIN).run(2, world -> calls(world, true, COUNTS));
    }

    /** The defaults: bcast from 128 KiB, reduce from 128 KiB to below 1 MiB, allgather and alltoall from 32 KiB. */
    @Test
    void byDefaultLargeBcastReduceAllgatherAndAlltoallGoBySingleCopy() {
        new ProcessJobRunner("shm", Duration.ofSeconds(200), 0, SPIN.subList(0, 4)).run(2, world -> {
            assertEquals(128 * 1024, PairCopyDecision.minBytes("bcast"));
            assertEquals(32 * 1024, PairCopyDecision.minBytes("alltoall"));
            assertEquals(32 * 1024, PairCopyDecision.minBytes("allgather"));
            assertEquals(1 << 20, PairCopyDecision.REDUCE_MAX_BYTES);
            assertEquals(java.util.Set.of("bcast", "reduce", "allgather", "alltoall"), PairCopyDecision.CALLS);
            calls(world, true, DEFAULT_COUNTS);
        });
    }

    @Test
    void aCollectiveWithoutThePathInTheListIsRefusedWithTheRankAndTheSetting() {
        List<String> opts = new ArrayList<>(SPIN.subList(0, 4));
        opts.add("-Dtessera.shm.coll.singleCopyCalls=bcast,allreduce");
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(100), 0, opts)
                .launch(2, world -> world.bcast(Buffer.of(new long[32768]), 0), List.of());
        org.junit.jupiter.api.Assertions.assertNotEquals(0, r.status(), r.output());
        org.junit.jupiter.api.Assertions.assertTrue(r.output().contains("bcast: tessera.shm.coll.singleCopyCalls: "
                + "'bcast,allreduce' names a collective without the single-copy path"), r.output());
    }

    @Test
    void withTheSwitchOffTheSameCallsGoThroughTheSlots() {
        List<String> opts = new ArrayList<>(SPIN);
        opts.add("-Dtessera.shm.coll.singleCopy=off");
        new ProcessJobRunner("shm", Duration.ofSeconds(200), 0, opts).run(2, world -> calls(world, false, SLOT_COUNTS));
    }

    @Test
    void withSleepingWaitsTheSameCallsGoThroughTheSlots() {
        new ProcessJobRunner("shm", Duration.ofSeconds(200), 0, List.of("-Dtessera.shm.singleCopy=true",
                "-Dtessera.shm.heapSingleCopy=true", "-Dtessera.wait=block", "-Xmx512m")).run(2, world -> calls(world, false, SLOT_COUNTS));
    }

    /** Whether {@code collective} with messages of {@code bytes} takes the path where the ranks may take it. */
    static boolean takes(String collective, long bytes) {
        return PairCopyDecision.CALLS.contains(collective) && bytes >= Math.max(16 * 1024, PairCopyDecision.minBytes(collective))
                && (bytes < PairCopyDecision.REDUCE_MAX_BYTES || !collective.equals("reduce"))
                && bytes <= 2L << 20;
    }

    static long value(int rank, int i, int round) {
        return (long) rank * 1_000_003L + i * 7L + round * 13L + (i >>> 11);
    }

    static long[] values(int rank, int n, int round) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = value(rank, i, round);
        }
        return a;
    }

    /** The calls of the class comment; {@code singleCopy}: the path is expected, and a collector thread moves the arrays meanwhile. */
    static void calls(Comm world, boolean singleCopy, int[] counts) throws Exception {
        try (MovingCollector collector = MovingCollector.start(singleCopy)) {
            int me = world.rank();
            long[] calls = {world.singleCopyCollectiveCalls()};
            int round = 0;
            for (int n : counts) {
                boolean path = singleCopy && takes("bcast", 8L * n);
                boolean reducePath = singleCopy && takes("reduce", 8L * n);
                boolean gatherPath = singleCopy && takes("allgather", 8L * n);
                boolean allPath = singleCopy && takes("alltoall", 8L * n);
                for (int first = 0; first < 2; first++) {
                    round++;
                    String what = n + " longs, rank " + first + " first";
                    for (int root = 0; root < 2; root++) {
                        arriveInOrder(world, first);
                        long[] b = me == root ? values(root, n, round) : new long[n];
                        world.bcast(Buffer.of(b), root);
                        took(world, calls, path, "bcast root " + root + ", " + what);
                        assertArrayEquals(values(root, n, round), b, "bcast root " + root + ", " + what);

                        reduces(world, n, round, root, first, reducePath, calls, what);
                    }
                    arriveInOrder(world, first);
                    long[] all = new long[2 * n];
                    world.allgather(Buffer.of(values(me, n, round)), Buffer.of(all));
                    took(world, calls, gatherPath, "allgather, " + what);
                    assertArrayEquals(concat(values(0, n, round), values(1, n, round)), all, "allgather, " + what);

                    arriveInOrder(world, first);
                    long[] inPlace = new long[2 * n];
                    System.arraycopy(values(me, n, round + 1), 0, inPlace, me * n, n);
                    world.allgather(Buffer.of(inPlace));
                    took(world, calls, gatherPath, "in-place allgather, " + what);
                    assertArrayEquals(concat(values(0, n, round + 1), values(1, n, round + 1)), inPlace,
                            "in-place allgather, " + what);

                    arriveInOrder(world, first);
                    long[] send = values(me, 2 * n, round);
                    long[] recv = new long[2 * n];
                    world.alltoall(Buffer.of(send), Buffer.of(recv));
                    took(world, calls, allPath, "alltoall, " + what);
                    for (int j = 0; j < 2; j++) {
                        for (int i = 0; i < n; i++) {
                            if (recv[j * n + i] != value(j, me * n + i, round)) {
                                assertEquals(value(j, me * n + i, round), recv[j * n + i],
                                        "alltoall, block from rank " + j + ", element " + i + ", " + what);
                            }
                        }
                    }
                    assertArrayEquals(values(me, 2 * n, round), send, "alltoall send buffer unchanged, " + what);
                }
                runAhead(world, n, round, path, reducePath, calls);
                headToHead(world, n, round, path, reducePath, calls);
            }
        }
    }

    /** Out of place (SUM, symmetric; the ordered user operation, not commutative) and in place, to {@code root}. */
    static void reduces(Comm world, int n, int round, int root, int first, boolean path, long[] calls, String what) {
        int me = world.rank();
        for (Op op : new Op[] {Op.SUM, ORDERED}) {
            String name = (op == Op.SUM ? "sum" : "ordered") + " reduce root " + root + ", " + what;
            arriveInOrder(world, first);
            long[] mine = values(me, n, round);
            long[] result = me == root ? new long[n] : null;
            world.reduce(Buffer.of(mine), result == null ? null : Buffer.of(result), op, root);
            took(world, calls, path, name);
            assertArrayEquals(values(me, n, round), mine, "send buffer unchanged, " + name);
            if (me == root) {
                assertArrayEquals(expected(op, n, round), result, name);
            }

            arriveInOrder(world, first);
            long[] inout = values(me, n, round);
            world.reduce(Buffer.of(inout), op, root);
            took(world, calls, path, "in-place " + name);
            if (me == root) {
                assertArrayEquals(expected(op, n, round), inout, "in-place " + name);
            }
        }
    }

    static long[] expected(Op op, int n, int round) {
        long[] e = new long[n];
        for (int i = 0; i < n; i++) {
            long x0 = value(0, i, round);
            long x1 = value(1, i, round);
            e[i] = op == Op.SUM ? x0 + x1 : x0 * 31 + x1;
        }
        return e;
    }

    /**
     * A root that runs several calls ahead: rank 0 broadcasts and rank 1 reduces to itself three
     * times each before the other calls, so the messages arrive before their receives are posted.
     */
    static void runAhead(Comm world, int n, int round, boolean path, boolean reducePath, long[] calls) {
        int me = world.rank();
        if (me == 1) {
            churn();
        }
        List<long[]> got = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            long[] b = me == 0 ? values(0, n, round + 10 + k) : new long[n];
            world.bcast(Buffer.of(b), 0);
            took(world, calls, path, "run-ahead bcast " + k + " of " + n + " longs");
            got.add(b);
        }
        for (int k = 0; k < 3; k++) {
            assertArrayEquals(values(0, n, round + 10 + k), got.get(k), "run-ahead bcast " + k + " of " + n + " longs");
        }
        if (me == 0) {
            churn();
        }
        for (int k = 0; k < 3; k++) {
            long[] r = new long[n];
            world.reduce(Buffer.of(values(me, n, round + 20 + k)), Buffer.of(r), Op.SUM, 1);
            took(world, calls, reducePath, "run-ahead reduce " + k + " of " + n + " longs");
            if (me == 1) {
                assertArrayEquals(expected(Op.SUM, n, round + 20 + k), r, "run-ahead reduce " + k + " of " + n + " longs");
            }
        }
    }

    /**
     * A collective's blocking send head to head with the other rank's blocking point-to-point send
     * (stop 47's hang after the merge): rank 0 broadcasts, then receives; rank 1 sends, then takes
     * the broadcast. Then the same with a reduce to rank 1 against rank 1's send.
     */
    static void headToHead(Comm world, int n, int round, boolean path, boolean reducePath, long[] calls) {
        int me = world.rank();
        long[] b = me == 0 ? values(0, n, round + 30) : new long[n];
        long[] p2p = new long[n];
        if (me == 0) {
            world.bcast(Buffer.of(b), 0);
            world.recv(Buffer.of(p2p), 1, 9);
            assertArrayEquals(values(1, n, round + 31), p2p, "message head to head with a bcast, " + n + " longs");
        } else {
            world.send(Buffer.of(values(1, n, round + 31)), 0, 9);
            world.bcast(Buffer.of(b), 0);
            assertArrayEquals(values(0, n, round + 30), b, "bcast head to head with a message, " + n + " longs");
        }
        took(world, calls, path, "bcast head to head with a message, " + n + " longs");
        long[] r = new long[n];
        if (me == 0) {
            world.reduce(Buffer.of(values(0, n, round + 32)), null, Op.SUM, 1);
            world.recv(Buffer.of(p2p), 1, 10);
            assertArrayEquals(values(1, n, round + 33), p2p, "message head to head with a reduce, " + n + " longs");
        } else {
            world.send(Buffer.of(values(1, n, round + 33)), 0, 10);
            world.reduce(Buffer.of(values(1, n, round + 32)), Buffer.of(r), Op.SUM, 1);
            assertArrayEquals(expected(Op.SUM, n, round + 32), r, "reduce head to head with a message, " + n + " longs");
        }
        took(world, calls, reducePath, "reduce head to head with a message, " + n + " longs");
    }

    /** The other rank collects first, so {@code first} calls first (most of the time: the order is not asserted). */
    static void arriveInOrder(Comm world, int first) {
        if (world.rank() != first) {
            churn();
        }
    }

    static void took(Comm world, long[] calls, boolean path, String what) {
        long now = world.singleCopyCollectiveCalls();
        assertEquals(calls[0] + (path ? 1 : 0), now, "calls by single copy on rank " + world.rank() + " after " + what);
        calls[0] = now;
    }

    static long[] concat(long[] a, long[] b) {
        long[] c = new long[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** Allocates and collects: arrays allocated before may move. */
    static void churn() {
        byte[][] junk = new byte[64][];
        for (int i = 0; i < junk.length; i++) {
            junk[i] = new byte[4096 + i];
        }
        System.gc();
        if (junk[63].length == 0) {
            throw new AssertionError();
        }
    }
}
