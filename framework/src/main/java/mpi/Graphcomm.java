package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.util.Arrays;

/**
 * A communicator with a graph topology (from {@link Intracomm#Create_graph}): node i is
 * the process of rank i, and its neighbours are listed in the graph. The topology is
 * information only; any process may still talk to any other.
 */
public class Graphcomm extends Intracomm {

    private final int[] index;
    private final int[] edges;

    Graphcomm(dev.tessera.comm.Comm inner, int[] index, int[] edges) {
        super(inner);
        this.index = index;
        this.edges = edges;
    }

    /** Checks a graph description for {@code size} processes. */
    static void check(String where, int[] index, int[] edges, int size) {
        if (index == null || edges == null) {
            throw new TesseraException(ErrorClass.ARG, where + ": index and edges must not be null");
        }
        if (index.length > size) {
            throw new TesseraException(ErrorClass.ARG, where + ": graph of " + index.length + " nodes needs more than the "
                    + size + " processes of the communicator");
        }
        int previous = 0;
        for (int i = 0; i < index.length; i++) {
            if (index[i] < previous || index[i] > edges.length) {
                throw new TesseraException(ErrorClass.ARG, where + ": index[" + i + "] = " + index[i]
                        + " must be non-decreasing and at most edges.length (" + edges.length + ")");
            }
            previous = index[i];
        }
        for (int e : edges) {
            if (e < 0 || e >= index.length) {
                throw new TesseraException(ErrorClass.RANK, where + ": edge to node " + e + " outside the graph of "
                        + index.length + " nodes");
            }
        }
    }

    /** The graph: index and edges as given at creation. */
    public GraphParms Get() throws MPIException {
        return new GraphParms(index.clone(), edges.clone());
    }

    /** The neighbours of {@code rank}. */
    public int[] Neighbours(int rank) throws MPIException {
        if (rank < 0 || rank >= index.length) {
            throw new MPIException(MPI.ERR_RANK, where("Neighbours") + ": invalid rank " + rank + " (graph of "
                    + index.length + " nodes)");
        }
        return Arrays.copyOfRange(edges, rank == 0 ? 0 : index[rank - 1], index[rank]);
    }

    /** The rank this process would have in a graph of {@code index.length} nodes, or {@link MPI#UNDEFINED}. */
    public int Map(int[] index, int[] edges) throws MPIException {
        return call(() -> {
            check(where("Map"), index, edges, Integer.MAX_VALUE);
            return inner.rank() < index.length ? inner.rank() : MPI.UNDEFINED;
        });
    }

    /** A duplicate with the same graph (collective). */
    @Override
    public Graphcomm Dup() throws MPIException {
        return call(() -> derived(new Graphcomm(inner.dup(), index, edges)));
    }

    @Override
    public Object clone() {
        try {
            return Dup();
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public int Topo_test() throws MPIException {
        return MPI.GRAPH;
    }
}
