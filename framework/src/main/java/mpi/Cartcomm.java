package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.CartComm;

/**
 * A communicator with a Cartesian topology (from {@link Intracomm#Create_cart}): processes
 * on a grid in row-major order (the last dimension varies fastest), each dimension
 * periodic or not.
 */
public class Cartcomm extends Intracomm {

    private final CartComm cart;

    Cartcomm(CartComm cart) {
        super(cart);
        this.cart = cart;
    }

    /** Dimensions, periodicity and this process's coordinates. */
    public CartParms Get() throws MPIException {
        return new CartParms(cart.dims(), cart.periods(), cart.coords());
    }

    /** The rank at grid coordinates (wrapped in periodic dimensions). */
    public int Rank(int[] coords) throws MPIException {
        return call(() -> cart.rankOf(coords));
    }

    /** Grid coordinates of {@code rank}. */
    public int[] Coords(int rank) throws MPIException {
        return call(() -> cart.coords(rank));
    }

    /**
     * The neighbours for a shift by {@code disp} along {@code direction}: this process receives
     * from {@code rank_source} and sends to {@code rank_dest} ({@link MPI#PROC_NULL} beyond a
     * non-periodic edge).
     */
    public ShiftParms Shift(int direction, int disp) throws MPIException {
        return call(() -> {
            CartComm.Shift s = cart.shift(direction, disp);
            return new ShiftParms(s.source(), s.dest());
        });
    }

    /** The sub-grid communicator keeping the dimensions where {@code remain_dims} is true (collective). */
    public Cartcomm Sub(boolean[] remain_dims) throws MPIException {
        return call(() -> {
            if (remain_dims == null || remain_dims.length != cart.ndims()) {
                throw new TesseraException(ErrorClass.DIMS, where("Sub") + ": remain_dims needs " + cart.ndims() + " entries");
            }
            return derived(new Cartcomm(cart.sub(remain_dims)));
        });
    }

    /** The rank this process would have on a grid of {@code dims}: its rank here if inside the grid, else {@link MPI#UNDEFINED}. */
    public int Map(int[] dims, boolean[] periods) throws MPIException {
        return call(() -> {
            long n = 1;
            for (int d : dims) {
                if (d <= 0) {
                    throw new TesseraException(ErrorClass.DIMS, where("Map") + ": dimension " + d + " is not positive");
                }
                n *= d;
            }
            return inner.rank() < n ? inner.rank() : MPI.UNDEFINED;
        });
    }

    /** A duplicate with the same grid (collective). */
    @Override
    public Cartcomm Dup() throws MPIException {
        return call(() -> derived(new Cartcomm(cart.createCart(cart.dims(), cart.periods(), false))));
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
        return MPI.CART;
    }

    /**
     * Fills the zero entries of {@code dims} with a balanced grid shape for {@code nnodes}
     * processes (positive entries are kept), as MPI_Dims_create.
     */
    public static void Dims_create(int nnodes, int[] dims) throws MPIException {
        MPI.run(() -> {
            int[] out = CartComm.dimsCreate(nnodes, dims);
            System.arraycopy(out, 0, dims, 0, dims.length);
        });
    }
}
