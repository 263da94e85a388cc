package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.DeviceRequest;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * The collective operations of one communicator: argument checks, the choice of algorithm
 * (a forced one from {@link CollectiveTuning}, else the decision table by message size
 * and rank count), and the call of that algorithm over a {@link CollectiveChannel}.
 * Algorithms live in the {@code *Algorithms} classes, one static method each; the
 * decisions live here, apart from them.
 */
final class Collectives {

    private final Comm comm;
    /** The tag of a nonblocking collective, drawn on the caller's thread; -1: draw a new one per call. */
    private final int fixedTag;

    Collectives(Comm comm) {
        this(comm, -1);
    }

    private Collectives(Comm comm, int fixedTag) {
        this.comm = comm;
        this.fixedTag = fixedTag;
    }

    /** Every collective opens exactly one channel, which draws its tag: keep it that way. */
    private CollectiveChannel channel(String call, Datatype type) {
        int tag = fixedTag >= 0 ? fixedTag : comm.nextCollectiveTag();
        return new CollectiveChannel(comm, call, tag, type);
    }

    private String algorithm(String collective, String chosen) {
        String forced = comm.env.tuning.forced(collective);
        return forced != null ? forced : chosen;
    }

    private TesseraException unknownAlgorithm(String collective, String name, String valid) {
        return new TesseraException(ErrorClass.ARG, comm.where("Comm." + collective) + ": unknown " + collective
                + " algorithm '" + name + "' (valid: " + valid + ")");
    }

    // ------------------------------------------------------------------ barrier

    void barrier() {
        String call = "Comm.barrier";
        CollectiveChannel ch = channel(call, Datatype.BYTE);
        if (comm.size() == 1) {
            return;
        }
        String alg = algorithm("barrier", "dissemination");
        switch (alg) {
            case "dissemination" -> BarrierAlgorithms.dissemination(ch);
            default -> throw unknownAlgorithm("barrier", alg, "dissemination");
        }
    }

    // ------------------------------------------------------------------ broadcast

    void bcast(Buffer buffer, int root) {
        String call = "Comm.bcast";
        comm.checkBuffer(call, buffer, true);
        comm.checkRoot(call, root);
        CollectiveChannel ch = channel(call, buffer.type());
        MemorySegment data = comm.rank() == root ? buffer.sendSegment() : buffer.receiveSegment();
        if (comm.size() > 1 && data.byteSize() > 0) {
            String alg = algorithm("bcast", "binomial");
            switch (alg) {
                case "binomial" -> BroadcastAlgorithms.binomial(ch, data, root);
                default -> throw unknownAlgorithm("bcast", alg, "binomial");
            }
        }
        if (comm.rank() != root) {
            buffer.received(data.byteSize());
        }
    }

    // ------------------------------------------------------------------ allreduce

    void allreduce(Buffer send, Buffer recv, Op op) {
        String call = "Comm.allreduce";
        comm.checkBuffer(call, recv, true);
        if (send != null) {
            comm.checkBuffer(call, send, false);
            requireSameShape(call, send, recv);
        }
        op.validate(recv.type(), recv.count(), comm.where(call));
        CollectiveChannel ch = channel(call, recv.type());
        MemorySegment data = recv.receiveSegment();
        if (send != null) {
            MemorySegment.copy(send.sendSegment(), 0, data, 0, data.byteSize());
        } else {
            recv.sendSegment();
        }
        if (comm.size() > 1 && recv.count() > 0) {
            String alg = algorithm("allreduce", "recursive_doubling");
            switch (alg) {
                case "recursive_doubling" -> AllreduceAlgorithms.recursiveDoubling(ch, data, recv.count(), op);
                default -> throw unknownAlgorithm("allreduce", alg, "recursive_doubling");
            }
        }
        recv.received(data.byteSize());
    }

    // ------------------------------------------------------------------ allgather

    void allgather(Buffer send, Buffer recv) {
        String call = "Comm.allgather";
        comm.checkBuffer(call, recv, true);
        int p = comm.size();
        if (recv.count() % p != 0) {
            throw new TesseraException(ErrorClass.COUNT, comm.where(call) + ": receive buffer of " + recv.count()
                    + " elements is not a multiple of the communicator size " + p);
        }
        int block = recv.count() / p;
        Buffer mine = recv.slice(comm.rank() * block, block);
        if (send != null) {
            comm.checkBuffer(call, send, false);
            requireSameShape(call, send, mine);
            MemorySegment.copy(send.sendSegment(), 0, mine.receiveSegment(), 0, mine.byteSize());
        } else {
            mine.sendSegment();
        }
        CollectiveChannel ch = channel(call, recv.type());
        MemorySegment data = recv.receiveSegment();
        if (p > 1 && block > 0) {
            String alg = algorithm("allgather", "ring");
            switch (alg) {
                case "ring" -> AllgatherAlgorithms.ring(ch, data, mine.byteSize());
                default -> throw unknownAlgorithm("allgather", alg, "ring");
            }
        }
        recv.received(data.byteSize());
    }

    // ------------------------------------------------------------------ nonblocking

    /**
     * Runs a blocking collective on a helper thread. Its tag is drawn here, on the
     * caller's thread in program order, so it cannot mix with the communicator's other
     * collectives; the caller has done the thread-level check.
     */
    Request nonblocking(String call, Consumer<Collectives> body) {
        DeviceRequest done = new DeviceRequest(DeviceRequest.Kind.SEND);
        Collectives self = new Collectives(comm, comm.nextCollectiveTag());
        comm.env.nonblockingCollectives().execute(() -> {
            try {
                body.accept(self);
                done.completeSend();
            } catch (RuntimeException e) {
                done.complete(Comm.PROC_NULL, Comm.ANY_TAG, 0, 0, e);
            }
        });
        return new Request(comm, call, done, null);
    }

    // ------------------------------------------------------------------ shared checks

    private void requireSameShape(String call, Buffer send, Buffer recv) {
        if (send.type() != recv.type()) {
            throw new TesseraException(ErrorClass.TYPE, comm.where(call) + ": send buffer holds " + send.type()
                    + " but receive buffer holds " + recv.type());
        }
        if (send.count() != recv.count()) {
            throw new TesseraException(ErrorClass.COUNT, comm.where(call) + ": send buffer has " + send.count()
                    + " elements but receive buffer has " + recv.count());
        }
    }
}
