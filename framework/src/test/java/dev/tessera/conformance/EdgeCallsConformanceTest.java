package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.Op;
import dev.tessera.comm.Request;
import dev.tessera.comm.Status;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Calls the rest of the suite never made: isendObject, Request.waitSome, cancelling a send,
 * bad counts and displacements in the v-collectives and in reduceScatter, read-only
 * buffers, recvObject of a message that is not an object, and the tag upper bound; on
 * every device and library.
 */
@Timeout(120)
class EdgeCallsConformanceTest {

    static Stream<JobRunner> runners() {
        return Runners.withMpich().stream();
    }

    /** Asserts that {@code call} throws a TesseraException of {@code cls} naming this rank, the call and {@code mentions}. */
    static TesseraException fails(Comm c, ErrorClass cls, String callName, Executable call, String... mentions) {
        TesseraException e = assertThrows(TesseraException.class, call, callName);
        assertEquals(cls, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains("rank ") && e.getMessage().contains(callName), e.getMessage());
        for (String m : mentions) {
            assertTrue(e.getMessage().contains(m), "'" + m + "' in: " + e.getMessage());
        }
        return e;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void isendObjectDeliversAndCompletes(JobRunner runner) {
        runner.run(3, world -> {
            int me = world.rank();
            if (me == 0) {
                Comm.Received<List<Integer>> a = world.recvObjectWithStatus(Comm.ANY_SOURCE, 4);
                Comm.Received<List<Integer>> b = world.recvObjectWithStatus(Comm.ANY_SOURCE, 4);
                TreeSet<Integer> from = new TreeSet<>(List.of(a.status().source(), b.status().source()));
                assertEquals(new TreeSet<>(List.of(1, 2)), from);
                assertEquals(List.of(a.status().source(), 10 * a.status().source()), a.value());
                assertEquals(List.of(b.status().source(), 10 * b.status().source()), b.value());
                String big = world.recvObject(1, 5);
                assertEquals("y".repeat(300_000), big);
            } else {
                Request r = world.isendObject(new java.util.ArrayList<>(List.of(me, 10 * me)), 0, 4);
                Request none = world.isendObject("nobody", Comm.PROC_NULL, 4);
                assertTrue(none.isComplete());
                Request big = me == 1 ? world.isendObject("y".repeat(300_000), 0, 5) : null;
                Request.waitAll(r);
                if (big != null) {
                    big.await();
                }
                fails(world, ErrorClass.TAG, "Comm.isendObject", () -> world.isendObject("x", 0, Comm.TAG_UB + 1),
                        String.valueOf(Comm.TAG_UB + 1));
                fails(world, ErrorClass.RANK, "Comm.isendObject", () -> world.isendObject("x", 3, 0), "3");
            }
            world.barrier();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void waitSomeReturnsEachCompletedRequestUntilAllAreDone(JobRunner runner) {
        runner.run(4, world -> {
            int me = world.rank();
            if (me == 0) {
                int[][] got = new int[3][1];
                Request[] rs = new Request[3];
                for (int i = 0; i < 3; i++) {
                    rs[i] = world.irecv(Buffer.of(got[i]), i + 1, 6);
                }
                world.barrier();   // the senders go one after the other, after this
                TreeSet<Integer> seen = new TreeSet<>();
                while (seen.size() < 3) {
                    // wait on the requests not seen complete yet: each call blocks until one more completes
                    List<Integer> open = new java.util.ArrayList<>();
                    for (int i = 0; i < 3; i++) {
                        if (!seen.contains(i)) {
                            open.add(i);
                        }
                    }
                    Request[] pending = open.stream().map(i -> rs[i]).toArray(Request[]::new);
                    int[] done = Request.waitSome(pending);
                    assertTrue(done.length > 0, "waitSome returned no index");
                    for (int k : done) {
                        assertTrue(pending[k].isComplete(), "index " + k + " is not complete");
                        seen.add(open.get(k));
                    }
                    // let the next sender go (the last acknowledgement goes to rank 1)
                    world.send(Buffer.of(new int[] {seen.size()}), seen.size() < 3 ? seen.size() + 1 : 1, 7);
                }
                for (int i = 0; i < 3; i++) {
                    assertEquals(100 + i + 1, got[i][0]);
                    assertEquals(i + 1, rs[i].status().source());
                }
                assertArrayEquals(new int[] {0, 1, 2}, Request.waitSome(rs), "all completed: every index");
            } else {
                world.barrier();
                if (me > 1) {
                    world.recv(Buffer.of(new int[1]), 0, 7);   // rank 0 saw the earlier ones complete
                }
                world.send(Buffer.of(new int[] {100 + me}), 0, 6);
                if (me == 1) {
                    world.recv(Buffer.of(new int[1]), 0, 7);   // the last acknowledgement
                }
            }
            world.barrier();
        });
    }

    /**
     * Null slots in a request array are ignored by waitSome, testSome, testAll and waitAll,
     * as by waitAny (MPI's null requests); an array of nulls only gives the "nothing to wait
     * for" result (empty index array, waitAny's -1) instead of a NullPointerException.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void waitSomeAndTestSomeIgnoreNullSlots(JobRunner runner) {
        runner.run(3, world -> {
            int me = world.rank();
            if (me == 0) {
                int[][] got = new int[2][1];
                Request[] rs = {null, world.irecv(Buffer.of(got[0]), 1, 6), null, world.irecv(Buffer.of(got[1]), 2, 6), null};
                assertArrayEquals(new int[0], Request.testSome(rs), "nothing sent yet");
                world.barrier();   // the senders send after this
                TreeSet<Integer> seen = new TreeSet<>();
                while (seen.size() < 2) {
                    for (int k : Request.waitSome(rs)) {
                        assertTrue(k == 1 || k == 3, "index " + k + " of a null slot");
                        seen.add(k);
                    }
                }
                assertArrayEquals(new int[] {1, 3}, Request.testSome(rs));
                assertTrue(Request.testAll(rs));
                Status[] st = Request.waitAll(rs);
                assertEquals(1, st[1].source());
                assertEquals(2, st[3].source());
                assertEquals(List.of(11, 12), List.of(got[0][0], got[1][0]));
                Request[] none = new Request[3];
                assertArrayEquals(new int[0], Request.waitSome(none), "waitSome over null slots");
                assertArrayEquals(new int[0], Request.testSome(none), "testSome over null slots");
                assertEquals(-1, Request.waitAny(none), "waitAny over null slots");
            } else {
                world.barrier();
                world.send(Buffer.of(new int[] {10 + me}), 0, 6);
            }
            world.barrier();
        });
    }

    /**
     * A send of a large message that no receive matches can be cancelled or not (as in MPI);
     * either way the outcome is consistent: a cancelled send says so and never arrives, one
     * that was not cancelled arrives whole.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void aCancelledSendNeverArrivesAndOneNotCancelledArrivesWhole(JobRunner runner) {
        runner.run(2, world -> {
            int n = 1 << 20;
            int[] cancelled = new int[1];
            if (world.rank() == 0) {
                byte[] payload = new byte[n];
                java.util.Arrays.fill(payload, (byte) 7);
                Request s = world.isend(Buffer.of(payload), 1, 8);
                boolean c = s.cancel();
                cancelled[0] = c ? 1 : 0;
                world.send(Buffer.of(cancelled), 1, 9);   // before waiting: a send not cancelled waits for its receive
                Status st = s.await();
                assertEquals(c, st.cancelled(), "cancel() and the status agree");
            } else {
                world.recv(Buffer.of(cancelled), 0, 9);
                if (cancelled[0] == 1) {
                    assertTrue(world.iprobe(0, 8).isEmpty(), "a cancelled send arrived");
                } else {
                    byte[] in = new byte[n];
                    Status st = world.recv(Buffer.of(in), 0, 8);
                    assertEquals(n, st.count());
                    for (byte b : in) {
                        assertEquals(7, b);
                    }
                }
            }
            world.barrier();
            if (world.rank() == 1) {
                assertTrue(world.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG).isEmpty(), "nothing left over");
            }
            world.barrier();
        });
    }

    /** Every rank passes the same bad arguments, so every rank fails at once and none waits. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void badCountsAndDisplacementsInVCollectivesAndReduceScatterAreClearErrors(JobRunner runner) {
        runner.run(3, world -> {
            int p = world.size();
            Buffer one = Buffer.of(new int[1]);
            Buffer six = Buffer.of(new int[6]);
            fails(world, ErrorClass.ARG, "Comm.allgatherv", () -> world.allgatherv(one, six, new int[] {1, 1}, new int[] {0, 1}),
                    "one entry per rank");
            fails(world, ErrorClass.COUNT, "Comm.allgatherv", () -> world.allgatherv(one, six, new int[] {1, 1, 1}, new int[] {0, -1, 2}),
                    "displacement -1");
            fails(world, ErrorClass.COUNT, "Comm.allgatherv", () -> world.allgatherv(one, six, new int[] {1, 1, 1}, new int[] {0, 1, 6}),
                    "displacement 6");
            fails(world, ErrorClass.COUNT, "Comm.allgatherv", () -> world.allgatherv(one, six, new int[] {1, -2, 1}, new int[] {0, 1, 2}),
                    "count -2");
            fails(world, ErrorClass.COUNT, "Comm.allgatherv", () -> world.allgatherv(one, six, new int[] {2, 2, 2}, new int[] {0, 2, 4}),
                    "counts[" + world.rank() + "] is 2");
            fails(world, ErrorClass.ARG, "Comm.alltoallv", () -> world.alltoallv(six, new int[] {1, 1, 1}, null, six,
                    new int[] {1, 1, 1}, new int[] {0, 1, 2}), "one entry per rank");
            fails(world, ErrorClass.COUNT, "Comm.alltoallv", () -> world.alltoallv(six, new int[] {1, 1, 1}, new int[] {0, 1, 2}, six,
                    new int[] {1, 1, 2}, new int[] {0, 1, 5}), "lies outside");
            // gatherv and scatterv check at the root only: a one-rank communicator fails without peers waiting
            Comm alone = world.split(world.rank(), 0);
            fails(alone, ErrorClass.COUNT, "Comm.gatherv", () -> alone.gatherv(one, six, new int[] {7}, new int[] {0}, 0),
                    "count 7");
            fails(alone, ErrorClass.COUNT, "Comm.gatherv", () -> alone.gatherv(one, six, new int[] {2}, new int[] {0}, 0),
                    "counts[0] is 2");
            fails(alone, ErrorClass.ARG, "Comm.scatterv", () -> alone.scatterv(six, new int[] {1, 1}, new int[] {0}, one, 0),
                    "one entry per rank");
            fails(alone, ErrorClass.COUNT, "Comm.scatterv", () -> alone.scatterv(six, new int[] {1}, new int[] {-3}, one, 0),
                    "displacement -3");
            Buffer send = Buffer.of(new long[6]);
            Buffer mine = Buffer.of(new long[2]);
            fails(world, ErrorClass.ARG, "Comm.reduceScatter", () -> world.reduceScatter(send, mine, new int[] {2, 2}, Op.SUM),
                    "one entry per rank");
            fails(world, ErrorClass.ARG, "Comm.reduceScatter", () -> world.reduceScatter(send, mine, null, Op.SUM),
                    "one entry per rank");
            fails(world, ErrorClass.COUNT, "Comm.reduceScatter", () -> world.reduceScatter(send, mine, new int[] {4, 4, -2}, Op.SUM),
                    "negative entry -2");
            fails(world, ErrorClass.COUNT, "Comm.reduceScatter", () -> world.reduceScatter(send, mine, new int[] {2, 2, 1}, Op.SUM),
                    "sum to 5");
            fails(world, ErrorClass.COUNT, "Comm.reduceScatter", () -> world.reduceScatter(send, Buffer.of(new long[1]),
                    new int[] {2, 2, 2}, Op.SUM), "share 2");
            fails(world, ErrorClass.TYPE, "Comm.reduceScatter", () -> world.reduceScatter(Buffer.of(new int[6]), mine,
                    new int[] {2, 2, 2}, Op.SUM));
            fails(world, ErrorClass.COUNT, "Comm.reduceScatterBlock", () -> world.reduceScatterBlock(send, Buffer.of(new long[3]), Op.SUM),
                    "needs " + p + " x 3");
            // the same arguments, right, still work afterwards
            long[] out = new long[2];
            world.reduceScatter(Buffer.of(new long[] {1, 2, 3, 4, 5, 6}), Buffer.of(out), new int[] {2, 2, 2}, Op.SUM);
            assertArrayEquals(new long[] {p * (2L * world.rank() + 1), p * (2L * world.rank() + 2)}, out);
            int[] all = new int[6];
            world.allgatherv(Buffer.of(new int[] {world.rank() + 1}), Buffer.of(all), new int[] {1, 1, 1}, new int[] {5, 3, 1});
            assertArrayEquals(new int[] {0, 3, 0, 2, 0, 1}, all);
        });
    }

    /** Read-only buffers: rejected where the call would write into them, accepted where it only reads. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void readOnlyBuffersAreRefusedForReceivingAndAcceptedForSending(JobRunner runner) {
        runner.run(2, world -> {
            int peer = 1 - world.rank();
            ByteBuffer bytes = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
            bytes.putInt(0, 11).putInt(4, 22).putInt(8, 33).putInt(12, 44);
            Buffer ro = Buffer.of(bytes.asReadOnlyBuffer(), Datatype.INT);
            MemorySegment seg = Arena.ofAuto().allocate(16);
            Buffer roSegment = Buffer.of(seg.asReadOnly(), Datatype.INT);
            for (Buffer b : new Buffer[] {ro, roSegment}) {
                fails(world, ErrorClass.BUFFER, "Comm.recv", () -> world.recv(b, peer, 0), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.irecv", () -> world.irecv(b, peer, 0), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.sendrecvReplace", () -> world.sendrecvReplace(b, peer, 0, peer, 0), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.allreduce", () -> world.allreduce(Buffer.of(new int[4]), b, Op.SUM), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.allreduce", () -> world.allreduce(b, Op.SUM), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.scan", () -> world.scan(Buffer.of(new int[4]), b, Op.SUM), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.allgather", () -> world.allgather(Buffer.of(new int[2]), b), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.alltoall", () -> world.alltoall(Buffer.of(new int[4]), b), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.reduceScatterBlock",
                        () -> world.reduceScatterBlock(Buffer.of(new int[8]), b, Op.SUM), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.bcast", () -> world.bcast(b, peer), "read-only");
                fails(world, ErrorClass.BUFFER, "Comm.gather", () -> world.gather(Buffer.of(new int[2]), b, world.rank()),
                        "read-only");
            }
            // reading from read-only memory is fine: send, the send side of collectives, a bcast root
            int[] got = new int[4];
            world.sendrecv(ro, peer, 1, Buffer.of(got), peer, 1);
            assertArrayEquals(new int[] {11, 22, 33, 44}, got);
            int[] sum = new int[4];
            world.allreduce(ro, Buffer.of(sum), Op.SUM);
            assertArrayEquals(new int[] {22, 44, 66, 88}, sum);
            int[] both = new int[8];
            world.allgather(ro, Buffer.of(both));
            assertArrayEquals(new int[] {11, 22, 33, 44, 11, 22, 33, 44}, both);
            int[] fromRoot = new int[4];
            if (world.rank() == 0) {
                world.bcast(ro, 0);
            } else {
                world.bcast(Buffer.of(fromRoot), 0);
                assertArrayEquals(new int[] {11, 22, 33, 44}, fromRoot);
            }
            world.barrier();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void recvObjectOfABufferMessageIsATypeErrorAndTheMessageIsConsumed(JobRunner runner) {
        runner.run(2, world -> {
            if (world.rank() == 0) {
                world.send(Buffer.of(new double[] {1, 2, 3}), 1, 3);
                world.sendObject("after", 1, 3);
            } else {
                fails(world, ErrorClass.TYPE, "Comm.recvObject", () -> world.recvObject(0, 3), "DOUBLE", "rank 0");
                assertEquals("after", world.recvObject(0, 3));
                world.send(Buffer.of(new int[] {5}), 0, 4);
            }
            if (world.rank() == 0) {
                var r = world.irecvObject(1, 4);
                TesseraException e = assertThrows(TesseraException.class, r::get);
                assertEquals(ErrorClass.TYPE, e.errorClass(), e.getMessage());
                assertTrue(e.getMessage().contains("INT"), e.getMessage());
            }
            world.barrier();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void tagsUpToTheUpperBoundTravelAndAboveItAreRefused(JobRunner runner) {
        runner.run(2, world -> {
            int peer = 1 - world.rank();
            int above = Comm.TAG_UB + 1;
            fails(world, ErrorClass.TAG, "Comm.send", () -> world.send(Buffer.of(new int[1]), peer, above), String.valueOf(above));
            fails(world, ErrorClass.TAG, "Comm.isend", () -> world.isend(Buffer.of(new int[1]), peer, above), String.valueOf(above));
            fails(world, ErrorClass.TAG, "Comm.recv", () -> world.recv(Buffer.of(new int[1]), peer, above), String.valueOf(above));
            fails(world, ErrorClass.TAG, "Comm.irecv", () -> world.irecv(Buffer.of(new int[1]), peer, above), String.valueOf(above));
            fails(world, ErrorClass.TAG, "Comm.probe", () -> world.probe(peer, above), String.valueOf(above));
            fails(world, ErrorClass.TAG, "Comm.iprobe", () -> world.iprobe(peer, Integer.MAX_VALUE), String.valueOf(Integer.MAX_VALUE));
            fails(world, ErrorClass.TAG, "Comm.sendObject", () -> world.sendObject("x", peer, above), String.valueOf(above));
            fails(world, ErrorClass.TAG, "Comm.recvObject", () -> world.recvObject(peer, above), String.valueOf(above));
            // the largest tags travel and are matched exactly, small and large messages, on a duplicate too
            Comm dup = world.dup();
            for (Comm c : new Comm[] {world, dup}) {
                for (int n : new int[] {1, 100_000}) {
                    long[] out = new long[n];
                    java.util.Arrays.fill(out, 1000L * world.rank() + n);
                    long[] in = new long[n];
                    Request lower = c.irecv(Buffer.of(new long[n]), peer, Comm.TAG_UB - 1);
                    Status s = c.sendrecv(Buffer.of(out), peer, Comm.TAG_UB, Buffer.of(in), peer, Comm.TAG_UB);
                    assertEquals(Comm.TAG_UB, s.tag());
                    assertEquals(1000L * peer + n, in[n - 1]);
                    c.send(Buffer.of(out), peer, Comm.TAG_UB - 1);
                    assertEquals(Comm.TAG_UB - 1, lower.await().tag());
                }
                Status any = c.sendrecv(Buffer.of(new int[] {3}), peer, Comm.TAG_UB, Buffer.of(new int[1]), peer, Comm.ANY_TAG);
                assertEquals(Comm.TAG_UB, any.tag());
            }
            dup.free();
            world.barrier();
        });
    }
}
