package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.util.function.Supplier;

/**
 * A persistent request, made by {@code Send_init}, {@code Bsend_init}, {@code Ssend_init},
 * {@code Rsend_init} or {@code Recv_init}: {@link #Start()} begins one operation with the
 * arguments given at creation, which is then completed like any request (Wait, Test,
 * Waitall, ...). A completed persistent request becomes inactive, not null, and may be
 * started again; {@link #Free()} releases it.
 */
public class Prequest extends Request {

    private final Supplier<Pending> starter;
    private final String call;
    private boolean freed;

    Prequest(String call, Supplier<Pending> starter) {
        super(null);
        this.call = call;
        this.starter = starter;
    }

    /** Starts the operation. */
    public void Start() throws MPIException {
        MPI.run(comm, this::start);
    }

    private void start() {
        if (freed) {
            throw new TesseraException(ErrorClass.REQUEST, MPI.where("Prequest.Start") + ": " + call + " request was freed");
        }
        if (pending != null) {
            throw new TesseraException(ErrorClass.REQUEST, MPI.where("Prequest.Start") + ": " + call
                    + " request is still active; complete it before starting it again");
        }
        pending = starter.get();
    }

    /** Starts every request of the array. */
    public static void Startall(Prequest[] array) throws MPIException {
        MPI.run(array != null && array.length > 0 && array[0] != null ? array[0].comm : null, () -> {
            for (Prequest p : array) {
                p.start();
            }
        });
    }

    @Override
    public void Free() throws MPIException {
        freed = true;
        super.Free();
    }

    /** False until freed: a completed persistent request is inactive, not null. */
    @Override
    public boolean Is_null() throws MPIException {
        return freed;
    }
}
