package mpi;

/**
 * The result of {@link Graphcomm#Get()}: the graph as given to {@link Intracomm#Create_graph}.
 * Node i's neighbours are {@code edges[index[i-1] .. index[i]-1]} (index[-1] being 0).
 */
public class GraphParms {

    /** Cumulative neighbour counts, one entry per node. */
    public int[] index;
    /** Neighbour lists of all nodes, concatenated. */
    public int[] edges;

    GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }
}
