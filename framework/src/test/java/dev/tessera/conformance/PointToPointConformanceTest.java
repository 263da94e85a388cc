package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import dev.tessera.comm.Status;
import dev.tessera.device.smp.SmpFabric;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Point-to-point semantics, on every device. */
@Timeout(120)
class PointToPointConformanceTest {

    static final int EAGER = (int) SmpFabric.DEFAULT_EAGER_LIMIT;

    static Stream<JobRunner> runners() {
        return Runners.withMpich().stream();
    }

    static Stream<Arguments> runnersAndSizes() {
        List<Integer> sizes = List.of(0, 1, EAGER - 1, EAGER, EAGER + 1, 1 << 20, 16 << 20);
        return Runners.withMpich().stream().flatMap(r -> sizes.stream().map(s -> Arguments.of(r, s)));
    }

    static Stream<Arguments> runnersAndRanks() {
        return Runners.withMpich().stream().flatMap(r -> Stream.of(2, 3, 4, 7).filter(r::runs).map(n -> Arguments.of(r, n)));
    }

    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    @ParameterizedTest(name = "{0}: {1} bytes")
    @MethodSource("runnersAndSizes")
    void pingPongDeliversEveryByte(JobRunner runner, int bytes) {
        runner.run(2, world -> {
            byte[] expected = pattern(bytes, 7);
            byte[] buf = new byte[bytes];
            if (world.rank() == 0) {
                world.send(Buffer.of(expected), 1, 3);
                Status s = world.recv(Buffer.of(buf), 1, 4);
                assertEquals(bytes, s.count());
                assertEquals(1, s.source());
                assertEquals(4, s.tag());
                assertArrayEquals(expected, buf);
            } else {
                Status s = world.recv(Buffer.of(buf), 0, 3);
                assertEquals(bytes, s.byteCount());
                assertArrayEquals(expected, buf);
                world.send(Buffer.of(buf), 0, 4);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void largeMessagesFromNativeMemoryReachEveryKindOfReceive(JobRunner runner) {
        largeNativeMessages(runner);
    }

    /**
     * The same cases on shm with single copy switched on (its default on Intel processors and on AMD
     * before family 26), from 8 KiB: messages that fit one ring cell go by single copy too.
     */
    @Test
    @Timeout(120)
    void largeMessagesFromNativeMemoryBySingleCopyReachEveryKindOfReceive() {
        largeNativeMessages(new ProcessJobRunner("shm", java.time.Duration.ofSeconds(90), 0,
                List.of("-Dtessera.shm.singleCopy=true")));
    }

    /** The same cases on shm with single copy switched off: native memory through the ring's cells. */
    @Test
    @Timeout(120)
    void largeMessagesFromNativeMemoryThroughTheRingReachEveryKindOfReceive() {
        largeNativeMessages(new ProcessJobRunner("shm", java.time.Duration.ofSeconds(90), 0,
                List.of("-Dtessera.shm.singleCopy=false")));
    }

    /**
     * The same cases from heap arrays on shm with the single copy of heap arrays on (the sender
     * offers its array from inside a critical downcall while the receiver reads it) and off (the
     * ring), with single copy on in both.
     */
    @Test
    @Timeout(120)
    void largeMessagesFromHeapArraysBySingleCopyReachEveryKindOfReceive() {
        largeMessages(new ProcessJobRunner("shm", java.time.Duration.ofSeconds(90), 0,
                List.of("-Dtessera.shm.singleCopy=true", "-Dtessera.shm.heapSingleCopy=true")), false);
    }

    @Test
    @Timeout(120)
    void largeMessagesFromHeapArraysThroughTheRingReachEveryKindOfReceive() {
        largeMessages(new ProcessJobRunner("shm", java.time.Duration.ofSeconds(90), 0,
                List.of("-Dtessera.shm.singleCopy=true", "-Dtessera.shm.heapSingleCopy=false")), false);
    }

    private static void largeNativeMessages(JobRunner runner) {
        largeMessages(runner, true);
    }

    private static void largeMessages(JobRunner runner, boolean nativeSource) {
        // Native send buffers are what the shm device can move by single copy (the receiver reads
        // the sender's memory): posted and unexpected receives, heap and native targets,
        // truncation, and order with small messages around them.
        // 8 KiB - 1 and 8 KiB: either side of single copy's smallest message (16 KiB up to stop 73);
        // 20000: single copy of a message that fits one ring cell
        int[] sizes = {8 * 1024 - 1, 8 * 1024, 16 * 1024 - 1, 16 * 1024, 20000, 64 * 1024 - 1, 64 * 1024, (1 << 20) + 3, 16 << 20};
        runner.run(2, world -> {
            // a shared arena: a confined segment is copied into the heap by Buffer (the device's
            // threads may not read it), so it would never reach the single-copy path
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
                for (int n : sizes) {
                    byte[] expected = pattern(n, n % 251);
                    if (world.rank() == 0) {
                        java.lang.foreign.MemorySegment src = arena.allocate(n, 64);
                        java.lang.foreign.MemorySegment.copy(expected, 0, src, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, n);
                        Buffer b = nativeSource ? Buffer.of(src, dev.tessera.comm.Datatype.BYTE) : Buffer.of(expected.clone());
                        world.send(b, 1, 1);                                   // posted, into a byte array
                        Request early = world.isend(b, 1, 2);                  // unexpected, into native memory
                        world.send(Buffer.of(new byte[] {42}), 1, 3);          // a small one behind it
                        world.barrier();
                        early.await();
                        world.send(b, 1, 4);                                   // truncated at the receiver
                        world.barrier();
                    } else {
                        byte[] got = new byte[n];
                        assertEquals(n, world.recv(Buffer.of(got), 0, 1).byteCount());
                        assertArrayEquals(expected, got);
                        byte[] small = new byte[1];
                        Status first = world.recv(Buffer.of(small), 0, 3);
                        assertEquals(42, small[0]);
                        assertEquals(3, first.tag());
                        world.barrier();
                        java.lang.foreign.MemorySegment dst = arena.allocate(n, 64);
                        world.recv(Buffer.of(dst, dev.tessera.comm.Datatype.BYTE), 0, 2);
                        assertArrayEquals(expected, dst.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                        byte[] shortBuf = new byte[n / 2];
                        TesseraException e = assertThrows(TesseraException.class, () -> world.recv(Buffer.of(shortBuf), 0, 4));
                        assertEquals(ErrorClass.TRUNCATE, e.errorClass());
                        assertArrayEquals(Arrays.copyOf(expected, n / 2), shortBuf);
                        world.barrier();
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void messagesFromOneSenderArriveInSendOrderAcrossProtocols(JobRunner runner) {
        runner.run(2, world -> {
            int n = 40;
            if (world.rank() == 0) {
                Request[] sends = new Request[n];
                for (int i = 0; i < n; i++) {
                    int len = (i % 3 == 0) ? EAGER * 4 : 8;
                    long[] msg = new long[len / 8];
                    Arrays.fill(msg, i);
                    sends[i] = world.isend(Buffer.of(msg), 1, 9);
                }
                Request.waitAll(sends);
            } else {
                for (int i = 0; i < n; i++) {
                    long[] buf = new long[EAGER / 2];
                    Status s = world.recv(Buffer.of(buf), 0, Comm.ANY_TAG);
                    assertEquals(i, buf[0], "message " + i + " overtaken");
                    assertEquals(((i % 3 == 0) ? EAGER * 4 : 8) / 8, s.count());
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void anySourceReceivesFromEverySenderInPerSenderOrder(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int perSender = 20;
            if (world.rank() != 0) {
                for (int i = 0; i < perSender; i++) {
                    world.send(Buffer.of(new int[] {world.rank(), i}), 0, 1);
                }
            } else {
                Map<Integer, Integer> next = new HashMap<>();
                for (int k = 0; k < perSender * (world.size() - 1); k++) {
                    int[] msg = new int[2];
                    Status s = world.recv(Buffer.of(msg), Comm.ANY_SOURCE, 1);
                    assertEquals(s.source(), msg[0]);
                    int expected = next.getOrDefault(msg[0], 0);
                    assertEquals(expected, msg[1], "order from rank " + msg[0]);
                    next.put(msg[0], expected + 1);
                }
                for (int r = 1; r < world.size(); r++) {
                    assertEquals(perSender, next.get(r));
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void probeReportsSizeThenReceiveGetsIt(JobRunner runner) {
        runner.run(3, world -> {
            if (world.rank() > 0) {
                world.send(Buffer.of(new double[world.rank() * 1000]), 0, 10 + world.rank());
            } else {
                for (int k = 0; k < 2; k++) {
                    Status p = world.probe(Comm.ANY_SOURCE, Comm.ANY_TAG);
                    assertEquals(p.source() * 1000, p.count());
                    assertEquals(10 + p.source(), p.tag());
                    double[] buf = new double[p.count()];
                    Status s = world.recv(Buffer.of(buf), p.source(), p.tag());
                    assertEquals(p.count(), s.count());
                }
                assertTrue(world.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG).isEmpty());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void receiveIntoTooSmallBufferIsTruncationError(JobRunner runner) {
        runner.run(2, world -> {
            if (world.rank() == 0) {
                world.send(Buffer.of(new int[10]), 1, 0);
                world.send(Buffer.of(new int[EAGER]), 1, 0);
            } else {
                TesseraException e = assertThrows(TesseraException.class, () -> world.recv(Buffer.of(new int[5]), 0, 0));
                assertEquals(ErrorClass.TRUNCATE, e.errorClass());
                assertTrue(e.getMessage().contains("rank 1") && e.getMessage().contains("Comm.recv"), e.getMessage());
                e = assertThrows(TesseraException.class, () -> world.recv(Buffer.of(new int[5]), 0, 0));
                assertEquals(ErrorClass.TRUNCATE, e.errorClass());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void receiveOfAnotherElementTypeIsTypeError(JobRunner runner) {
        runner.run(2, world -> {
            if (world.rank() == 0) {
                world.send(Buffer.of(new double[4]), 1, 0);
            } else {
                TesseraException e = assertThrows(TesseraException.class, () -> world.recv(Buffer.of(new long[4]), 0, 0));
                assertEquals(ErrorClass.TYPE, e.errorClass());
                assertTrue(e.getMessage().contains("DOUBLE") && e.getMessage().contains("LONG"), e.getMessage());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void ssendDoesNotCompleteBeforeTheReceiveStarts(JobRunner runner) {
        runner.run(2, world -> {
            if (world.rank() == 0) {
                Request r = world.issend(Buffer.of(new byte[8]), 1, 5);
                for (int i = 0; i < 1000; i++) {
                    assertFalse(r.test(), "ssend completed before the receive was posted");
                }
                world.send(Buffer.of(new byte[1]), 1, 6);
                r.await();
            } else {
                world.recv(Buffer.of(new byte[1]), 0, 6);
                world.recv(Buffer.of(new byte[8]), 0, 5);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void everyBufferKindRoundTrips(JobRunner runner) {
        runner.run(2, BufferKindCases::roundTripAllKinds);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void objectsTravelSerialized(JobRunner runner) {
        runner.run(2, world -> {
            if (world.rank() == 0) {
                world.sendObject(Map.of("answer", List.of(4, 2)), 1, 0);
                world.sendObject(null, 1, 1);
            } else {
                Map<String, List<Integer>> m = world.recvObject(0, 0);
                assertEquals(List.of(4, 2), m.get("answer"));
                Comm.Received<Object> r = world.recvObjectWithStatus(Comm.ANY_SOURCE, Comm.ANY_TAG);
                assertEquals(null, r.value());
                assertEquals(1, r.status().tag());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void procNullCompletesAtOnce(JobRunner runner) {
        runner.run(1, world -> {
            world.send(Buffer.of(new int[3]), Comm.PROC_NULL, 0);
            Status s = world.recv(Buffer.of(new int[3]), Comm.PROC_NULL, 0);
            assertEquals(Comm.PROC_NULL, s.source());
            assertEquals(0, s.count());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void badArgumentsNameRankCallAndArgument(JobRunner runner) {
        runner.run(2, world -> {
            TesseraException e = assertThrows(TesseraException.class, () -> world.send(Buffer.of(new int[1]), 7, 0));
            assertEquals(ErrorClass.RANK, e.errorClass());
            assertTrue(e.getMessage().contains("rank " + world.rank() + ": Comm.send") && e.getMessage().contains("7"),
                    e.getMessage());
            e = assertThrows(TesseraException.class, () -> world.send(Buffer.of(new int[1]), 0, -5));
            assertEquals(ErrorClass.TAG, e.errorClass());
            e = assertThrows(TesseraException.class, () -> world.recv(Buffer.of(new int[1]), -7, 0));
            assertEquals(ErrorClass.RANK, e.errorClass());
            e = assertThrows(TesseraException.class, () -> Buffer.of(new int[4], 2, -1));
            assertEquals(ErrorClass.COUNT, e.errorClass());
            e = assertThrows(TesseraException.class, () -> Buffer.of(new int[4], 2, 3));
            assertEquals(ErrorClass.BUFFER, e.errorClass());
            e = assertThrows(TesseraException.class, () -> world.recv(null, 0, 0));
            assertEquals(ErrorClass.BUFFER, e.errorClass());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void unmatchedReceiveCanBeCancelled(JobRunner runner) {
        runner.run(2, world -> {
            Request r = world.irecv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 99);
            assertTrue(r.cancel());
            assertTrue(r.await().cancelled());
            world.barrier();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void waitAnyAndTestSomeReportCompletedRequests(JobRunner runner) {
        runner.run(3, world -> {
            if (world.rank() == 0) {
                int[] a = new int[1];
                int[] b = new int[1];
                Request[] rs = {world.irecv(Buffer.of(a), 1, 0), world.irecv(Buffer.of(b), 2, 0)};
                int first = Request.waitAny(rs);
                assertTrue(first == 0 || first == 1);
                Request.waitAll(rs);
                assertEquals(2, Request.testSome(rs).length);
                assertTrue(Request.testAll(rs));
                assertEquals(1, a[0]);
                assertEquals(2, b[0]);
            } else {
                world.send(Buffer.of(new int[] {world.rank()}), 0, 0);
            }
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void sendrecvRingShiftsValues(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            int[] in = new int[1];
            world.sendrecv(Buffer.of(new int[] {world.rank()}), (world.rank() + 1) % p, 0,
                    Buffer.of(in), (world.rank() - 1 + p) % p, 0);
            assertEquals((world.rank() - 1 + p) % p, in[0]);
            long[] v = {world.rank()};
            world.sendrecvReplace(Buffer.of(v), (world.rank() + 1) % p, 1, (world.rank() - 1 + p) % p, 1);
            assertEquals((world.rank() - 1 + p) % p, v[0]);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void largeMessagesCrossingInBothDirectionsAtOnceDoNotDeadlock(JobRunner runner) {
        runner.run(2, world -> {
            int peer = 1 - world.rank();
            for (int bytes : new int[] {EAGER * 8, 300_000, 4 << 20}) {
                byte[] out = pattern(bytes, world.rank());
                byte[] in = new byte[bytes];
                Request s1 = world.isend(Buffer.of(out), peer, 1);
                Request s2 = world.isend(Buffer.of(out), peer, 2);
                world.recv(Buffer.of(in), peer, 2);
                assertArrayEquals(pattern(bytes, peer), in);
                world.recv(Buffer.of(in), peer, 1);
                Request.waitAll(s1, s2);
                assertArrayEquals(pattern(bytes, peer), in);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void freedCommunicatorRejectsUse(JobRunner runner) {
        runner.run(2, world -> {
            Comm c = world.dup();
            c.free();
            TesseraException e = assertThrows(TesseraException.class, () -> c.send(Buffer.of(new int[1]), 0, 0));
            assertEquals(ErrorClass.COMM, e.errorClass());
            assertTrue(e.getMessage().contains("after free"), e.getMessage());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void nonblockingObjectReceivesMatchInTheOrderTheyWerePosted(JobRunner runner) {
        runner.run(3, world -> {
            if (world.rank() == 0) {
                dev.tessera.comm.ObjectRequest<String> first = world.irecvObject(Comm.ANY_SOURCE, 7);
                dev.tessera.comm.ObjectRequest<String> second = world.irecvObject(1, 7);
                dev.tessera.comm.ObjectRequest<java.util.List<Integer>> other = world.irecvObject(2, Comm.ANY_TAG);
                world.barrier();   // every message has been sent
                assertEquals(java.util.List.of(2, 3), other.get());
                assertEquals(2, other.status().source());
                assertEquals("one-a", first.get());      // the earliest matching receive takes rank 1's first message
                assertEquals("one-b", second.get());
                assertEquals(1, second.status().source());
                String blocking = world.recvObject(1, 7);
                assertEquals("one-c", blocking);
                dev.tessera.comm.ObjectRequest<Object> never = world.irecvObject(1, 99);
                assertTrue(never.cancel());
                assertTrue(never.await().cancelled());
            } else if (world.rank() == 1) {
                world.sendObject("one-a", 0, 7);
                world.sendObject("one-b", 0, 7);
                world.sendObject("one-c", 0, 7);
                world.barrier();
            } else {
                world.sendObject(new java.util.ArrayList<>(java.util.List.of(2, 3)), 0, 5);
                world.barrier();
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void waitAnySkipsNullSlotsWhereverTheyAre(JobRunner runner) {
        runner.run(2, world -> {
            int[] got = new int[1];
            if (world.rank() == 0) {
                Request[] rs = {null, world.irecv(Buffer.of(got), 1, 3), null};
                assertEquals(1, Request.waitAny(rs));
                assertEquals(41, got[0]);
                assertEquals(-1, Request.waitAny(new Request[] {null, null}));
            } else {
                world.send(Buffer.of(new int[] {41}), 0, 3);
            }
        });
    }
}
