package mpjdev;

/**
 * The part of MPJ Express's device layer that programs written against {@code mpi.*} use:
 * the overheads that size {@code mpjbuf.Buffer}s. Tessera's devices are not driven through
 * this package ({@code MPJDev.init} and the device-level {@code Comm} are not provided);
 * programs use {@code mpi.*} or Tessera's {@code dev.tessera.comm}.
 */
public final class MPJDev {

    private MPJDev() {
    }

    /** Bytes reserved at the start of a sent {@code mpjbuf.Buffer}: {@code mpi.MPI.SEND_OVERHEAD}. */
    public static int getSendOverhead() {
        return mpi.MPI.SEND_OVERHEAD;
    }

    /** Bytes reserved at the start of a received {@code mpjbuf.Buffer}: {@code mpi.MPI.RECV_OVERHEAD}. */
    public static int getRecvOverhead() {
        return mpi.MPI.RECV_OVERHEAD;
    }
}
