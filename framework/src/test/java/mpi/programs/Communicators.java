package mpi.programs;

import java.util.Arrays;
import mpi.CartParms;
import mpi.Cartcomm;
import mpi.Comm;
import mpi.GraphParms;
import mpi.Graphcomm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/** Groups, Split, Create, Dup, Compare, Cartesian and graph topologies, Free. Needs at least 2 ranks. */
public class Communicators {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.Errhandler_set(MPI.ERRORS_RETURN);     // the checks below catch the errors they provoke
        Intracomm w = MPI.COMM_WORLD;
        int me = w.Rank();
        int p = w.Size();

        // groups
        Group world = w.Group();
        Check.equal(p, world.Size(), "group size");
        Check.equal(me, world.Rank(), "group rank");
        int[] evens = new int[(p + 1) / 2];
        for (int i = 0; i < evens.length; i++) {
            evens[i] = 2 * i;
        }
        Group even = world.Incl(evens);
        Group odd = world.Excl(evens);
        Check.equal(p / 2, odd.Size(), "Excl size");
        Check.equal(me % 2 == 0 ? me / 2 : MPI.UNDEFINED, even.Rank(), "rank in Incl group");
        Group all = Group.Union(odd, even);
        Check.equal(p > 1 ? MPI.SIMILAR : MPI.IDENT, Group.Compare(all, world), "union of odd and even ranks");
        Check.equal(MPI.IDENT, Group.Compare(Group.Union(even, odd), Group.Union(even, odd)), "identical groups");
        Check.equal(0, Group.Intersection(even, odd).Size(), "Intersection");
        Check.equal(MPI.IDENT, Group.Compare(Group.Difference(world, odd), even), "Difference");
        Check.equal(MPI.UNEQUAL, Group.Compare(even, odd), "unequal groups");
        if (p > 1) {
            int[] t = Group.Translate_ranks(world, new int[] {0, 1}, odd);
            Check.equal(MPI.UNDEFINED, t[0], "Translate_ranks of a non-member");
            Check.equal(0, t[1], "Translate_ranks");
        }
        Group ranged = world.Range_incl(new int[][] {{p - 1, 0, -1}});
        Check.equal(p - 1, Group.Translate_ranks(world, new int[] {0}, ranged)[0], "Range_incl reversed");
        Check.equal(0, world.Range_excl(new int[][] {{0, p - 1, 1}}).Size(), "Range_excl of everything");
        Check.equal(0, MPI.GROUP_EMPTY.Size(), "GROUP_EMPTY");

        // Split: colour by parity, key reverses the order
        Intracomm half = w.Split(me % 2, -me);
        Check.equal(me % 2 == 0 ? (p + 1) / 2 : p / 2, half.Size(), "Split size");
        int[] members = new int[half.Size()];
        half.Allgather(new int[] {me}, 0, 1, MPI.INT, members, 0, 1, MPI.INT);
        for (int i = 1; i < members.length; i++) {
            Check.that(members[i - 1] > members[i], "Split orders by key: " + Arrays.toString(members));
        }
        Check.that(w.Split(me == 0 ? 0 : MPI.UNDEFINED, 0) == null || me == 0, "UNDEFINED colour gets null");

