package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Group;
import dev.tessera.comm.Op;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Communicators, groups and Cartesian topologies. */
@Timeout(120)
class CommunicatorConformanceTest {

    static Stream<Arguments> runnersAndRanks() {
        return Runners.all().stream().flatMap(r -> Stream.of(1, 2, 3, 4, 7).filter(r::runs).map(n -> Arguments.of(r, n)));
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void splitGroupsByColorAndOrdersByKeyThenRank(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int me = world.rank();
            int p = world.size();
            // color: parity; key: descending rank, so new ranks reverse the old order within a color.
            Comm half = world.split(me % 2, p - me);
            int expectedSize = (p + 1 - me % 2) / 2;
            assertEquals(expectedSize, half.size());
            int larger = 0;
            for (int r = me + 2; r < p; r += 2) {
                larger++;
            }
            assertEquals(larger, half.rank());
            // Traffic in the new communicator stays there: sum of world ranks of my color.
            int sum = half.allreduce(me, Op.SUM);
            int expected = 0;
            for (int r = me % 2; r < p; r += 2) {
                expected += r;
            }
            assertEquals(expected, sum);
            Comm none = world.split(me == 0 ? Comm.UNDEFINED : 1, 0);
            if (me == 0) {
                assertNull(none);
            } else {
                assertEquals(p - 1, none.size());
                assertEquals(me - 1, none.rank());
            }
            // Equal keys keep the old order.
            Comm same = world.split(0, 5);
            assertEquals(me, same.rank());
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void dupHasItsOwnMessageSpace(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            Comm copy = world.dup();
            assertEquals(world.rank(), copy.rank());
            assertEquals(world.size(), copy.size());
            int p = world.size();
            int right = (world.rank() + 1) % p;
            int left = (world.rank() - 1 + p) % p;
            // Same tag on both communicators: each receive must get its own communicator's message.
            var a = world.isend(Buffer.of(new int[] {1}), right, 0);
            var b = copy.isend(Buffer.of(new int[] {2}), right, 0);
            int[] fromCopy = new int[1];
            int[] fromWorld = new int[1];
            copy.recv(Buffer.of(fromCopy), left, 0);
            world.recv(Buffer.of(fromWorld), left, 0);
            a.await();
            b.await();
            assertEquals(2, fromCopy[0]);
            assertEquals(1, fromWorld[0]);
            copy.free();
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void createFromAGroupIncludesOnlyItsMembers(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            Group evens = world.group().excl(oddRanks(p));
            Comm c = world.create(evens);
            if (world.rank() % 2 == 0) {
                assertNotNull(c);
                assertEquals(world.rank() / 2, c.rank());
                assertEquals((p + 1) / 2, c.size());
                c.barrier();
            } else {
                assertNull(c);
            }
        });
    }

    private static int[] oddRanks(int p) {
        return java.util.stream.IntStream.range(0, p).filter(r -> r % 2 == 1).toArray();
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void cartesianShiftFindsNeighboursPeriodicAndNot(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            int[] dims = CartComm.dimsCreate(p, new int[2]);
            assertEquals(p, dims[0] * dims[1]);
            CartComm grid = world.createCart(dims, new boolean[] {true, false}, false);
            int[] c = grid.coords();
            assertEquals(grid.rank(), grid.rankOf(c));
            CartComm.Shift rows = grid.shift(0, 1);
            assertEquals(grid.rankOf(Math.floorMod(c[0] - 1, dims[0]), c[1]), rows.source());
            assertEquals(grid.rankOf(Math.floorMod(c[0] + 1, dims[0]), c[1]), rows.dest());
            CartComm.Shift cols = grid.shift(1, 1);
            assertEquals(c[1] == 0 ? Comm.PROC_NULL : grid.rankOf(c[0], c[1] - 1), cols.source());
            assertEquals(c[1] == dims[1] - 1 ? Comm.PROC_NULL : grid.rankOf(c[0], c[1] + 1), cols.dest());
            // A shift exchange works with PROC_NULL at the open edges.
            int[] got = {-5};
            grid.sendrecv(Buffer.of(new int[] {grid.rank()}), cols.dest(), 0, Buffer.of(got), cols.source(), 0);
            assertEquals(cols.source() == Comm.PROC_NULL ? -5 : cols.source(), got[0]);
            CartComm row = grid.sub(false, true);
            assertEquals(dims[1], row.size());
            assertEquals(c[1], row.rank());
            assertArrayEquals(new int[] {dims[1]}, row.dims());
            int rowSum = row.allreduce(grid.rank(), Op.SUM);
            int expected = 0;
            for (int j = 0; j < dims[1]; j++) {
                expected += grid.rankOf(c[0], j);
            }
            assertEquals(expected, rowSum);
            assertThrows(TesseraException.class, () -> grid.rankOf(c[0], dims[1]));
            CartComm dup = (CartComm) grid.dup();
            assertArrayEquals(dims, dup.dims());
        });
    }

