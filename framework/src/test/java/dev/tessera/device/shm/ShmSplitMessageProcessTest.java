package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.Request;
import dev.tessera.conformance.MovingCollector;
import dev.tessera.conformance.ProcessJobRunner;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Split direct messages ({@link ShmDevice#SPLIT_MIN}, the lead piece published before the rest is
 * copied) between real rank processes: heap arrays while a thread of each JVM allocates and calls
 * {@code System.gc()} in a loop, and native segments; every size either side of the split size,
 * the lead piece and the direct limit, odd sizes between; ping-pong, blocking sends head to head,
 * and many messages in flight both ways at once. Spinning ranks, and ranks that sleep on their
 * doorbells between pieces.
 */
@Timeout(180)
class ShmSplitMessageProcessTest {

    static final int[] SIZES = {1025, 2047, 2048, 2049, 4095, 4096, 4097, 6 * 1024 + 3, 8 * 1024 - 1, 8 * 1024,
        8 * 1024 + 1, 10 * 1024 + 5, 12 * 1024, 12 * 1024 + 7, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 32704, 32705};

    static byte[] pattern(int n, int seed) {
        return ShmHeapSingleCopyTest.pattern(n, seed);
    }

    @Test
    void splitMessagesBetweenSpinningProcesses() {
        new ProcessJobRunner("shm", Duration.ofSeconds(150), 0, List.of("-Dtessera.wait=spin", "-Xmx256m"))
                .run(2, ShmSplitMessageProcessTest::exchanges);
    }

    @Test
    void splitMessagesBetweenProcessesThatSleepOnTheirDoorbells() {
        new ProcessJobRunner("shm", Duration.ofSeconds(150), 0, List.of("-Dtessera.wait=block", "-Xmx256m"))
                .run(2, ShmSplitMessageProcessTest::exchanges);
    }

    static void exchanges(Comm world) throws Exception {
        try (MovingCollector collector = MovingCollector.start(true); Arena arena = Arena.ofShared()) {
            int rank = world.rank();
            int peer = 1 - rank;
            int round = 0;
            for (int n : SIZES) {
                round++;
                // ping-pong, heap arrays
                if (rank == 0) {
                    world.send(Buffer.of(pattern(n, round)), 1, 1);
                    byte[] back = new byte[n];
                    assertEquals(n, world.recv(Buffer.of(back), 1, 2).byteCount());
                    assertArrayEquals(pattern(n, round + 100), back, "reply of " + n + " bytes");
                } else {
                    byte[] got = new byte[n];
                    assertEquals(n, world.recv(Buffer.of(got), 0, 1).byteCount());
                    assertArrayEquals(pattern(n, round), got, "message of " + n + " bytes");
                    world.send(Buffer.of(pattern(n, round + 100)), 0, 2);
                }
                // ping-pong, native segments
                MemorySegment out = arena.allocate(n);
                MemorySegment in = arena.allocate(n);
                MemorySegment.copy(MemorySegment.ofArray(pattern(n, round + 200 + rank)), 0, out, 0, n);
                if (rank == 0) {
                    world.send(Buffer.of(out, Datatype.BYTE), 1, 3);
                    world.recv(Buffer.of(in, Datatype.BYTE), 1, 3);
                } else {
                    world.recv(Buffer.of(in, Datatype.BYTE), 0, 3);
                    world.send(Buffer.of(out, Datatype.BYTE), 0, 3);
                }
                assertArrayEquals(pattern(n, round + 200 + peer), in.toArray(ValueLayout.JAVA_BYTE),
                        "native message of " + n + " bytes");
                // both send before either receives (blocking sends head to head)
                world.send(Buffer.of(pattern(n, round + 300 + rank)), peer, 4);
                byte[] got = new byte[n];
                assertEquals(n, world.recv(Buffer.of(got), peer, 4).byteCount());
                assertArrayEquals(pattern(n, round + 300 + peer), got, "head-to-head message of " + n + " bytes");
            }
            // many in flight both ways at once, mixed sizes, one tag: each arrives whole and in order
            int count = 3 * SIZES.length;
            List<Request> rs = new ArrayList<>();
            byte[][] ins = new byte[count][];
            for (int i = 0; i < count; i++) {
                ins[i] = new byte[SIZES[i % SIZES.length]];
                rs.add(world.irecv(Buffer.of(ins[i]), peer, 5));
            }
            for (int i = 0; i < count; i++) {
                rs.add(world.isend(Buffer.of(pattern(SIZES[i % SIZES.length], 1000 + 2 * i + rank)), peer, 5));
            }
            Request.waitAll(rs);
            for (int i = 0; i < count; i++) {
                assertArrayEquals(pattern(SIZES[i % SIZES.length], 1000 + 2 * i + peer), ins[i], "message " + i + " in flight");
            }
            // and sent before the receives are posted: unexpected, buffered in order
            for (int i = 0; i < count; i++) {
                world.send(Buffer.of(pattern(SIZES[i % SIZES.length], 5000 + 2 * i + rank)), peer, 6);
            }
            System.gc();
            for (int i = 0; i < count; i++) {
                byte[] b = new byte[SIZES[i % SIZES.length]];
                world.recv(Buffer.of(b), peer, 6);
                assertArrayEquals(pattern(b.length, 5000 + 2 * i + peer), b, "unexpected message " + i);
            }
            world.barrier();
        }
    }
}
