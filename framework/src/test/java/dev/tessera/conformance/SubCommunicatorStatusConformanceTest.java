package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import dev.tessera.comm.Status;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The source in a Status is the sender's rank in the communicator of the call, not its world
 * rank: probe, iprobe, recv, irecv, object receives and sendrecv, with a named source and
 * with ANY_SOURCE, on communicators from split, create and createCart whose ranks all
 * differ from the world ranks, on every device.
 */
@Timeout(120)
class SubCommunicatorStatusConformanceTest {

    static Stream<JobRunner> runners() {
        return Runners.withMpich().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void statusSourceIsTheRankInTheCommunicatorOfTheCall(JobRunner runner) {
        runner.run(4, world -> {
            int me = world.rank();
            int p = world.size();
            // split: one color, reversed order, so every rank's new rank is p-1-me.
            Comm reversed = world.split(0, p - me);
            assertEquals(p - 1 - me, reversed.rank());
            exchange(reversed, "split");
            // split into two halves, each reversed: ranks {1,0} of world {0,2} and {1,3}.
            Comm half = world.split(me % 2, -me);
            exchange(half, "split by parity");
            // create: everyone but world rank 0; new rank = world rank - 1.
            Comm rest = world.create(world.group().excl(0));
            if (me != 0) {
                assertNotNull(rest);
                assertEquals(me - 1, rest.rank());
                exchange(rest, "create");
            }
            // createCart on the reversed communicator (no reordering): its ranks are p-1-me as well.
            CartComm grid = reversed.createCart(new int[] {2, p / 2}, new boolean[] {true, true}, false);
            assertEquals(p - 1 - me, grid.rank());
            exchange(grid, "createCart");
            CartComm.Shift shift = grid.shift(0, 1);
            int[] got = new int[1];
            Status s = grid.sendrecv(Buffer.of(new int[] {grid.rank()}), shift.dest(), 21, Buffer.of(got), Comm.ANY_SOURCE, 21);
            assertEquals(shift.source(), s.source(), "createCart: sendrecv from ANY_SOURCE");
            assertEquals(shift.source(), got[0]);
            world.barrier();
        });
    }

    /**
     * Each rank of {@code c} sends its rank in {@code c} to its right neighbour in {@code c}
     * several times, and receives from its left one with every kind of receive; every status
     * must name the left neighbour's rank in {@code c}.
     */
    static void exchange(Comm c, String what) {
        int n = c.size();
        int right = (c.rank() + 1) % n;
        int left = (c.rank() - 1 + n) % n;
        int tag = 10 + c.rank();
        int leftTag = 10 + left;
        Request[] sends = new Request[6];
        for (int k = 0; k < 5; k++) {
            sends[k] = c.isend(Buffer.of(new int[] {c.rank(), k}), right, tag);
        }
        sends[5] = c.isendObject("from " + c.rank(), right, tag);

        Status probed = c.probe(Comm.ANY_SOURCE, Comm.ANY_TAG);
        assertEquals(left, probed.source(), what + ": probe(ANY_SOURCE)");
        assertEquals(leftTag, probed.tag(), what + ": probe tag");
        assertEquals(2, probed.count());
        Status named = c.probe(left, leftTag);
        assertEquals(left, named.source(), what + ": probe(left)");

        Optional<Status> maybe;
        do {
            maybe = c.iprobe(Comm.ANY_SOURCE, leftTag);
        } while (maybe.isEmpty());
        assertEquals(left, maybe.get().source(), what + ": iprobe(ANY_SOURCE)");
        assertEquals(left, c.iprobe(left, Comm.ANY_TAG).orElseThrow().source(), what + ": iprobe(left)");

        int[] v = new int[2];
        Status s = c.recv(Buffer.of(v), Comm.ANY_SOURCE, Comm.ANY_TAG);
        assertEquals(left, s.source(), what + ": recv(ANY_SOURCE)");
        assertEquals(leftTag, s.tag());
        assertEquals(left, v[0]);
        assertEquals(0, v[1]);

        s = c.recv(Buffer.of(v), left, leftTag);
        assertEquals(left, s.source(), what + ": recv(left)");
        assertEquals(1, v[1]);

        s = c.irecv(Buffer.of(v), Comm.ANY_SOURCE, leftTag).await();
        assertEquals(left, s.source(), what + ": irecv(ANY_SOURCE)");
        assertEquals(2, v[1]);

        Request r = c.irecv(Buffer.of(v), left, Comm.ANY_TAG);
        Request.waitAll(r);
        assertEquals(left, r.status().source(), what + ": irecv(left) status()");
        assertEquals(3, v[1]);

        Request polled = c.irecv(Buffer.of(v), Comm.ANY_SOURCE, Comm.ANY_TAG);
        while (!polled.test()) {
            Thread.onSpinWait();
        }
        assertEquals(left, polled.status().source(), what + ": irecv(ANY_SOURCE) by test()");
        assertEquals(4, v[1]);

        Comm.Received<String> o = c.recvObjectWithStatus(Comm.ANY_SOURCE, leftTag);
        assertEquals("from " + left, o.value());
        assertEquals(left, o.status().source(), what + ": recvObject(ANY_SOURCE)");
        Request.waitAll(sends);
        assertTrue(c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG).isEmpty() || n == 1, what + ": nothing left over");
        c.barrier();
    }
}
