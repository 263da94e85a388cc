package mpi;

/** The result of {@link Cartcomm#Get()}: the grid's dimensions and periodicity, and the caller's coordinates. */
public class CartParms {

    /** Number of processes along each dimension. */
    public int[] dims;
    /** Whether each dimension wraps around. */
    public boolean[] periods;
    /** The calling process's coordinates. */
    public int[] coords;

    CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    /** Number of dimensions. */
    public int getDimCount() {
        return dims.length;
    }
}
