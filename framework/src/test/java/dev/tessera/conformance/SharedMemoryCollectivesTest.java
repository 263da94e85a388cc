package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shm device's shared-memory collective path (docs/collectives.md, "Shared-memory
 * collectives"), with real rank processes: the covered collectives really take it (its call
 * counter rises by one per call) and give the right answers, through many more calls than
 * it has slots; calls too large for a slot, and jobs with TESSERA_SHM_COLL=off, take the
 * point-to-point algorithms; a rank killed while the others wait in a shared-memory
 * collective ends the job with an error naming it; and the agreement check, carried by the
 * slots, still catches a rank that makes another kind of call or none at all.
 */
@Timeout(120)
class SharedMemoryCollectivesTest {

    /**
     * Keeps two-rank calls of 16 KiB-2 MiB messages in the slots, which these tests cover: by default they
     * go point to point by the device's single copy (PairCopyDecision; PairCopyCollectivesTest covers that).
     */
    static final String SLOTS = "-Dtessera.shm.coll.singleCopy=off";

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void everyCoveredCollectiveTakesTheSharedMemoryPath(int ranks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of(SLOTS)).run(ranks, world -> everyCollective(world, true));
    }

    @Test
    void withTheSwitchOffTheSameCallsTakeThePointToPointPath() {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.shm.coll=off"))
                .run(3, world -> everyCollective(world, false));
    }

    /** One call of each covered collective, checked; {@code shared}: each must count as a shared-memory call. */
    static void everyCollective(Comm world, boolean shared) {
        int p = world.size();
        int me = world.rank();
        long[] count = {world.sharedMemoryCollectiveCalls()};
        Runnable took = () -> {
            long now = world.sharedMemoryCollectiveCalls();
            assertEquals(shared ? count[0] + 1 : 0, now, "calls through shared memory on rank " + me);
            count[0] = now;
        };

        world.barrier();
        took.run();

        long[] v = {me == p - 1 ? 0x1234_5678_9abcL : -1};
        world.bcast(Buffer.of(v), p - 1);
        took.run();
        assertEquals(0x1234_5678_9abcL, v[0]);

        byte[] kib = new byte[1024];
        if (me == 0) {
            for (int i = 0; i < kib.length; i++) {
                kib[i] = (byte) (i * 7 + 3);
            }
        }
        world.bcast(Buffer.of(kib), 0);
        took.run();
        for (int i = 0; i < kib.length; i++) {
            assertEquals((byte) (i * 7 + 3), kib[i], "byte " + i);
        }

        double[] x = {me + 1, 10.0 * (me + 1)};
        double[] r = {-1, -1};
        world.reduce(Buffer.of(x), Buffer.of(r), Op.SUM, 1 % p);
        took.run();
        if (me == 1 % p) {
            assertArrayEquals(new double[] {p * (p + 1) / 2.0, 10.0 * p * (p + 1) / 2}, r);
        } else {
            assertArrayEquals(new double[] {-1, -1}, r, "a non-root's receive buffer is not written");
        }

        int[] a = {me * 3, -me};
        world.allreduce(Buffer.of(a), Op.MAX);
        took.run();
        assertArrayEquals(new int[] {(p - 1) * 3, 0}, a);

        int[] all = new int[2 * p];
        int[] mine = {100 + me, 200 + me};
        world.allgather(Buffer.of(mine), Buffer.of(all));
        took.run();
        for (int j = 0; j < p; j++) {
            assertEquals(100 + j, all[2 * j]);
            assertEquals(200 + j, all[2 * j + 1]);
        }

        int[] out = new int[p];
        int[] in = new int[p];
        for (int j = 0; j < p; j++) {
            out[j] = 1000 * me + j;   // to rank j
        }
        world.alltoall(Buffer.of(out), Buffer.of(in));
        took.run();
        for (int j = 0; j < p; j++) {
            assertEquals(1000 * j + me, in[j], "block from rank " + j);
        }

        // many more calls than slots, with rotating roots and a rank running ahead: slots are reused safely
        for (int i = 0; i < 100; i++) {
            long[] s = {me == i % p ? i * 31L : -1};
            world.bcast(Buffer.of(s), i % p);
            assertEquals(i * 31L, s[0], "bcast " + i);
            if (i % 7 == 0) {
                assertEquals((long) i * p, world.allreduce((long) i, Op.SUM), "allreduce " + i);
            }
        }
        count[0] = world.sharedMemoryCollectiveCalls();

        // larger than a slot (64 KiB by default): chunks through the slots (NodeCollectives.chunksLarge),
        // one shared-memory call
        boolean largeBcast = shared;
        int[] big = new int[64 * 1024];
        if (me == 0) {
            for (int i = 0; i < big.length; i++) {
                big[i] = i ^ 0x5a5a;
            }
        }
        world.bcast(Buffer.of(big), 0);
        for (int i = 0; i < big.length; i++) {
            assertEquals(i ^ 0x5a5a, big[i], "element " + i);
        }
        assertEquals(count[0] + (largeBcast ? 1 : 0), world.sharedMemoryCollectiveCalls(), "a 256 KiB bcast");
        count[0] = world.sharedMemoryCollectiveCalls();

        // more point-to-point calls in a row than there are slots (gather: not through the slots, checked
        // through them), then shared-memory ones again: the agreement check of each call reads the right
        // neighbour's slot before it is reused (no false mismatch)
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 10; i++) {
                int[] b = new int[8 * 1024];
                b[i] = me + i + 1;
                int[] g = new int[p * b.length];
                world.gather(Buffer.of(b), Buffer.of(g), 0);
                for (int j = 0; me == 0 && j < p; j++) {
                    assertEquals(j + i + 1, g[j * b.length + i], "32 KiB gather " + i + " from rank " + j);
                }
            }
            for (int i = 0; i < 10; i++) {
                world.barrier();
                assertEquals((long) p * i, world.allreduce((long) i, Op.SUM));
                long[] s = {me == 0 ? i : -1};
                world.bcast(Buffer.of(s), 0);
                assertEquals(i, s[0]);
            }
        }
        assertEquals(count[0] + (shared ? 90 : 0), world.sharedMemoryCollectiveCalls());
    }

    /**
     * Bcast and allgather data larger than a slot go through the slots in chunks: with 64-byte
     * slots and sizes that end inside, at and just past chunk boundaries (and in a chunk's
     * header line), every byte of every datatype class arrives, with every root, in place and
     * not, from heap arrays and a native segment, through more chunks than a rank has slots;
     * each call counts as one shared-memory call, with the chunks switched on ({@code on}) and by
     * default ({@code auto}; see also {@link #twoRanksBcastAndAllgatherLargerThanASlotInChunks}).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2 on", "3 on", "4 on", "2 auto", "3 auto", "4 auto"})
    void bcastAndAllgatherLargerThanASlotGoThroughItInChunks(String job) {
        String[] w = job.split(" ");
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0,
                List.of("-Dtessera.shm.coll.slotBytes=64", "-Dtessera.shm.coll.chunks=" + w[1]))
                .run(Integer.parseInt(w[0]), SharedMemoryCollectivesTest::chunkedBcastAndAllgather);
    }

    /**
     * Two ranks send bcast data and allgather blocks larger than a slot through the slots in
     * chunks by default ({@code auto}), in the default 64 KiB slots: sizes just past a slot, a
     * multiple of it, and sizes that end inside a chunk or inside an element's worth of the last
     * one, from root 0 and root 1, as bytes, doubles and a native segment, arrive whole (each
     * call one shared-memory call); so do a bcast just under 256 KiB and an allgather of 256 KiB
     * per rank. {@code off} sends none of them through the slots, with the same data.
     */
    @ParameterizedTest(name = "chunks {0}")
    @ValueSource(strings = {"auto", "off"})
    void twoRanksBcastAndAllgatherLargerThanASlotInChunks(String chunks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.shm.coll.chunks=" + chunks, SLOTS))
                .run(2, world -> {
                    int me = world.rank();
                    boolean on = chunks.equals("auto");
                    int call = 0;
                    for (int bytes : new int[] {64 * 1024 + 8, 100_003, 256 * 1024, 256 * 1024 + 13, 300_001, 1024 * 1024 - 24,
                            1024 * 1024 + 8}) {
                        for (int root = 0; root < 2; root++, call++) {
                            String at = bytes + " bytes from root " + root + " on rank " + me;
                            long before = world.sharedMemoryCollectiveCalls();
                            byte[] b = new byte[bytes];
                            double[] d = new double[bytes / 8];
                            java.lang.foreign.MemorySegment seg = java.lang.foreign.Arena.ofAuto().allocate(bytes / 8 * 8L, 8);
                            for (int i = 0; i < bytes; i++) {
                                b[i] = me == root ? (byte) mark(root, call, i) : 0;
                            }
                            for (int i = 0; i < d.length; i++) {
                                d[i] = me == root ? mark(root, call, i) : -1;
                                seg.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, i, me == root ? ~mark(root, call, i) : 0);
                            }
                            world.bcast(Buffer.of(b), root);
                            world.bcast(Buffer.of(d), root);
                            world.bcast(Buffer.of(seg, dev.tessera.comm.Datatype.LONG), root);
                            for (int i = 0; i < bytes; i++) {
                                if (b[i] != (byte) mark(root, call, i)) {
                                    assertEquals((byte) mark(root, call, i), b[i], "byte " + i + " of " + at);
                                }
                            }
                            for (int i = 0; i < d.length; i++) {
                                if (d[i] != mark(root, call, i)) {
                                    assertEquals((double) mark(root, call, i), d[i], "double " + i + " of " + at);
                                }
                                long v = seg.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, i);
                                if (v != ~mark(root, call, i)) {
                                    assertEquals(~mark(root, call, i), v, "native long " + i + " of " + at);
                                }
                            }
                            assertEquals(before + (on ? 3 : 0), world.sharedMemoryCollectiveCalls(),
                                    "calls through shared memory, " + at);
                        }
                    }
                    long before = world.sharedMemoryCollectiveCalls();
                    byte[] under = new byte[256 * 1024 - 1];
                    if (me == 1) {
                        java.util.Arrays.fill(under, (byte) 77);
                    }
                    world.bcast(Buffer.of(under), 1);
                    assertEquals(77, under[under.length - 1]);
                    long[] mine = new long[32 * 1024];
                    java.util.Arrays.fill(mine, me + 5L);
                    long[] all = new long[2 * mine.length];
                    world.allgather(Buffer.of(mine), Buffer.of(all));
                    for (int i = 0; i < all.length; i++) {
                        assertEquals(i < mine.length ? 5L : 6L, all[i], "allgather element " + i);
                    }
                    for (int i = 0; i < under.length; i++) {
                        assertEquals(77, under[i], "bcast element " + i);
                    }
                    assertEquals(before + (on ? 2 : 0), world.sharedMemoryCollectiveCalls(),
                            "a bcast just under 256 KiB and a 256 KiB allgather, chunks " + chunks);
                });
    }

    /**
     * Ranks whose waiting threads sleep (here forced with -Dtessera.wait=block; by default when
     * ranks outnumber cores) and spinning ranks both get 64 KiB slots (spinning ranks had 16 KiB
     * until 2026-11-29): on two ranks a 32 KiB and a 64 KiB bcast fit a slot, one of 64 KiB + 8 B
     * does not (the chunks switched off, so it takes the point-to-point path).
     */
    @ParameterizedTest(name = "wait {0}")
    @ValueSource(strings = {"spin", "block"})
    void spinningAndBlockingRanksGet64KiBSlots(String wait) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.wait=" + wait, SLOTS,
                "-Dtessera.shm.coll.chunks=off")).run(2, world -> {
            int me = world.rank();
            for (int ints : new int[] {8 * 1024, 16 * 1024, 16 * 1024 + 2}) {   // 32 KiB, 64 KiB, 64 KiB + 8 B
                int[] data = new int[ints];
                for (int i = 0; i < ints; i++) {
                    data[i] = me == 1 ? i * 3 + ints : -1;
                }
                long before = world.sharedMemoryCollectiveCalls();
                world.bcast(Buffer.of(data), 1);
                boolean fits = 4L * ints <= 64 * 1024;
                assertEquals(before + (fits ? 1 : 0), world.sharedMemoryCollectiveCalls(),
                        "a bcast of " + 4 * ints + " bytes through a slot, wait " + wait);
                for (int i = 0; i < ints; i++) {
                    assertEquals(i * 3 + ints, data[i], "element " + i + " of " + ints);
                }
            }
        });
    }

    /**
     * A rank killed before a bcast that goes through the slots in chunks (64-byte slots, 4 KiB):
     * the root, which runs a few chunks ahead and then waits for that rank to free a slot, ends
     * the job with the error naming it; nobody finishes the bcast and nobody hangs.
     */
    @ParameterizedTest(name = "wait {0}")
    @ValueSource(strings = {"spin", "block"})
    void aRankKilledBeforeAChunkedBcastEndsTheJobNamingIt(String wait) {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60), 0,
                List.of("-Dtessera.wait=" + wait, "-Dtessera.shm.coll.slotBytes=64")).launch(3, world -> {
                    world.barrier();
                    if (world.rank() == 1) {
                        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                        Thread.sleep(60_000);
                    }
                    byte[] data = new byte[4096];
                    world.bcast(Buffer.of(data), 0);
                    System.out.println("rank " + world.rank() + " passed a chunked bcast without rank 1");
                }, List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("rank 1 exited with status 137"), r.output());
        assertTrue(r.output().lines().anyMatch(l -> l.startsWith("[0] tessera: rank 0 failed") && l.contains("rank 1")
                && (l.contains("died or was killed") || l.contains("exited with status 137"))),
                "the root must fail naming rank 1:\n" + r.output());
        assertFalse(r.output().contains("passed a chunked bcast without rank 1"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    /**
     * The agreement check on the chunked path: one rank passes another count to a bcast or
     * allgather that goes through the slots in chunks (and so a different number of chunks):
     * the job ends with the disagreement error naming both counts, not a hang.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bcast", "allgather"})
    void aCountMismatchInAChunkedCallIsReported(String call) {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60), 0,
                List.of("-Dtessera.shm.coll.slotBytes=64")).launch(3, world -> {
                    int n = world.rank() == 2 ? 600 : 500;
                    if (call.equals("bcast")) {
                        world.bcast(Buffer.of(new double[n]), 0);
                    } else {
                        world.allgather(Buffer.of(new double[n * world.size()]));
                    }
                    world.barrier();
                }, List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("ranks disagree on the collective call"), r.output());
        int per = call.equals("bcast") ? 1 : 3;
        assertTrue(r.output().contains("passed a count of " + 600 * per + " elements")
                && r.output().contains("passed a count of " + 500 * per + " elements"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    /** Value of element i of rank r's data in call c, distinct across ranks, calls and positions. */
    private static long mark(int r, int c, int i) {
        return r * 1_000_003L + c * 7919L + i;
    }

    static void chunkedBcastAndAllgather(Comm world) {
        int p = world.size();
        int me = world.rank();
        int call = 0;
        for (int n : new int[] {1, 7, 8, 9, 16, 17, 63, 64, 65, 200, 1000}) {
            int root = call % p;
            long before = world.sharedMemoryCollectiveCalls();
            // bcast: bytes (n bytes), ints (4n), doubles and longs (8n), chars (2n), a native segment of longs
            byte[] b = new byte[n];
            int[] in = new int[n];
            double[] d = new double[n];
            char[] ch = new char[n];
            java.lang.foreign.MemorySegment seg = java.lang.foreign.Arena.ofAuto().allocate(8L * n, 8);
            for (int i = 0; i < n; i++) {
                boolean r = me == root;
                b[i] = r ? (byte) mark(root, call, i) : 0;
                in[i] = r ? (int) mark(root, call, i) : -1;
                d[i] = r ? mark(root, call, i) : -1;
                ch[i] = r ? (char) mark(root, call, i) : 0;
                seg.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, i, r ? mark(root, call, i) : -1);
            }
            world.bcast(Buffer.of(b), root);
            world.bcast(Buffer.of(in), root);
            world.bcast(Buffer.of(d), root);
            world.bcast(Buffer.of(ch), root);
            world.bcast(Buffer.of(seg, dev.tessera.comm.Datatype.LONG), root);
            for (int i = 0; i < n; i++) {
                String at = "n = " + n + ", root " + root + ", element " + i + ", rank " + me;
                assertEquals((byte) mark(root, call, i), b[i], "bcast byte " + at);
                assertEquals((int) mark(root, call, i), in[i], "bcast int " + at);
                assertEquals((double) mark(root, call, i), d[i], "bcast double " + at);
                assertEquals((char) mark(root, call, i), ch[i], "bcast char " + at);
                assertEquals(mark(root, call, i), seg.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, i),
                        "bcast native long " + at);
            }
            // allgather: n longs (8n bytes) and n shorts (2n) per rank, out of place; n floats in place
            long[] mine = new long[n];
            short[] sh = new short[n];
            float[] all = new float[p * n];
            for (int i = 0; i < n; i++) {
                mine[i] = mark(me, call, i);
                sh[i] = (short) mark(me, call, i);
                all[me * n + i] = mark(me, call, i) % 100_000;
            }
            long[] gl = new long[p * n];
            short[] gs = new short[p * n];
            world.allgather(Buffer.of(mine), Buffer.of(gl));
            world.allgather(Buffer.of(sh), Buffer.of(gs));
            world.allgather(Buffer.of(all));
            for (int j = 0; j < p; j++) {
                for (int i = 0; i < n; i++) {
                    String at = "n = " + n + ", block " + j + ", element " + i + ", rank " + me;
                    assertEquals(mark(j, call, i), gl[j * n + i], "allgather long " + at);
                    assertEquals((short) mark(j, call, i), gs[j * n + i], "allgather short " + at);
                    assertEquals((float) (mark(j, call, i) % 100_000), all[j * n + i], "allgather float in place " + at);
                }
            }
            assertEquals(before + 8, world.sharedMemoryCollectiveCalls(), "calls through shared memory, n = " + n);
            call++;
        }
    }

    /**
     * Reduce and allreduce of vectors larger than a slot go through the slots in chunks: with
     * 64-byte slots (8 doubles, 16 ints, 64 bytes per chunk) and counts that end inside, at and
     * just past a chunk boundary, every element of every datatype class is right, for symmetric
     * built-in operations, MINLOC (pairs) and a non-commutative user operation (rank order), in
     * and out of place; each call counts as one shared-memory call. Two ranks run a reduce of a
     * symmetric built-in operation through the root's fold ({@code pairReduce}, the default) and,
     * with {@code -Dtessera.shm.coll.pairReduce=off}, through the split.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2 ranks", "2 ranks pairReduce=off", "3 ranks", "4 ranks"})
    void reductionsLargerThanASlotGoThroughItInChunks(String job) {
        List<String> opts = new java.util.ArrayList<>(List.of("-Dtessera.shm.coll.slotBytes=64", SLOTS));
        if (job.contains("pairReduce=off")) {
            opts.add("-Dtessera.shm.coll.pairReduce=off");
        }
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, opts)
                .run(Integer.parseInt(job.split(" ")[0]), SharedMemoryCollectivesTest::chunkedReductions);
    }

    /** Small signed values, exact in every type: rank r's element i. */
    private static long value(int r, int i) {
        return ((r + 1) * 7L + i * 3L) % 23 - 11;
    }

    static void chunkedReductions(Comm world) {
        int p = world.size();
        int me = world.rank();
        Op fold = Op.create((in, io, n, t) -> {   // io = in * 31 + io: the order of the ranks shows in the result
            for (int i = 0; i < n; i++) {
                io.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i,
                        in.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i) * 31
                                + io.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i));
            }
        }, false);
        int call = 0;
        for (int n : new int[] {1, 7, 8, 9, 16, 17, 64, 65, 1000}) {
            int root = call++ % p;
            long[] sum = new long[n];
            long[] max = new long[n];
            long[] min = new long[n];
            long[] xor = new long[n];
            long[] folded = new long[n];
            for (int i = 0; i < n; i++) {
                max[i] = Long.MIN_VALUE;
                min[i] = Long.MAX_VALUE;
                folded[i] = value(p - 1, i);
                for (int r = 0; r < p; r++) {
                    sum[i] += value(r, i);
                    max[i] = Math.max(max[i], value(r, i));
                    min[i] = Math.min(min[i], value(r, i));
                    xor[i] ^= value(r, i);
                }
                for (int r = p - 2; r >= 0; r--) {
                    folded[i] = value(r, i) * 31 + folded[i];
                }
            }
            double[] d = new double[n];
            float[] f = new float[n];
            long[] l = new long[n];
            int[] in = new int[n];
            short[] sh = new short[n];
            char[] ch = new char[n];
            byte[] b = new byte[n];
            for (int i = 0; i < n; i++) {
                d[i] = value(me, i);
                f[i] = value(me, i);
                l[i] = value(me, i);
                in[i] = (int) value(me, i);
                sh[i] = (short) value(me, i);
                ch[i] = (char) (value(me, i) + 11);
                b[i] = (byte) value(me, i);
            }
            long before = world.sharedMemoryCollectiveCalls();
            double[] dr = new double[n];
            world.reduce(Buffer.of(d), Buffer.of(dr), Op.SUM, root);
            float[] fr = f.clone();
            world.allreduce(Buffer.of(fr), Op.MAX);
            long[] lr = new long[n];
            world.allreduce(Buffer.of(l), Buffer.of(lr), fold);
            long[] lroot = l.clone();
            world.reduce(Buffer.of(lroot), fold, root);   // in place on every rank
            int[] ir = in.clone();
            world.allreduce(Buffer.of(ir), Op.BXOR);
            short[] sr = new short[n];
            world.reduce(Buffer.of(sh), Buffer.of(sr), Op.MIN, root);
            char[] cr = ch.clone();
            world.allreduce(Buffer.of(cr), Op.SUM);
            byte[] br = new byte[n];
            world.allreduce(Buffer.of(b), Buffer.of(br), Op.MAX);
            int[] iroot = in.clone();
            world.reduce(Buffer.of(iroot), Op.MAX, root);   // built-in, in place on every rank
            float[] fsum = new float[n];
            world.reduce(Buffer.of(f), Buffer.of(fsum), Op.SUM, root);
            double[] dsum = new double[n];
            world.allreduce(Buffer.of(d), Buffer.of(dsum), Op.SUM);   // two ranks: folded into dsum in one pass
            assertEquals(before + 11, world.sharedMemoryCollectiveCalls(), "calls through shared memory, n = " + n);
            for (int i = 0; i < n; i++) {
                String at = "n = " + n + ", element " + i + ", rank " + me;
                if (me == root) {
                    assertEquals(sum[i], dr[i], "reduce SUM double " + at);
                    assertEquals(folded[i], lroot[i], "reduce user (rank order) long in place " + at);
                    assertEquals(min[i], sr[i], "reduce MIN short " + at);
                    assertEquals(max[i], iroot[i], "reduce MAX int in place " + at);
                    assertEquals((float) sum[i], fsum[i], "reduce SUM float " + at);
                } else {
                    assertEquals(value(me, i), iroot[i], "a non-root's in-place built-in contribution is not written " + at);
                    assertEquals(0.0f, fsum[i], "a non-root's float receive buffer is not written " + at);
                    assertEquals(0.0, dr[i], "a non-root's receive buffer is not written " + at);
                    assertEquals(value(me, i), lroot[i], "a non-root's in-place contribution is not written " + at);
                }
                assertEquals(max[i], fr[i], "allreduce MAX float " + at);
                assertEquals((double) sum[i], dsum[i], "allreduce SUM double " + at);
                assertEquals((double) value(me, i), d[i], "allreduce's send buffer is not written " + at);
                assertEquals(folded[i], lr[i], "allreduce user (rank order) long " + at);
                assertEquals(xor[i], ir[i], "allreduce BXOR int " + at);
                assertEquals((char) (sum[i] + 11L * p), cr[i], "allreduce SUM char " + at);
                assertEquals(max[i], br[i], "allreduce MAX byte " + at);
            }
            // MINLOC on (value, index) pairs of doubles: pairs never straddle a chunk
            int pairs = n;
            double[] loc = new double[2 * pairs];
            for (int i = 0; i < pairs; i++) {
                loc[2 * i] = value(me, i) % 5;   // ties between ranks: the smaller index wins
                loc[2 * i + 1] = me;
            }
            world.allreduce(Buffer.of(loc), Op.MINLOC);
            for (int i = 0; i < pairs; i++) {
                double best = Double.MAX_VALUE;
                int who = -1;
                for (int r = 0; r < p; r++) {
                    if (value(r, i) % 5 < best) {
                        best = value(r, i) % 5;
                        who = r;
                    }
                }
                assertEquals(best, loc[2 * i], "MINLOC value, pair " + i + " of " + pairs);
                assertEquals(who, loc[2 * i + 1], "MINLOC index, pair " + i + " of " + pairs);
            }
        }
        // an allreduce and a reduce over 64 KiB per rank take the chunks too
        long[] big = new long[8 * 1024 + 1];
        java.util.Arrays.fill(big, me + 1);
        long before = world.sharedMemoryCollectiveCalls();
        world.allreduce(Buffer.of(big), Op.SUM);
        assertEquals(before + 1, world.sharedMemoryCollectiveCalls(), "an allreduce of 64 KiB + 8 B");
        long[] bigRoot = new long[big.length];
        world.reduce(Buffer.of(big), Buffer.of(bigRoot), Op.SUM, p - 1);
        assertEquals(before + 2, world.sharedMemoryCollectiveCalls(), "a reduce of 64 KiB + 8 B");
        for (int i = 0; i < big.length; i++) {
            assertEquals((long) p * (p + 1) / 2, big[i], "allreduce element " + i);
            assertEquals(me == p - 1 ? (long) p * p * (p + 1) / 2 : 0, bigRoot[i], "reduce element " + i);   // of the sums
        }
    }

    /**
     * With the default slots (64 KiB), vectors of many chunks whose last chunk is partial:
     * every rank combines its share of each chunk and the root (reduce) or every rank
     * (allreduce) collects the others' shares (a two-rank reduce: the root folds the other's
     * chunks); every element checked on every rank, through more chunks than a rank has slots,
     * with every root.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void splitReductionsAtTheDefaultSlotSize(int ranks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of(SLOTS)).run(ranks, world -> {
            int p = world.size();
            int me = world.rank();
            int n = 70_001;   // floats: 4 chunks of 16384 and one of 4465; doubles: 8 of 8192 and one of 4465
            for (int root = 0; root < p; root++) {
                float[] f = new float[n];
                double[] d = new double[n];
                for (int i = 0; i < n; i++) {
                    f[i] = value(me, i);
                    d[i] = value(me, i) + i;
                }
                long before = world.sharedMemoryCollectiveCalls();
                world.allreduce(Buffer.of(f), Op.SUM);
                double[] dr = new double[n];
                world.reduce(Buffer.of(d), Buffer.of(dr), Op.MAX, root);
                assertEquals(before + 2, world.sharedMemoryCollectiveCalls(), "calls through shared memory");
                for (int i = 0; i < n; i++) {
                    long sum = 0;
                    long max = Long.MIN_VALUE;
                    for (int r = 0; r < p; r++) {
                        sum += value(r, i);
                        max = Math.max(max, value(r, i) + i);
                    }
                    assertEquals((float) sum, f[i], "allreduce SUM float, element " + i + ", rank " + me);
                    assertEquals(me == root ? (double) max : 0.0, dr[i], "reduce MAX double to root " + root + ", element "
                            + i + ", rank " + me);
                }
            }
        });
    }

    /**
     * Small reductions (vectors that fit a lane entry, folded element by element where they lie) and
     * larger ones (through the data slots) give the same bits: x0 op (x1 op (... op x(p-1))), with
     * contributions whose float and double sums depend on that order (in float, 1e8 + (1 + (-1e8 + 1)) is 0 and
     * ((1e8 + 1) + -1e8) + 1 is 1), to every root, in place and not, and on every rank of an allreduce.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void smallAndSlotReductionsFoldInTheSameOrder(int ranks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of(SLOTS)).run(ranks, SharedMemoryCollectivesTest::foldOrder);
    }

    /** The body of {@link #smallAndSlotReductionsFoldInTheSameOrder} (also run on the smp device). */
    static void foldOrder(Comm world) {
        int p = world.size();
        int me = world.rank();
        for (int n : new int[] {1, 3, 200}) {   // 4-24 bytes fit a lane entry; 800-1600 bytes go through the slots
            for (int root = 0; root < p; root++) {
                float[] f = new float[n];
                double[] d = new double[n];
                for (int i = 0; i < n; i++) {
                    f[i] = (float) orderedTerm(me, i, FLOAT_BIG);
                    d[i] = orderedTerm(me, i, DOUBLE_BIG);
                }
                float[] fr = new float[n];
                double[] dr = new double[n];
                world.reduce(Buffer.of(f), Buffer.of(fr), Op.SUM, root);
                double[] din = d.clone();
                world.reduce(Buffer.of(din), Op.SUM, root);   // in place
                float[] fa = new float[n];
                world.allreduce(Buffer.of(f), Buffer.of(fa), Op.SUM);
                world.allreduce(Buffer.of(d), Op.SUM);   // in place
                for (int i = 0; i < n; i++) {
                    float fe = (float) orderedTerm(p - 1, i, FLOAT_BIG);
                    double de = orderedTerm(p - 1, i, DOUBLE_BIG);
                    for (int j = p - 2; j >= 0; j--) {
                        fe = (float) orderedTerm(j, i, FLOAT_BIG) + fe;
                        de = orderedTerm(j, i, DOUBLE_BIG) + de;
                    }
                    String at = "n=" + n + " root " + root + " element " + i + " rank " + me;
                    assertEquals(Float.floatToRawIntBits(fe), Float.floatToRawIntBits(fa[i]), "allreduce float " + at);
                    assertEquals(Double.doubleToRawLongBits(de), Double.doubleToRawLongBits(d[i]), "allreduce double in place " + at);
                    if (me == root) {
                        assertEquals(Float.floatToRawIntBits(fe), Float.floatToRawIntBits(fr[i]), "reduce float " + at);
                        assertEquals(Double.doubleToRawLongBits(de), Double.doubleToRawLongBits(din[i]), "reduce double in place " + at);
                    }
                }
            }
        }
    }

    /** The large terms of {@link #orderedTerm}: a float's spacing at 1e8 is 8, a double's at 1e17 is 16. */
    private static final double FLOAT_BIG = 1e8;
    private static final double DOUBLE_BIG = 1e17;

    /**
     * Rank r's term: {@code big}, 1, -big, 1 times (i + 1), plus 3 from rank 4 on, where the
     * spacing of the type at {@code big} swallows the small terms, so the sum depends on the
     * order of the adds (taken as a float for {@link #FLOAT_BIG}).
     */
    private static double orderedTerm(int r, int i, double big) {
        double base = switch (r % 4) {
            case 0 -> big;
            case 1, 3 -> 1;
            default -> -big;
        };
        return base * (i + 1) + (r >= 4 ? 3 : 0);
    }

    /** A rank killed while the others wait for its slot in a shared-memory allreduce; spinning and sleeping waiters. */
    @ParameterizedTest(name = "wait {0}")
    @ValueSource(strings = {"spin", "block"})
    void aRankKilledDuringASharedMemoryCollectiveEndsTheJobNamingIt(String wait) {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60), 0, List.of("-Dtessera.wait=" + wait))
                .launch(3, world -> {
                    world.barrier();
                    long before = world.sharedMemoryCollectiveCalls();
                    assertEquals(1, world.allreduce(1L, Op.MAX));
                    assertEquals(before + 1, world.sharedMemoryCollectiveCalls(), "the allreduce took the shared-memory path");
                    if (world.rank() == 1) {
                        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                        Thread.sleep(60_000);
                    }
                    world.allreduce(2L, Op.SUM);
                    System.out.println("rank " + world.rank() + " passed an allreduce without rank 1");
                }, List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("rank 1 exited with status 137"), r.output());
        for (int rank : new int[] {0, 2}) {
            // the rank's own liveness check ("died or was killed") or the launcher's notice, whichever came first
            assertTrue(r.output().lines().anyMatch(l -> l.startsWith("[" + rank + "] tessera: rank " + rank + " failed")
                    && l.contains("rank 1") && (l.contains("died or was killed") || l.contains("exited with status 137"))),
                    "rank " + rank + " must fail naming rank 1:\n" + r.output());
        }
        assertFalse(r.output().contains("passed an allreduce without rank 1"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    /** Rank 1 starts a nonblocking bcast where rank 0 makes a blocking one: a mismatch error, not a hang. */
    @Test
    void aNonblockingCallAgainstASharedMemoryOneIsAMismatch() {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60)).launch(2, world -> {
            int[] v = {7};
            if (world.rank() == 0) {
                world.bcast(Buffer.of(v), 0);
            } else {
                Thread.sleep(300);   // makes it likely that rank 0 has returned from its bcast first (passes either way)
                world.ibcast(Buffer.of(v), 0).await();
            }
            world.barrier();
        }, List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("ranks disagree on the collective call"), r.output());
        assertTrue(r.output().contains("another kind of collective call") || r.output().contains("Comm.ibcast"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    /** Rank 1 closes without the bcast rank 0 waits in: a mismatch error naming both ranks, not a hang. */
    @Test
    void aRankThatClosesWithoutTheCallIsAMismatch() {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60)).launch(2, world -> {
            world.barrier();
            if (world.rank() == 0) {
                world.bcast(Buffer.of(new int[1]), 1);
            }
        }, List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("ranks disagree on the collective call: rank 0 made Comm.bcast"), r.output());
        assertTrue(r.output().contains("but rank 1 made no such call before it closed"), r.output());
    }

    /** Calls a bcast root (or reduce contributor) finishes while a member has not started the first (NodeCollectives: LANE - CHECK_LAG - 1). */
    private static final int RUN_AHEAD = 32;
    /** The most calls any rank may run ahead of the slowest (half the lane: the default where waits sleep). */
    private static final int MOST_AHEAD = dev.tessera.device.NodeRegion.LANE / 2;
    /** Calls per phase of {@link #aLaneEntryKeepsTheSignatureOfItsLatestCall}: more than the lane's entries. */
    private static final int PHASE_CALLS = dev.tessera.device.NodeRegion.LANE + 6;

    /** Writes {@code calls} into {@code file} (a rank's progress, read by another rank process). */
    private static void progress(String file, int calls) throws java.io.IOException {
        java.nio.file.Path tmp = java.nio.file.Path.of(file + ".tmp");
        java.nio.file.Files.writeString(tmp, Integer.toString(calls));
        java.nio.file.Files.move(tmp, java.nio.file.Path.of(file), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Waits (polling, no timing assumed: the job's timeout ends a hang) until {@code file} holds at least {@code calls}. */
    private static void awaitProgress(String file, int calls) throws Exception {
        java.nio.file.Path path = java.nio.file.Path.of(file);
        while (!java.nio.file.Files.exists(path) || Integer.parseInt(java.nio.file.Files.readString(path).trim()) < calls) {
            Thread.sleep(5);
        }
    }

    /**
     * Calls whose data fits a slot's header line have a deep lane: a bcast root finishes
     * runAhead calls of 8 bytes before the last rank has started its first (it waits for the
     * root's progress file before it does), then, in the other direction, the reduce
     * contributors finish runAhead calls before the root starts; afterwards 300 more calls of
     * each, with rotating roots and a slow rank, give exact results in order (each call's value is
     * distinct), and a larger call in between (data slots, shallow) still works. The last rank
     * starts its last bcast only after the contributors' reduce runAhead - 1: their reduce
     * runAhead then waits for that bcast, and must not wait for the root's later calls too.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2 -Dtessera.shm.coll.ahead=32 32", "4 -Dtessera.shm.coll.ahead=32 32",
        "3 -Dtessera.wait=block 128", "2 -Dtessera.shm.coll.ahead=128 128"})
    void smallCallsRunFarAheadOfADescheduledMember(String job) throws Exception {
        // the deep lane by name, or by default where waits block (more ranks than cores, or
        // TESSERA_WAIT=block: 128 calls ahead, half the lane); the last word is the run-ahead tried
        int ranks = Integer.parseInt(job.split(" ")[0]);
        String option = job.split(" ")[1];
        int runAhead = Integer.parseInt(job.split(" ")[2]);
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("tessera-lane-");
        String root = dir.resolve("root").toString();
        String contributors = dir.resolve("contributor").toString();
        try {
            new ProcessJobRunner("shm", Duration.ofSeconds(100), 0, List.of(option)).run(ranks, world -> {
                int p = world.size();
                int me = world.rank();
                world.barrier();
                // bcast: the root (0) runs ahead of rank p - 1, which starts only after the root finished runAhead calls
                if (me == p - 1) {
                    awaitProgress(root, runAhead);
                }
                for (int i = 0; i < runAhead + 50; i++) {
                    if (me == p - 1 && i == runAhead + 49) {
                        // its last bcast only once the contributors finished all but one of their runAhead reduces:
                        // their next one waits for this call while this rank will then wait for them (stop 44's CI hang)
                        for (int j = 0; j < p - 1; j++) {
                            awaitProgress(contributors + j, runAhead - 1);
                        }
                    }
                    long[] v = {me == 0 ? 1000L + i : -1};
                    world.bcast(Buffer.of(v), 0);
                    assertEquals(1000L + i, v[0], "bcast " + i + " on rank " + me);
                    if (me == 0 && i < runAhead) {
                        progress(root, i + 1);
                    }
                }
                // reduce: every contributor runs runAhead calls ahead of the root (p - 1)
                if (me == p - 1) {
                    for (int j = 0; j < p - 1; j++) {
                        awaitProgress(contributors + j, runAhead);
                    }
                }
                for (int i = 0; i < runAhead + 50; i++) {
                    long[] x = {(long) i * (me + 1)};
                    long[] r = {-1};
                    world.reduce(Buffer.of(x), Buffer.of(r), Op.SUM, p - 1);
                    assertEquals(me == p - 1 ? (long) i * p * (p + 1) / 2 : -1, r[0], "reduce " + i + " on rank " + me);
                    if (me != p - 1 && i < runAhead) {
                        progress(contributors + me, i + 1);
                    }
                }
                // many more, rotating roots, kinds and sizes (one in the data slots), a rank that sleeps now and then
                for (int i = 0; i < 300; i++) {
                    if (me == i % p && i % 37 == 0) {
                        Thread.sleep(20);
                    }
                    int r = i % p;
                    long[] v = {me == r ? i * 31L : -1, me == r ? -i : 0};
                    world.bcast(Buffer.of(v), r);
                    assertArrayEquals(new long[] {i * 31L, -i}, v, "bcast " + i + " from " + r + " on rank " + me);
                    double[] d = {me + i, me * i};
                    double[] dr = {-1, -1};
                    world.reduce(Buffer.of(d), Buffer.of(dr), Op.MAX, (i + 1) % p);
                    if (me == (i + 1) % p) {
                        assertArrayEquals(new double[] {p - 1 + i, (p - 1) * (double) i}, dr, "reduce " + i);
                    }
                    assertEquals((long) i * p, world.allreduce((long) i, Op.SUM), "allreduce " + i);
                    if (i % 50 == 0) {
                        int[] big = new int[64];
                        big[63] = me == r ? i : -1;
                        world.bcast(Buffer.of(big), r);
                        assertEquals(i, big[63], "256-byte bcast " + i);
                    }
                }
            });
        } finally {
            try (var files = java.nio.file.Files.list(dir)) {
                for (java.nio.file.Path f : files.toList()) {
                    java.nio.file.Files.deleteIfExists(f);
                }
            }
            java.nio.file.Files.deleteIfExists(dir);
        }
    }

    /**
     * Calls whose data is too large for a lane entry but fits a middle slot (97 bytes to 1 KiB, or half a data
     * slot) run up to MID_DEPTH - 4 calls ahead: the reduce contributors finish that many 128-byte calls before the
     * root starts its first (it waits for their progress files; with only the 8 data slots they would stop after 4,
     * and the job would end at its timeout). Then 180 calls of bcast, reduce, allreduce and allgather cycle through
     * sizes on both sides of every tier's limit (lane entry, middle slot, data slot, chunks) with rotating roots and a
     * rank that sleeps now and then, each result exact: a middle slot is not reused while a call of another tier is
     * in flight. With 512-byte slots the middle slots take 97-256 bytes and the data slots 257-512.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2", "4", "3 -Dtessera.wait=block", "4 -Dtessera.shm.coll.slotBytes=512"})
    void middleSizedCallsRunAheadAndMixWithTheOtherTiers(String job) throws Exception {
        String[] w = job.split(" ");
        int ranks = Integer.parseInt(w[0]);
        List<String> options = w.length > 1 ? List.of(w[1]) : List.of();
        int runAhead = dev.tessera.device.NodeRegion.MID_DEPTH - 4;
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("tessera-mid-");
        String contributors = dir.resolve("contributor").toString();
        try {
            new ProcessJobRunner("shm", Duration.ofSeconds(100), 0, options).run(ranks, world -> {
                int p = world.size();
                int me = world.rank();
                world.barrier();
                if (me == p - 1) {
                    for (int j = 0; j < p - 1; j++) {
                        awaitProgress(contributors + j, runAhead);
                    }
                }
                for (int i = 0; i < runAhead + 20; i++) {
                    long[] x = new long[16];
                    long[] r = new long[16];
                    for (int t = 0; t < 16; t++) {
                        x[t] = (long) i * (me + 1) + t;
                        r[t] = -1;
                    }
                    world.reduce(Buffer.of(x), Buffer.of(r), Op.SUM, p - 1);
                    for (int t = 0; t < 16; t++) {
                        long want = me == p - 1 ? (long) i * p * (p + 1) / 2 + (long) p * t : -1;
                        assertEquals(want, r[t], "128-byte reduce " + i + ", element " + t + " on rank " + me);
                    }
                    if (me != p - 1 && i < runAhead) {
                        progress(contributors + me, i + 1);
                    }
                }
                mixedTiers(world);
            });
        } finally {
            try (var files = java.nio.file.Files.list(dir)) {
                for (java.nio.file.Path f : files.toList()) {
                    java.nio.file.Files.deleteIfExists(f);
                }
            }
            java.nio.file.Files.deleteIfExists(dir);
        }
    }

    /**
     * 180 calls of bcast, reduce, allreduce and allgather through sizes on both sides of every tier's limit (lane
     * entry, middle slot, data slot, chunks), rotating roots, a rank that sleeps now and then: each result exact.
     */
    static void mixedTiers(Comm world) throws InterruptedException {
        int p = world.size();
        int me = world.rank();
        int[] sizes = {1, 12, 13, 32, 33, 100, 128, 129, 1000, 8 * 1024 + 1, 20_000};
        for (int i = 0; i < 180; i++) {
            int n = sizes[i % sizes.length];
            int r = i % p;
            if (me == r && i % 29 == 0) {
                Thread.sleep(10);
            }
            long[] v = new long[n];
            for (int t = 0; t < n; t++) {
                v[t] = me == r ? i * 1000L + t : -1;
            }
            world.bcast(Buffer.of(v), r);
            for (int t = 0; t < n; t++) {
                assertEquals(i * 1000L + t, v[t], "bcast " + i + " of " + n + " longs from " + r + ", element " + t);
            }
            long[] x = new long[n];
            long[] sum = new long[n];
            for (int t = 0; t < n; t++) {
                x[t] = (long) me * n + t + i;
            }
            int root = (i + 1) % p;
            world.reduce(Buffer.of(x), Buffer.of(sum), Op.SUM, root);
            if (me == root) {
                for (int t = 0; t < n; t++) {
                    assertEquals((long) n * p * (p - 1) / 2 + (long) p * (t + i), sum[t],
                            "reduce " + i + " of " + n + " longs, element " + t);
                }
            }
            double[] d = new double[n];
            for (int t = 0; t < n; t++) {
                d[t] = (me + t + i) % p == 0 ? 1.5 * t + i : -1;
            }
            world.allreduce(Buffer.of(d), Op.MAX);
            for (int t = 0; t < n; t++) {
                assertEquals(1.5 * t + i, d[t], "allreduce " + i + " of " + n + " doubles, element " + t + " on rank " + me);
            }
            int[] mine = new int[n];
            for (int t = 0; t < n; t++) {
                mine[t] = me * 100_000 + t - i;
            }
            int[] all = new int[n * p];
            world.allgather(Buffer.of(mine), Buffer.of(all));
            for (int q = 0; q < p; q++) {
                for (int t = 0; t < n; t++) {
                    assertEquals(q * 100_000 + t - i, all[q * n + t], "allgather " + i + " of " + n + " ints, block " + q);
                }
            }
        }
    }

    /**
     * The agreement check at the deep end of the lane: the root has finished RUN_AHEAD bcasts of
     * 8 bytes before rank p - 1 starts; that rank's call number {@code at} then passes another
     * count, or is a nonblocking ibcast: the job ends with the disagreement error, not a hang and
     * not a wrong value.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"4 count 1", "4 count 32", "2 count 32", "4 ibcast 1", "2 ibcast 20"})
    void aMismatchDeepInTheLaneIsReported(String job) throws Exception {
        String[] w = job.split(" ");
        int ranks = Integer.parseInt(w[0]);
        String kind = w[1];
        int at = Integer.parseInt(w[2]);
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("tessera-lane-");
        String root = dir.resolve("root").toString();
        ProcessJobRunner.Result r;
        try {
            r = new ProcessJobRunner("shm", Duration.ofSeconds(60), 0, List.of("-Dtessera.shm.coll.ahead=32")).launch(ranks, world -> {
                int p = world.size();
                int me = world.rank();
                world.barrier();
                if (me == p - 1) {
                    awaitProgress(root, RUN_AHEAD);
                }
                for (int i = 1; i <= RUN_AHEAD + 10; i++) {
                    boolean odd = me == p - 1 && i == at;
                    long[] v = new long[odd && kind.equals("count") ? 2 : 1];
                    v[0] = me == 0 ? i : -1;
                    if (odd && kind.equals("ibcast")) {
                        world.ibcast(Buffer.of(v), 0).await();
                    } else {
                        world.bcast(Buffer.of(v), 0);
                    }
                    if (v[0] != i) {
                        System.out.println("rank " + me + " got a wrong value " + v[0] + " in call " + i);
                    }
                    if (me == 0 && i <= RUN_AHEAD) {
                        progress(root, i);
                    }
                }
                world.barrier();
                System.out.println("rank " + me + " passed the mismatched bcast");
            }, List.of());
        } finally {
            try (var files = java.nio.file.Files.list(dir)) {
                for (java.nio.file.Path f : files.toList()) {
                    java.nio.file.Files.deleteIfExists(f);
                }
            }
            java.nio.file.Files.deleteIfExists(dir);
        }
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("ranks disagree on the collective call"), r.output());
        if (kind.equals("count")) {
            assertTrue(r.output().contains("passed a count of 2 elements") && r.output().contains("passed a count of 1 elements"),
                    r.output());
        } else {
            assertTrue(r.output().contains("another kind of collective call") || r.output().contains("Comm.ibcast"), r.output());
        }
        assertFalse(r.output().contains("got a wrong value"), r.output());
        assertFalse(r.output().contains("passed the mismatched bcast"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    /**
     * The lane's run-ahead switch: -Dtessera.shm.coll.ahead=4 (as far as calls with data
     * slots) keeps the answers exact; a value outside 1-128 (half the lane) is an argument error naming it.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"4", "0", "129", "x"})
    void theRunAheadSwitch(String value) {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60), 0,
                List.of("-Dtessera.shm.coll.ahead=" + value)).launch(3, world -> {
                    for (int i = 0; i < 100; i++) {
                        long[] v = {world.rank() == i % 3 ? i : -1};
                        world.bcast(Buffer.of(v), i % 3);
                        assertEquals(i, v[0], "bcast " + i);
                        assertEquals(3L * i, world.allreduce((long) i, Op.SUM), "allreduce " + i);
                    }
                    System.out.println("rank " + world.rank() + " finished the bcasts");
                }, List.of());
        if (value.equals("4")) {
            assertEquals(0, r.status(), r.output());
        } else {
            assertNotEquals(0, r.status(), r.output());
            assertTrue(r.output().contains("tessera.shm.coll.ahead: '" + value + "' is not a whole number from 1 to 128"),
                    r.output());
            assertFalse(r.output().contains("finished the bcasts"), r.output());
        }
    }

    /**
     * Small calls at the default run-ahead under the thread levels that keep the
     * right-neighbour range without a lock (FUNNELED, SERIALIZED: one thread at a time calls
     * into the rank) and with it (MULTIPLE, where a second thread of each rank sits in a
     * blocking receive the whole time and so completes pending comparisons while the main
     * thread makes the calls): 2000 rounds of bcast, reduce and allreduce of 8 bytes with
     * rotating roots give exact, distinct results in order, every call through shared memory.
     */
    @ParameterizedTest(name = "{0} ranks {1}")
    @org.junit.jupiter.params.provider.CsvSource({"2, FUNNELED", "2, SERIALIZED", "2, MULTIPLE", "4, MULTIPLE"})
    void smallCallsUnderEachThreadLevel(int ranks, String level) {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(100)).launch(ranks, world -> {
            int p = world.size();
            int me = world.rank();
            boolean multiple = world.threadLevel() == dev.tessera.comm.ThreadLevel.MULTIPLE;
            int[] got = {-1};
            Thread waiter = new Thread(() -> {
                world.recv(Buffer.of(got), (me + 1) % p, 77);   // blocks until the main threads are done
            });
            if (multiple) {
                waiter.start();
            }
            long before = world.sharedMemoryCollectiveCalls();
            for (int i = 0; i < 2000; i++) {
                int root = i % p;
                long[] v = {me == root ? 5L * i + 1 : -1};
                world.bcast(Buffer.of(v), root);
                assertEquals(5L * i + 1, v[0], "bcast " + i + " on rank " + me);
                long[] x = {(long) i * (me + 1)};
                long[] s = {-1};
                world.reduce(Buffer.of(x), Buffer.of(s), Op.SUM, (i + 1) % p);
                assertEquals(me == (i + 1) % p ? (long) i * p * (p + 1) / 2 : -1, s[0], "reduce " + i + " on rank " + me);
                assertEquals((long) i * p, world.allreduce((long) i, Op.SUM), "allreduce " + i + " on rank " + me);
            }
            assertEquals(3 * 2000, world.sharedMemoryCollectiveCalls() - before, "calls through shared memory on rank " + me);
            if (multiple) {
                world.send(Buffer.of(new int[] {me}), (me - 1 + p) % p, 77);
                waiter.join();
                assertEquals((me + 1) % p, got[0], "the waiting thread's message on rank " + me);
            }
            System.out.println("rank " + me + " finished at level " + world.threadLevel());
        }, List.of(level));
        assertEquals(0, r.status(), r.output());
        for (int rank = 0; rank < ranks; rank++) {
            assertTrue(r.output().contains("rank " + rank + " finished at level " + level), r.output());
        }
    }

    /**
     * A disagreement that only the deferred comparison with the right neighbour finds, at the
     * default run-ahead: in its bcast number 20 the last rank names itself the root where the
     * others name rank 0. Two roots read nobody's line during the call (the last rank keeps its
     * own value: MPI leaves this undefined), and the other members read rank 0's, whose
     * signature matches theirs; so only the pending comparison of a neighbour's call 20, made a
     * few calls later, sees the two roots, and it must end the job with the disagreement error
     * naming both roots, before the job passes its 20 + 3 x 128 + 4 calls (a rank compares call 20
     * before it starts call 20 + AHEAD, and the root runs at most AHEAD calls ahead of the slowest;
     * AHEAD is 32 for spinning ranks, 128 for sleeping ones). Under FUNNELED that comparison is
     * made without the lock; under MULTIPLE with it, while a second thread of every rank sits in a
     * receive that never completes (so it compares pending calls too).
     */
    @ParameterizedTest(name = "{0} ranks {1}")
    @org.junit.jupiter.params.provider.CsvSource({"2, FUNNELED", "2, MULTIPLE", "4, FUNNELED", "4, MULTIPLE"})
    void aRootMismatchFoundOnlyByTheDeferredComparison(int ranks, String level) {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60)).launch(ranks, world -> {
            int p = world.size();
            int me = world.rank();
            if (world.threadLevel() == dev.tessera.comm.ThreadLevel.MULTIPLE) {
                Thread waiter = new Thread(() -> world.recv(Buffer.of(new int[1]), (me + 1) % p, 78));   // never sent
                waiter.setDaemon(true);
                waiter.start();
            }
            // 20 + 3 x MOST_AHEAD + 4: the rank that finds it compares call 20 before it starts call
            // 20 + MOST_AHEAD, and rank 0 (root) runs at most MOST_AHEAD calls ahead of it (4 ranks on 2
            // cores sleep in their waits: 128 ahead), so no rank can pass them all
            bcastsWithARootMismatch(world, 20 + 3 * MOST_AHEAD + 4, 20);
        }, List.of(level));
        assertTheRootMismatchEndedTheJob(r, ranks);
    }

    /**
     * A lane entry keeps the signature of its latest call (NodeCollectives.signatureOf, which the
     * deferred comparisons read; stop 43 tried storing it only where it differs, and a store that
     * is skipped wrongly would leave an older call's signature there): six phases of LANE + 6 calls
     * each (more than the lane's entries), every phase changing one field of the signature from the
     * one before (count, element type, root, call, operation), are all correct and must pass with
     * exact values, although the deferred comparisons of each phase read entries last written in
     * the phase before; an entry that kept an older signature makes them report a disagreement
     * that is not there. Then, 100 calls into a last loop of equal bcasts (so every rank's lane
     * entry of that call was last written with an equal signature), the last rank names
     * itself the root: that must still end the job with the disagreement error.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void aLaneEntryKeepsTheSignatureOfItsLatestCall(int ranks) {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60)).launch(ranks, world -> {
            int p = world.size();
            int me = world.rank();
            long before = world.sharedMemoryCollectiveCalls();
            for (int phase = 0; phase < 6; phase++) {
                for (int i = 0; i < PHASE_CALLS; i++) {
                    long want = 1000L * phase + i + 1;
                    switch (phase) {
                        case 0, 1 -> {   // bcast of 1, then 2 longs from rank 0
                            long[] v = new long[phase + 1];
                            java.util.Arrays.fill(v, me == 0 ? want : -1);
                            world.bcast(Buffer.of(v), 0);
                            for (long x : v) {
                                assertEquals(want, x, "phase " + phase + " call " + i + " on rank " + me);
                            }
                        }
                        case 2, 3 -> {   // bcast of 2 ints (another element type) from rank 0, then from rank 1
                            int root = phase - 2;
                            int[] v = new int[2];
                            java.util.Arrays.fill(v, me == root ? (int) want : -1);
                            world.bcast(Buffer.of(v), root);
                            assertEquals(want, v[0], "phase " + phase + " call " + i + " on rank " + me);
                            assertEquals(want, v[1], "phase " + phase + " call " + i + " on rank " + me);
                        }
                        default -> {   // reduce of one long to rank 0: SUM, then MAX
                            Op op = phase == 4 ? Op.SUM : Op.MAX;
                            long[] x = {want * (me + 1)};
                            long[] s = {-1};
                            world.reduce(Buffer.of(x), Buffer.of(s), op, 0);
                            long expect = phase == 4 ? want * p * (p + 1) / 2 : want * p;
                            assertEquals(me == 0 ? expect : -1, s[0], "phase " + phase + " call " + i + " on rank " + me);
                        }
                    }
                }
            }
            assertEquals(6 * PHASE_CALLS, world.sharedMemoryCollectiveCalls() - before, "calls through shared memory on rank " + me);
            System.out.println("rank " + me + " passed the phases");
            bcastsWithARootMismatch(world, 100 + 3 * MOST_AHEAD + 4, 100);
        }, List.of());
        for (int rank = 0; rank < ranks; rank++) {
            assertTrue(r.output().contains("rank " + rank + " passed the phases"), r.output());
        }
        assertTheRootMismatchEndedTheJob(r, ranks);
    }

    /**
     * Out-of-place allgather and alltoall through the slots in chunks copy this rank's own block
     * into the receive buffer a chunk at a time, after each chunk is published (stop 44): with
     * 64-byte slots, blocks that end inside, at and just past a chunk boundary, a receive buffer
     * filled with -1 beforehand, every element of every block is right (the own block included),
     * the send buffer is unchanged, and each call is one shared-memory call; 2 and 3 ranks (the
     * pair exchange and the packed chunks of alltoall), and an in-place allgather in between.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    void ownBlocksGoIntoTheReceiveBufferChunkByChunk(int ranks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.shm.coll.slotBytes=64",
                "-Dtessera.alltoall.slotChunksMax=262144", "-Dtessera.alltoall.slotChunksRanks=4")).run(ranks, world -> {
                    int p = world.size();
                    int me = world.rank();
                    int call = 0;
                    for (int n : new int[] {1, 7, 8, 9, 16, 17, 100, 1000}) {
                        long[] mine = new long[n];
                        int[] send = new int[p * n];
                        for (int i = 0; i < n; i++) {
                            mine[i] = mark(me, call, i);
                        }
                        for (int j = 0; j < p; j++) {
                            for (int i = 0; i < n; i++) {
                                send[j * n + i] = me * 10_000_000 + j * 100_000 + i + call;   // to rank j
                            }
                        }
                        long[] mineBefore = mine.clone();
                        int[] sendBefore = send.clone();
                        long[] all = new long[p * n];
                        int[] recv = new int[p * n];
                        java.util.Arrays.fill(all, -1);
                        java.util.Arrays.fill(recv, -1);
                        float[] inPlace = new float[p * n];
                        for (int i = 0; i < n; i++) {
                            inPlace[me * n + i] = mark(me, call, i) % 100_000;
                        }
                        long before = world.sharedMemoryCollectiveCalls();
                        world.allgather(Buffer.of(mine), Buffer.of(all));
                        world.allgather(Buffer.of(inPlace));
                        world.alltoall(Buffer.of(send), Buffer.of(recv));
                        assertEquals(before + 3, world.sharedMemoryCollectiveCalls(), "shared-memory calls, n = " + n);
                        assertArrayEquals(mineBefore, mine, "allgather send buffer, n = " + n);
                        assertArrayEquals(sendBefore, send, "alltoall send buffer, n = " + n);
                        for (int j = 0; j < p; j++) {
                            for (int i = 0; i < n; i++) {
                                String at = "n = " + n + ", block " + j + ", element " + i + ", rank " + me;
                                assertEquals(mark(j, call, i), all[j * n + i], "allgather " + at);
                                assertEquals((float) (mark(j, call, i) % 100_000), inPlace[j * n + i], "allgather in place " + at);
                                assertEquals(j * 10_000_000 + me * 100_000 + i + call, recv[j * n + i], "alltoall " + at);
                            }
                        }
                        call++;
                    }
                });
    }

    /**
     * {@code calls} bcasts of one long from rank 0, except that in call {@code oddCall} the last
     * rank names itself the root; prints a line for a wrong value and one if the loop ends.
     */
    private static void bcastsWithARootMismatch(Comm world, int calls, int oddCall) {
        int p = world.size();
        int me = world.rank();
        for (int i = 1; i <= calls; i++) {
            boolean odd = me == p - 1 && i == oddCall;
            long[] v = {me == 0 ? i : -1};
            world.bcast(Buffer.of(v), odd ? me : 0);
            if (!odd && v[0] != i) {
                System.out.println("rank " + me + " got a wrong value " + v[0] + " in call " + i);
            }
        }
        System.out.println("rank " + me + " passed the mismatched call");
    }

    /** The job of {@link #bcastsWithARootMismatch} ended, by itself, with the disagreement error naming both roots. */
    private static void assertTheRootMismatchEndedTheJob(ProcessJobRunner.Result r, int ranks) {
        assertNotEquals(0, r.status(), r.output());
        int odd = ranks - 1;
        assertTrue(r.output().contains("ranks disagree on the collective call"), r.output());
        assertTrue(java.util.regex.Pattern.compile("passed root 0 but rank " + odd + " passed root " + odd
                + "|rank " + odd + " passed root " + odd + " but rank \\d passed root 0").matcher(r.output()).find(), r.output());
        assertFalse(r.output().contains("got a wrong value"), r.output());
        assertFalse(r.output().contains("passed the mismatched call"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }
}