    @Test
    void dimsCreateBalancesAndKeepsFixedDimensions() {
        assertArrayEquals(new int[] {4, 3}, CartComm.dimsCreate(12, new int[2]));
        assertArrayEquals(new int[] {2, 2, 2}, CartComm.dimsCreate(8, new int[3]));
        assertArrayEquals(new int[] {7, 1}, CartComm.dimsCreate(7, new int[2]));
        assertArrayEquals(new int[] {2, 3, 1}, CartComm.dimsCreate(6, new int[] {2, 0, 0}));
        assertArrayEquals(new int[] {5, 4, 3}, CartComm.dimsCreate(60, new int[3]));
        TesseraException e = assertThrows(TesseraException.class, () -> CartComm.dimsCreate(7, new int[] {2, 0}));
        assertEquals(ErrorClass.DIMS, e.errorClass());
    }

    @Test
    void groupSetOperationsFollowMpiOrdering() {
        new SmpJobRunner().run(6, world -> {
            Group all = world.group();
            Group a = all.incl(4, 1, 3);
            Group b = all.incl(3, 5, 1);
            assertEquals(all.incl(4, 1, 3, 5), a.union(b));
            assertEquals(all.incl(1, 3), a.intersection(b));
            assertEquals(all.incl(4), a.difference(b));
            assertEquals(all.incl(0, 2, 5), all.excl(4, 1, 3));
            assertArrayEquals(new int[] {Group.UNDEFINED, 2, 0}, a.translateRanks(new int[] {0, 1, 2}, b));
            assertThrows(TesseraException.class, () -> all.incl(6));
            assertThrows(TesseraException.class, () -> all.excl(1, 1));
            assertEquals(0, Group.EMPTY.size());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tessera.conformance.PointToPointConformanceTest#runners")
    void nestedSplitsNeverShareAContext(JobRunner runner) {
        runner.run(4, world -> {
            Comm pairs = world.split(world.rank() / 2, 0);
            Comm again = world.dup();
            Comm pairsOfPairs = pairs.dup();
            // Same tag and neighbours on all three: a mix-up would deliver the wrong value.
            List<Comm> comms = List.of(pairs, again, pairsOfPairs);
            for (int k = 0; k < comms.size(); k++) {
                Comm c = comms.get(k);
                int peer = c.rank() ^ 1;
                if (peer < c.size()) {
                    c.isend(Buffer.of(new int[] {k}), peer, 3);
                }
            }
            for (int k = comms.size() - 1; k >= 0; k--) {
                Comm c = comms.get(k);
                int peer = c.rank() ^ 1;
                if (peer < c.size()) {
                    int[] got = new int[1];
                    c.recv(Buffer.of(got), peer, 3);
                    assertEquals(k, got[0]);
                }
            }
        });
    }

    static Stream<JobRunner> runners() {
        return Runners.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void splitByNodeGroupsTheRanksOfOneMachine(JobRunner runner) {
        runner.run(3, world -> {
            int[] map = world.nodeMap();
            assertEquals(0, map[0], "nodes are numbered from the lowest rank");
            int me = world.rank();
            int mates = 0;
            int highestMate = -1;
            for (int r = 0; r < map.length; r++) {
                assertEquals(true, map[r] <= (r == 0 ? 0 : java.util.Arrays.stream(map, 0, r).max().getAsInt() + 1),
                        "node numbers appear in order: " + java.util.Arrays.toString(map));
                if (map[r] == map[me]) {
                    mates++;
                    highestMate = r;
                }
            }
            Comm node = world.splitByNode();
            assertEquals(mates, node.size(), java.util.Arrays.toString(map));
            assertEquals(highestMate, node.allreduce(me, Op.MAX), "the node communicator holds exactly the node's ranks");
            // one machine, unless the runner emulates nodes (auto: ranks 0-1 and 2 on two nodes)
            assertEquals(true, java.util.Arrays.equals(map, new int[] {0, 0, 0}) || java.util.Arrays.equals(map, new int[] {0, 0, 1}),
                    java.util.Arrays.toString(map));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void createCartBalancesTheDimensionsAndWrapsWhenPeriodic(JobRunner runner) {
        runner.run(4, world -> {
            CartComm cube = world.createCart(3);
            assertArrayEquals(new int[] {2, 2, 1}, cube.dims());
            int[] c = cube.coords();
            // row-major ranks: one step up dimension 0 is two ranks on; the top layer has no neighbour (not periodic)
            assertEquals(c[0] == 1 ? Comm.PROC_NULL : cube.rank() + 2, cube.shift(0, 1).dest());
            CartComm ring = world.createCart(1, true);
            assertEquals((world.rank() + 1) % 4, ring.shift(0, 1).dest());
            assertEquals((world.rank() + 3) % 4, ring.shift(0, 1).source());
        });
    }
}
