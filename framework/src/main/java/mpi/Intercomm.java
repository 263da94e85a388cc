package mpi;

import dev.tessera.comm.InterComm;

/**
 * An inter-communicator, as in mpiJava 1.2 (from {@link Comm#Create_intercomm}): two
 * disjoint groups. {@link #Rank()}, {@link #Size()} and {@link #Group()} are the local
 * group's; point-to-point ranks ({@code dest}, {@code source}, {@link Status#source}) name
 * members of the remote group ({@link #Remote_size()}, {@link #Remote_group()}).
 * {@link #Merge} makes the intra-communicator of both groups. Collective operations on the
 * inter-communicator itself are not provided (they fail with {@link MPI#ERR_COMM}): merge first.
 */
public class Intercomm extends Comm {

    private final InterComm inter;

    Intercomm(InterComm inter) {
        super(inter);
        this.inter = inter;
    }

    /** Number of processes in the remote group. */
    public int Remote_size() throws MPIException {
        return inter.remoteSize();
    }

    /** The remote group. */
    public Group Remote_group() throws MPIException {
        return new Group(inter.remoteGroup());
    }

    /**
     * The intra-communicator of both groups (collective over both): the group that passed
     * {@code high == false} comes first; if both passed the same, the group whose leader has
     * the lower world rank.
     */
    public Intracomm Merge(boolean high) throws MPIException {
        return call(() -> derived(new Intracomm(inter.merge(high))));
    }

    /** A duplicate: same groups, new message space (collective over both groups). */
    @Override
    public Object clone() {
        try {
            return call(() -> derived(new Intercomm(inter.dup())));
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    int peerSize() {
        return inter.remoteSize();
    }
}
