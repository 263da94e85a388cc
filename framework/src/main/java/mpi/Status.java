package mpi;

/**
 * The outcome of a receive, probe or wait, as in mpiJava 1.2: the public fields
 * {@link #source}, {@link #tag} and {@link #index} (the position of the completed request
 * in the array given to {@code Waitany}, {@code Testany}, {@code Waitsome}, ...), and the
 * size of the message through {@link #Get_count} and {@link #Get_elements}.
 */
public class Status {

    /** Rank of the sender in the communicator of the receive ({@link MPI#ANY_SOURCE} for sends). */
    public int source;
    /** Tag of the message ({@link MPI#ANY_TAG} for sends). */
    public int tag;
    /** Index of the completed request in a Waitany/Testany/Waitsome/Testsome array; else {@link MPI#UNDEFINED}. */
    public int index = MPI.UNDEFINED;

    /** Number of base elements (array elements) the message held. */
    int elements;
    boolean cancelled;

    /** An empty status (any source, any tag, no elements), as MPJ Express's no-argument constructor. */
    public Status() {
        this(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, false);
    }

    Status(int source, int tag, int elements, boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.elements = elements;
        this.cancelled = cancelled;
    }

    /** The status of an operation that moved nothing (sends, null requests). */
    static Status empty() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, false);
    }

    /** The status of a completed send: empty, or cancelled. */
    static Status sent(dev.tessera.comm.Status s) {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, s.cancelled());
    }

    static Status of(dev.tessera.comm.Status s) {
        return new Status(s.cancelled() ? MPI.ANY_SOURCE : s.source(), s.cancelled() ? MPI.ANY_TAG : s.tag(),
                s.count(), s.cancelled());
    }

    Status withIndex(int i) {
        index = i;
        return this;
    }

    /**
     * Number of items of {@code datatype} the message held, or {@link MPI#UNDEFINED} if the
     * number of elements is not a whole number of items.
     */
    public int Get_count(Datatype datatype) throws MPIException {
        int size = datatype.size0();
        if (size == 0) {
            return 0;
        }
        return elements % size == 0 ? elements / size : MPI.UNDEFINED;
    }

    /** Number of base elements (of the datatype's primitive type) the message held. */
    public int Get_elements(Datatype datatype) throws MPIException {
        return elements;
    }

    /** True if the operation was cancelled by {@link Request#Cancel()}. */
    public boolean Test_cancelled() throws MPIException {
        return cancelled;
    }

    @Override
    public String toString() {
        return "Status[source " + source + ", tag " + tag + ", elements " + elements
                + (cancelled ? ", cancelled" : "") + (index != MPI.UNDEFINED ? ", index " + index : "") + "]";
    }
}
