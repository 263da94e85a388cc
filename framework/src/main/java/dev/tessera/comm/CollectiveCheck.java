package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.Device;
import dev.tessera.device.DeviceRequest;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * The check that every rank of a collective call passes the same call, element count,
 * element type, root and operation. MPI leaves a mismatch undefined; in practice it is a
 * silently wrong answer (a rank that passes fewer elements to allreduce makes the others
 * combine a short vector), an accepted oversized buffer, or a hang (a rank that names
 * another root waits for a message nobody sends).
 *
 * <p>Algorithm: when the call starts, before anything can block, each rank sends its
 * signature (a 32-byte message on the call's own check tag) to its left neighbour on the
 * ring and posts a receive for its right neighbour's. Every rank that entered a collective
 * with this call's sequence number sends one, whatever it passed, so the receive always
 * completes; all ranks agree if and only if every neighbour pair agrees, so a mismatch
 * anywhere is seen by at least one rank. A rank compares before it first waits on a
 * transfer of the call that has not completed, so it never blocks on a message that the
 * mismatch keeps from coming. At the end of the call it compares if the neighbour's
 * signature is in; if not, the call returns and the comparison stays pending on the
 * communicator ({@link Comm#deferCheck}): it is made when the rank next starts a collective
 * on that communicator (before that call's transfers), when it blocks in any wait that does
 * not complete at once (point-to-point or collective, on any communicator: it compares
 * whichever pending signature arrives while it waits), when it frees the communicator, and
 * when it closes. So a call never waits for its neighbour's latency at its end, and a
 * mismatch that only the returning rank could see still ends the job before that rank's
 * next collective or its close; a rank may hold a result the mismatch made wrong until
 * then. The rank that sees a mismatch aborts the job with an error naming
 * both ranks and both values (as MPI's default error handler would): other ranks may be
 * waiting for transfers that will never come, and the abort wakes them with that error.
 *
 * <p>Allreduce by recursive doubling (the short-vector case, whose latency matters most)
 * carries the signature in each of its messages instead ({@link CollectiveChannel} "framed"
 * mode: a 32-byte header before the payload, compared on arrival, sizes compared exactly):
 * its exchange pattern depends only on the rank count and connects every rank, so every
 * mismatch meets some message, at no extra message. A rank that took another algorithm (a
 * count on the other side of the 8 KiB switch) sends unframed messages or waits for a
 * signature, and meets the framed messages of the others: both are seen as a mismatch.
 *
 * <p>Cost: one small message sent and one received per rank and call, overlapped with the
 * collective's own transfers and, when deferred, with the time until the next call; it does
 * not grow with the message, so every call of
 * Tessera's algorithms is checked by default ({@code on}). Calls handed to a library's own
 * collective (the mpi device's native collectives) are checked only with {@code always}
 * (see {@link #enabledForNative}). {@code TESSERA_COLL_CHECK=off} (or
 * {@code tessera.coll.check=off}, or {@code comm.tuning().force("check", "off")} on every
 * rank) turns it off. Vector variants check the call, type and root, not counts,
 * which differ by design; object collectives are not checked.
 */
final class CollectiveCheck {

    /** Wire size of a signature. */
    static final int BYTES = 32;
    private static final int MAGIC = 0x54434b31; // "TCK1"
    /** Offset added to a call's collective tag for its check message (collective tags stay below it). */
    static final int TAG_OFFSET = Comm.COLLECTIVE_TAG_SPAN;

    /** Calls by code, so a mismatch of calls can be named on both sides. */
    private static final List<String> CALLS = List.of("Comm.barrier", "Comm.bcast", "Comm.gather", "Comm.gatherv",
            "Comm.scatter", "Comm.scatterv", "Comm.allgather", "Comm.allgatherv", "Comm.alltoall", "Comm.alltoallv",
            "Comm.allreduce", "Comm.reduce", "Comm.scan", "Comm.exscan", "Comm.reduceScatterBlock", "Comm.reduceScatter",
            "Comm.ibarrier", "Comm.ibcast", "Comm.igather", "Comm.igatherv", "Comm.iscatter", "Comm.iscatterv",
            "Comm.iallgather", "Comm.iallgatherv", "Comm.ialltoall", "Comm.ialltoallv", "Comm.iallreduce", "Comm.ireduce",
            "Comm.iscan", "Comm.iexscan", "Comm.ireduceScatterBlock", "Comm.ireduceScatter");

    /** Index of each call in {@link #CALLS}, its wire code. */
    private static final java.util.Map<String, Integer> CALL_CODES = callCodes();

    private static java.util.Map<String, Integer> callCodes() {
        java.util.Map<String, Integer> codes = new java.util.HashMap<>();
        for (int i = 0; i < CALLS.size(); i++) {
            codes.put(CALLS.get(i), i);
        }
        return java.util.Map.copyOf(codes);
    }

    /** No count, root or operation: not compared. */
    static final long NONE = -1;

    /** What one rank passed to a collective call. */
    record Signature(String call, int type, long count, int root, int op) {

        static Signature of(String call, Datatype type, long count, int root, Op op) {
            return new Signature(call, type == null ? -1 : type.code(), count, root, op == null ? -1 : op.checkCode());
        }

        void write(MemorySegment m) {
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 0, MAGIC);
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 4, CALL_CODES.getOrDefault(call, -1));
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 8, type);
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 12, root);
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, 16, count);
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 24, op);
        }

        static Signature read(MemorySegment m) {
            if (m.get(ValueLayout.JAVA_INT_UNALIGNED, 0) != MAGIC) {
                return null;
            }
            int c = m.get(ValueLayout.JAVA_INT_UNALIGNED, 4);
            return new Signature(callName(c),
                    m.get(ValueLayout.JAVA_INT_UNALIGNED, 8), m.get(ValueLayout.JAVA_LONG_UNALIGNED, 16),
                    m.get(ValueLayout.JAVA_INT_UNALIGNED, 12), m.get(ValueLayout.JAVA_INT_UNALIGNED, 24));
        }

        /** The first field that differs, as "what: mine vs theirs" parts, or null when they agree. */
        String[] difference(Signature other) {
            if (!call.equals(other.call)) {
                return new String[] {"called", call, other.call};
            }
            if (type != other.type) {
                return new String[] {"passed elements of type", typeName(type), typeName(other.type)};
            }
            if (count != other.count) {
                return new String[] {"passed a count of", count + " elements", other.count + " elements"};
            }
            if (root != other.root) {
                return new String[] {"passed root", Integer.toString(root), Integer.toString(other.root)};
            }
            if (op != other.op) {
                return new String[] {"passed operation", Op.checkName(op), Op.checkName(other.op)};
            }
            return null;
        }

        private static String typeName(int code) {
            Datatype t = Datatype.ofCode(code);
            return t == null ? "code " + code : t.toString();
        }
    }

    /**
     * Whether calls on this communicator that run Tessera's own algorithms are checked
     * (TESSERA_COLL_CHECK / tessera.coll.check: {@code on} (the default; {@code small} is the
     * same), {@code always}, {@code off}).
     */
    static boolean enabled(CollectiveTuning tuning) {
        return mode(tuning) != Mode.OFF;
    }

    /**
     * Whether calls that a library runs with its own collective (the mpi device's native
     * collectives) are checked too: only with {@code always}. Checking them means waiting for a
     * neighbour's signature outside the library before the call; MPI itself leaves a mismatch
     * undefined, and a rank that waits outside the library when mpirun signals it finalizes MPI
     * from its shutdown hook while the others are inside the collective.
     */
    static boolean enabledForNative(CollectiveTuning tuning) {
        return mode(tuning) == Mode.ALWAYS;
    }

    private enum Mode { OFF, ON, ALWAYS }

    private static Mode mode(CollectiveTuning tuning) {
        String mode = tuning.checkMode();
        if (mode == null || mode.equals("small") || mode.equals("on")) {
            return Mode.ON;
        }
        if (mode.equals("always")) {
            return Mode.ALWAYS;
        }
        if (mode.equals("off")) {
            return Mode.OFF;
        }
        throw new TesseraException(ErrorClass.ARG, "TESSERA_COLL_CHECK / tessera.coll.check: unknown mode '" + mode
                + "' (valid: on, always, off)");
    }

    /** The wire code of a call name (-1 if unknown), and back. */
    static int callCode(String call) {
        return CALL_CODES.getOrDefault(call, -1);
    }

    static String callName(int code) {
        return code >= 0 && code < CALLS.size() ? CALLS.get(code) : "an unknown call";
    }

    private final Comm comm;
    private final Signature mine;
    private final MemorySegment theirs;
    private final DeviceRequest send;
    private final DeviceRequest recv;
    private final int right;
    private volatile boolean verified;
    /** Flag mode: the shared-memory flags that carry the signatures, and this call's sequence number and index. */
    private final NodeCollectives node;
    private final long k;
    private final long index;

    /**
     * The check of a flagged call of the shared-memory collectives ({@link NodeCollectives}):
     * the signatures sit next to each rank's flag, so nothing is sent; comparing means
     * waiting for {@code right}'s flag of call {@code k} and reading its signature.
     */
    CollectiveCheck(Comm comm, Signature mine, NodeCollectives node, int right, long k, long index) {
        this.comm = comm;
        this.mine = mine;
        this.node = node;
        this.right = right;
        this.k = k;
        this.index = index;
        this.theirs = null;
        this.send = null;
        this.recv = null;
    }

    /** Sends this rank's signature to the left neighbour and posts the receive of the right one's. */
    CollectiveCheck(Comm comm, int tag, Signature mine) {
        this.comm = comm;
        this.mine = mine;
        this.node = null;
        this.k = 0;
        this.index = 0;
        this.theirs = MemorySegment.ofArray(new byte[BYTES]);
        int p = comm.size();
        int me = comm.rank();
        this.right = (me + 1) % p;
        int left = (me - 1 + p) % p;
        Device device = comm.device();
        MemorySegment out = MemorySegment.ofArray(new byte[BYTES]);
        mine.write(out);
        int context = comm.collectiveContext();
        this.recv = device.irecv(theirs, comm.group.worldRank(right), tag + TAG_OFFSET, context, Datatype.BYTE.code());
        this.send = device.isend(out, comm.group.worldRank(left), tag + TAG_OFFSET, context, Datatype.BYTE.code(), false);
    }

    /** Whether the comparison has been made (without error). */
    boolean verified() {
        return verified;
    }

    /** {@link #verify} if both check messages have completed; true once verified. */
    boolean tryVerify() {
        if (node != null) {
            if (!verified && node.reached(right, k, index, mine)) {
                verify();
            }
            return verified;
        }
        if (!verified && recv.isComplete() && send.isComplete()) {
            verify();
        }
        return verified;
    }

    /**
     * Waits for the right neighbour's signature and compares it with this rank's; on a
     * mismatch aborts the job and throws the error. Idempotent.
     */
    synchronized void verify() {
        if (verified) {
            return;
        }
        if (node != null) {
            node.verify(right, k, index, mine);
            verified = true;
            return;
        }
        Device device = comm.device();
        device.await(recv);
        device.await(send);
        Signature other = recv.error() == null ? Signature.read(theirs) : null;
        if (other == null || mine.difference(other) != null) {
            throw mismatch(comm, mine, right, other);
        }
        verified = true;
    }

    /**
     * The error for a rank whose signature differs from {@code peer}'s ({@code other}, null if
     * the peer's message was no signature), after aborting the job with it: peers may wait for
     * transfers the mismatch keeps from coming, and the abort wakes them with this error.
     */
    static TesseraException mismatch(Comm comm, Signature mine, int peer, Signature other) {
        String[] diff = other == null ? new String[] {"sent", "a checked collective message",
                "a message that is not one (a collective of another kind or size)"} : mine.difference(other);
        if (diff == null) {
            diff = new String[] {"sent", "a message of the call's size", "one of another size"};
        }
        return mismatch(comm, mine, peer, diff);
    }

    /** As {@link #mismatch(Comm, Signature, int, Signature)} with the difference given as "what", mine, theirs. */
    static TesseraException mismatch(Comm comm, Signature mine, int peer, String[] diff) {
        TesseraException e = new TesseraException(ErrorClass.ARG, comm.where(mine.call())
                + ": ranks disagree on the collective call: rank " + comm.rank() + " " + diff[0] + " " + diff[1]
                + " but rank " + peer + " " + diff[0] + " " + diff[2]
                + " (every rank must make the same collective calls in the same order, with the same count, "
                + "element type, root and operation)");
        comm.device().abort(comm.group.worldRank(comm.rank()), e);
        return e;
    }
}