        // Create from the even group
        Intracomm evenComm = w.Create(even);
        Check.that((evenComm != null) == (me % 2 == 0), "Create on members only");
        if (evenComm != null) {
            Check.equal(me / 2, evenComm.Rank(), "rank in created communicator");
            int[] sum = new int[1];
            evenComm.Allreduce(new int[] {1}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            Check.equal(evens.length, sum[0], "collective on created communicator");
            evenComm.Free();
            Check.that(evenComm.Is_null(), "freed communicator");
            Check.fails(MPI.ERR_COMM, "barrier", evenComm::Barrier);
        }

        // Dup and Compare
        Intracomm dup = w.Dup();
        Check.equal(MPI.IDENT, Comm.Compare(w, w), "Compare with itself");
        Check.equal(MPI.CONGRUENT, Comm.Compare(w, dup), "Compare with a duplicate");
        Intracomm reversed = w.Split(0, -me);
        Check.equal(p > 1 ? MPI.SIMILAR : MPI.CONGRUENT, Comm.Compare(w, reversed), "Compare with a reordered copy");
        if (half.Size() < p) {
            Check.equal(MPI.UNEQUAL, Comm.Compare(w, half), "Compare with a subset");
        }
        Intracomm cloned = (Intracomm) w.clone();
        Check.equal(p, cloned.Size(), "clone");
        // messages on a duplicate do not match receives on the original
        int[] box = new int[1];
        mpi.Request onWorld = w.Irecv(box, 0, 1, MPI.INT, me, 5);
        dup.Send(new int[] {1}, 0, 1, MPI.INT, me, 5);
        w.Send(new int[] {2}, 0, 1, MPI.INT, me, 5);
        onWorld.Wait();
        Check.equal(2, box[0], "contexts are separate");
        dup.Recv(box, 0, 1, MPI.INT, me, 5);
        Check.equal(1, box[0], "message on the duplicate");
        Check.equal(MPI.UNDEFINED, w.Topo_test(), "no topology");
        Check.that(!w.Test_inter(), "intracommunicator");

        // Cartesian topology
        int[] dims = new int[2];
        Cartcomm.Dims_create(p, dims);
        Check.equal(p, dims[0] * dims[1], "Dims_create product");
        Check.that(dims[0] >= dims[1], "Dims_create non-increasing");
        int[] fixed = {0, 1};
        Cartcomm.Dims_create(p, fixed);
        Check.equal(p, fixed[0], "Dims_create keeps fixed dimensions");
        Cartcomm grid = w.Create_cart(dims, new boolean[] {true, false}, false);
        Check.equal(MPI.CART, grid.Topo_test(), "Topo_test CART");
        CartParms cp = grid.Get();
        Check.that(Arrays.equals(dims, cp.dims), "Get dims");
        Check.that(cp.periods[0] && !cp.periods[1], "Get periods");
        Check.that(Arrays.equals(grid.Coords(grid.Rank()), cp.coords), "Coords of self");
        Check.equal(grid.Rank(), grid.Rank(cp.coords), "Rank of own coordinates");
        Check.equal(me, grid.Rank(), "no reordering");
        ShiftParms down = grid.Shift(0, 1);
        Check.equal(grid.Rank(new int[] {Math.floorMod(cp.coords[0] - 1, dims[0]), cp.coords[1]}), down.rank_source,
                "periodic shift source");
        ShiftParms across = grid.Shift(1, 1);
        Check.equal(cp.coords[1] == dims[1] - 1 ? MPI.PROC_NULL : me + 1, across.rank_dest, "non-periodic shift dest");
        // a shift exchange along dimension 0
        int[] got = {-1};
        grid.Sendrecv(new int[] {me}, 0, 1, MPI.INT, down.rank_dest, 6, got, 0, 1, MPI.INT, down.rank_source, 6);
        Check.equal(down.rank_source, got[0], "exchange along a periodic dimension");
        Cartcomm rowComm = grid.Sub(new boolean[] {false, true});
        Check.equal(dims[1], rowComm.Size(), "Sub keeps dimension 1");
        Check.equal(cp.coords[1], rowComm.Rank(), "rank in the row");
        Check.equal(me < p ? me : MPI.UNDEFINED, grid.Map(dims, new boolean[] {true, false}), "Cart Map");
        Cartcomm smaller = w.Create_cart(new int[] {1}, new boolean[] {false}, false);
        Check.that((smaller == null) == (me > 0), "processes beyond the grid get null");
        Cartcomm gridDup = grid.Dup();
        Check.equal(MPI.CONGRUENT, Comm.Compare(grid, gridDup), "Cartcomm Dup");

        // graph topology: a ring
        int[] index = new int[p];
        int[] edges = new int[2 * p];
        for (int i = 0; i < p; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i + p - 1) % p;
            edges[2 * i + 1] = (i + 1) % p;
        }
        Graphcomm ring = w.Create_graph(index, edges, false);
        Check.equal(MPI.GRAPH, ring.Topo_test(), "Topo_test GRAPH");
        GraphParms gp = ring.Get();
        Check.that(Arrays.equals(index, gp.index) && Arrays.equals(edges, gp.edges), "graph Get");
        int[] nb = ring.Neighbours(me);
        Check.that(Arrays.equals(new int[] {(me + p - 1) % p, (me + 1) % p}, nb), "Neighbours " + Arrays.toString(nb));
        Check.equal(me, ring.Map(index, edges), "Graph Map");
        Check.fails(MPI.ERR_RANK, "Create_graph", () -> w.Create_graph(new int[] {1}, new int[] {5}, false));

        // free works on everything but the world
        dup.Free();
        Check.fails(MPI.ERR_COMM, "free", () -> MPI.COMM_WORLD.Free());
        MPI.Finalize();
    }
}
