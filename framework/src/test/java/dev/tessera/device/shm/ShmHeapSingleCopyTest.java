package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import dev.tessera.comm.Status;
import dev.tessera.conformance.MovingCollector;
import dev.tessera.conformance.ProcessJobRunner;
import dev.tessera.runtime.internal.ProcessBootstrap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Heap arrays by single copy ({@link HeapCopy}) between real rank processes whose collectors
 * run all the while: every rank's JVM runs a thread that allocates and calls {@code System.gc()}
 * in a loop, and the ranks allocate and collect between messages too, so send and receive
 * arrays move between (and would move during, were they not held) the messages. Sizes either
 * side of the threshold, ping-pong, unexpected messages, messages both ways at once between two
 * ranks and around a ring of three (each rank serves the offer it receives while it waits in its
 * own), truncation, sub-arrays; every byte checked. Then the fallback: no C compiler, no helper,
 * the same messages through the ring.
 */
@Timeout(180)
class ShmHeapSingleCopyTest {

    /**
     * Byte sizes: either side of the 8 KiB threshold, either side of native memory's 16 KiB, one
     * cell, several cells, 1 MiB, two pieces of 2 MiB.
     */
    static final int[] SIZES = {8 * 1024 - 1, 8 * 1024, 8 * 1024 + 1, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 20000, 32 * 1024 + 5, 64 * 1024,
        (256 << 10) + 3, (1 << 20) + 1, (2 << 20) + 5};

    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 131 + seed * 7 + (i >>> 9));
        }
        return b;
    }

    @Test
    void heapArraysGoBySingleCopyWhileBothCollectorsMoveThem() {
        new ProcessJobRunner("shm", Duration.ofSeconds(150), 0, List.of("-Dtessera.shm.singleCopy=true",
                "-Dtessera.shm.heapSingleCopy=true", "-Dtessera.wait=spin", "-Xmx256m"))
                .run(3, world -> exchanges(world, true));
    }

    /**
     * Pieces of 20,000 bytes ({@code tessera.shm.heapSingleCopyPiece}): every message from 20,001
     * bytes is offered piece by piece, up to 105 pieces, with its last piece shorter, a truncated
     * receive that takes part of one piece and none of the next, and a receive of no bytes.
     */
    @Test
    void largeHeapArraysGoPieceByPiece() {
        new ProcessJobRunner("shm", Duration.ofSeconds(150), 0, List.of("-Dtessera.shm.singleCopy=true",
                "-Dtessera.shm.heapSingleCopy=true", "-Dtessera.shm.heapSingleCopyPiece=20000", "-Dtessera.wait=spin",
                "-Xmx256m"))
                .run(3, world -> {
                    assertEquals(20000, HeapCopy.PIECE_BYTES);
                    exchanges(world, true);
                });
    }

    @Test
    void withoutACompilerHeapArraysTakeTheRing() throws Exception {
        Path cache = Files.createTempDirectory("tessera-cache");
        new ProcessJobRunner("shm", Duration.ofSeconds(150), 0, List.of("-Dtessera.shm.singleCopy=true",
                "-Dtessera.shm.heapSingleCopy=true", "-Dtessera.shm.cc=/nonexistent/tessera-test-cc",
                "-Dtessera.cacheDir=" + cache, "-Dtessera.wait=spin", "-Xmx256m"))
                .run(3, world -> {
                    assertTrue(HeapCopy.status().startsWith("off: no C compiler"), HeapCopy.status());
                    exchanges(world, false);
                });
    }

    static void exchanges(Comm world, boolean bySingleCopy) throws Exception {
        ShmDevice d = (ShmDevice) ProcessBootstrap.currentDevice();
        assertEquals(bySingleCopy, d.heapSingleCopy(), "heap single copy on this rank");
        try (MovingCollector collector = MovingCollector.start(true)) {
            int rank = world.rank();
            int round = 0;
            for (int n : SIZES) {
                round++;
                // ping-pong between ranks 0 and 1, fresh arrays each way
                if (rank == 0) {
                    world.send(Buffer.of(pattern(n, round)), 1, 1);
                    churn();
                    byte[] back = new byte[n];
                    assertEquals(n, world.recv(Buffer.of(back), 1, 2).byteCount());
                    assertArrayEquals(pattern(n, round + 100), back, "reply of " + n + " bytes");
                } else if (rank == 1) {
                    byte[] got = new byte[n];
                    assertEquals(n, world.recv(Buffer.of(got), 0, 1).byteCount());
                    assertArrayEquals(pattern(n, round), got, "message of " + n + " bytes");
                    churn();
                    world.send(Buffer.of(pattern(n, round + 100)), 0, 2);
                }
                // unexpected: the receive is posted after the message arrived (probe) and a collection
                if (rank == 0) {
                    world.send(Buffer.of(pattern(n, round + 200)), 1, 3);
                } else if (rank == 1) {
                    Status p = world.probe(0, 3);
                    assertEquals(n, p.byteCount());
                    churn();
                    byte[] got = new byte[n];
                    world.recv(Buffer.of(got), 0, 3);
                    assertArrayEquals(pattern(n, round + 200), got, "unexpected message of " + n + " bytes");
                }
                // both send before either receives: the unexpected message is read into a buffer
                // of its own, so the blocking sends complete as through the ring (no deadlock)
                if (rank < 2) {
                    world.send(Buffer.of(pattern(n, round + 300 + rank)), 1 - rank, 8);
                    churn();
                    byte[] got = new byte[n];
                    assertEquals(n, world.recv(Buffer.of(got), 1 - rank, 8).byteCount());
                    assertArrayEquals(pattern(n, round + 301 - rank), got, "head-to-head message of " + n + " bytes");
                }
                // all at once around the ring of three, and both ways between 0 and 1
                int right = (rank + 1) % 3;
                int left = (rank + 2) % 3;
                byte[] in = new byte[n];
                byte[] inPair = new byte[n];
                List<Request> rs = new ArrayList<>();
                rs.add(world.irecv(Buffer.of(in), left, 4));
                rs.add(world.isend(Buffer.of(pattern(n, round * 10 + rank)), right, 4));
                if (rank < 2) {
                    rs.add(world.irecv(Buffer.of(inPair), 1 - rank, 5));
                    rs.add(world.isend(Buffer.of(pattern(n, round * 10 + 5 + rank)), 1 - rank, 5));
                }
                Request.waitAll(rs);
                assertArrayEquals(pattern(n, round * 10 + left), in, "ring message of " + n + " bytes");
                if (rank < 2) {
                    assertArrayEquals(pattern(n, round * 10 + 5 + 1 - rank), inPair, "pair message of " + n + " bytes");
                }
                churn();
            }
            // truncation and a slice of a double array at an odd offset
            if (rank == 0) {
                world.send(Buffer.of(pattern(50000, 9)), 1, 6);
                double[] a = new double[9000];
                for (int i = 0; i < a.length; i++) {
                    a[i] = i * 0.5 - 17;
                }
                world.send(Buffer.of(a, 3, 8000), 1, 7);
                world.recv(Buffer.of(new byte[1]), 1, 11);   // rank 1's receive of no bytes is posted
                world.send(Buffer.of(pattern(50000, 10)), 1, 9);
            } else if (rank == 1) {
                byte[] shortBuf = new byte[30000];
                dev.tessera.TesseraException e = org.junit.jupiter.api.Assertions.assertThrows(
                        dev.tessera.TesseraException.class, () -> world.recv(Buffer.of(shortBuf), 0, 6));
                assertEquals(dev.tessera.ErrorClass.TRUNCATE, e.errorClass());
                assertArrayEquals(Arrays.copyOf(pattern(50000, 9), 30000), shortBuf);
                double[] b = new double[8005];
                world.recv(Buffer.of(b, 5, 8000), 0, 7);
                for (int i = 0; i < 8000; i++) {
                    assertEquals((i + 3) * 0.5 - 17, b[i + 5], "double " + i);
                }
                for (int i = 0; i < 5; i++) {
                    assertEquals(0.0, b[i], "double before the slice, " + i);
                }
                // a receive of no bytes, posted before the message comes (so it is matched, not read as unexpected)
                Request none0 = world.irecv(Buffer.of(new byte[0]), 0, 9);
                world.send(Buffer.of(new byte[1]), 0, 11);
                dev.tessera.TesseraException none = org.junit.jupiter.api.Assertions.assertThrows(
                        dev.tessera.TesseraException.class, none0::await);
                assertEquals(dev.tessera.ErrorClass.TRUNCATE, none.errorClass());
            }
            world.barrier();
            if (bySingleCopy) {
                assertTrue(d.heapSingleCopies() >= SIZES.length - 1,   // every size but the first
                        "rank " + rank + " sent " + d.heapSingleCopies() + " heap messages by single copy");
            } else {
                assertEquals(0, d.heapSingleCopies(), "heap messages by single copy without the helper");
            }
        }
    }

    /** Allocates and collects: arrays allocated before may move. */
    static void churn() {
        byte[][] junk = new byte[64][];
        for (int i = 0; i < junk.length; i++) {
            junk[i] = new byte[4096 + i];
        }
        System.gc();
        assertFalse(junk[63].length == 0);
    }
}
