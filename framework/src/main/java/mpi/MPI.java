package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The mpiJava 1.2 entry point, with MPJ Express's names: {@link #Init}, {@link #Finalize},
 * {@link #COMM_WORLD}, the datatype constants ({@link #INT}, {@link #DOUBLE},
 * {@link #OBJECT}, ...), the reduction operations ({@link #SUM}, {@link #MAXLOC}, ...) and
 * the special ranks and tags. Programs written for MPJ Express or FastMPJ run unchanged:
 *
 * <pre>{@code
 * MPI.Init(args);
 * int me = MPI.COMM_WORLD.Rank();
 * MPI.COMM_WORLD.Send(buf, 0, n, MPI.DOUBLE, dest, 99);
 * MPI.Finalize();
 * }</pre>
 *
 * <p>This facade runs on the Tessera runtime: under {@code bin/tessera run --device smp}
 * each rank is a thread with its own copy of the {@code mpi.*} classes (so these statics
 * are per rank); under shm and tcp each rank is a process.
 */
public class MPI {

    // ------------------------------------------------------------------ special values

    /** Receive from any source. */
    public static final int ANY_SOURCE = dev.tessera.comm.Comm.ANY_SOURCE;
    /** Receive with any tag. */
    public static final int ANY_TAG = dev.tessera.comm.Comm.ANY_TAG;
    /** The null process: communication with it completes at once and moves nothing. */
    public static final int PROC_NULL = dev.tessera.comm.Comm.PROC_NULL;
    /**
     * The root argument of an {@link Intercomm}'s rooted collective at the root itself (MPI-2's
     * MPI_ROOT); the rest of the root's group passes {@link #PROC_NULL}.
     */
    public static final int ROOT = dev.tessera.comm.Comm.ROOT;
    /** Undefined rank, color, count or index. */
    public static final int UNDEFINED = -32766;
    /**
     * Largest valid tag, and the key of the predefined attribute holding it:
     * {@code (Integer) comm.Attr_get(MPI.TAG_UB)} is this value.
     */
    public static final int TAG_UB = dev.tessera.comm.Comm.TAG_UB;
    /** Key of the predefined attribute naming the host process: {@link #PROC_NULL}, there is none. */
    public static final int HOST = -101;
    /** Key of the predefined attribute naming a rank that can do Java I/O: every rank can, so the caller's own rank. */
    public static final int IO = -102;
    /**
     * Key of the predefined attribute saying whether {@link #Wtime()} is one clock for every rank
     * of {@link #COMM_WORLD} (1) or not (0): 1 when all ranks run on one node.
     */
    public static final int WTIME_IS_GLOBAL = -103;
    /** Bytes of attached buffer space each buffered send needs beyond its data. */
    public static final int BSEND_OVERHEAD = 64;
    /**
     * Bytes that MPJ Express's devices reserve at the start of an {@code mpjbuf.Buffer} that
     * is sent ({@code new mpjbuf.Buffer(BufferFactory.create(n + SEND_OVERHEAD), SEND_OVERHEAD, n + SEND_OVERHEAD)}):
     * Tessera copies the data out and needs none, so 0.
     */
    public static final int SEND_OVERHEAD = 0;
    /** As {@link #SEND_OVERHEAD}, for an {@code mpjbuf.Buffer} that is received into: 0. */
    public static final int RECV_OVERHEAD = 0;

    /** Results of {@link Comm#Compare} and {@link Group#Compare} (MPJ Express's values). */
    public static final int IDENT = 0, CONGRUENT = 3, SIMILAR = 1, UNEQUAL = 2;
    /** Results of {@link Comm#Topo_test}. */
    public static final int GRAPH = 1, CART = 2;

    /** Thread levels for {@link #Init_thread}. */
    public static final int THREAD_SINGLE = 0, THREAD_FUNNELED = 1, THREAD_SERIALIZED = 2, THREAD_MULTIPLE = 3;

    /** Error classes ({@link MPIException#getErrorClass()}). */
    public static final int SUCCESS = 0, ERR_BUFFER = 1, ERR_COUNT = 2, ERR_TYPE = 3, ERR_TAG = 4, ERR_COMM = 5,
            ERR_RANK = 6, ERR_REQUEST = 7, ERR_ROOT = 8, ERR_GROUP = 9, ERR_OP = 10, ERR_TOPOLOGY = 11,
            ERR_DIMS = 12, ERR_ARG = 13, ERR_UNKNOWN = 14, ERR_TRUNCATE = 15, ERR_OTHER = 16, ERR_INTERN = 17,
            ERR_PROC_FAILED = 75;

    // ------------------------------------------------------------------ datatypes

    /** Java {@code byte}, in {@code byte[]} buffers. */
    public static final Datatype BYTE = Datatype.primitive(dev.tessera.comm.Datatype.BYTE, "MPI.BYTE");
    /** Java {@code char}, in {@code char[]} buffers. */
    public static final Datatype CHAR = Datatype.primitive(dev.tessera.comm.Datatype.CHAR, "MPI.CHAR");
    /** Java {@code short}, in {@code short[]} buffers. */
    public static final Datatype SHORT = Datatype.primitive(dev.tessera.comm.Datatype.SHORT, "MPI.SHORT");
    /** Java {@code boolean}, in {@code boolean[]} buffers. */
    public static final Datatype BOOLEAN = Datatype.primitive(dev.tessera.comm.Datatype.BOOLEAN, "MPI.BOOLEAN");
    /** Java {@code int}, in {@code int[]} buffers. */
    public static final Datatype INT = Datatype.primitive(dev.tessera.comm.Datatype.INT, "MPI.INT");
    /** Java {@code long}, in {@code long[]} buffers. */
    public static final Datatype LONG = Datatype.primitive(dev.tessera.comm.Datatype.LONG, "MPI.LONG");
    /** Java {@code float}, in {@code float[]} buffers. */
    public static final Datatype FLOAT = Datatype.primitive(dev.tessera.comm.Datatype.FLOAT, "MPI.FLOAT");
    /** Java {@code double}, in {@code double[]} buffers. */
    public static final Datatype DOUBLE = Datatype.primitive(dev.tessera.comm.Datatype.DOUBLE, "MPI.DOUBLE");
    /** Serializable Java objects in {@code Object[]} buffers. */
    public static final Datatype OBJECT = Datatype.primitive(dev.tessera.comm.Datatype.OBJECT, "MPI.OBJECT");
    /** Bytes produced by {@link Comm#Pack}, in {@code byte[]} buffers. */
    public static final Datatype PACKED = Datatype.primitive(dev.tessera.comm.Datatype.BYTE, "MPI.PACKED");
    /** Lower-bound marker for {@link Datatype#Struct}. */
    public static final Datatype LB = Datatype.marker(true);
    /** Upper-bound marker for {@link Datatype#Struct}. */
    public static final Datatype UB = Datatype.marker(false);
    /** (value, index) pairs of shorts, for MINLOC and MAXLOC. */
    public static final Datatype SHORT2 = Datatype.pair(dev.tessera.comm.Datatype.SHORT, "MPI.SHORT2");
    /** (value, index) pairs of ints. */
    public static final Datatype INT2 = Datatype.pair(dev.tessera.comm.Datatype.INT, "MPI.INT2");
    /** (value, index) pairs of longs. */
    public static final Datatype LONG2 = Datatype.pair(dev.tessera.comm.Datatype.LONG, "MPI.LONG2");
    /** (value, index) pairs of floats. */
    public static final Datatype FLOAT2 = Datatype.pair(dev.tessera.comm.Datatype.FLOAT, "MPI.FLOAT2");
    /** (value, index) pairs of doubles. */
    public static final Datatype DOUBLE2 = Datatype.pair(dev.tessera.comm.Datatype.DOUBLE, "MPI.DOUBLE2");

    // ------------------------------------------------------------------ error handlers

    /** The default error handler of every communicator: an error aborts the job (see {@link Errhandler}). */
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(true, "MPI.ERRORS_ARE_FATAL");
    /** The error handler under which an error is thrown as an {@link MPIException} and the job goes on. */
    public static final Errhandler ERRORS_RETURN = new Errhandler(false, "MPI.ERRORS_RETURN");

    // ------------------------------------------------------------------ operations

    /** Maximum. */
    public static final Op MAX = new Op(dev.tessera.comm.Op.MAX);
    /** Minimum. */
    public static final Op MIN = new Op(dev.tessera.comm.Op.MIN);
    /** Sum. */
    public static final Op SUM = new Op(dev.tessera.comm.Op.SUM);
    /** Product. */
    public static final Op PROD = new Op(dev.tessera.comm.Op.PROD);
    /** Logical and (non-zero is true). */
    public static final Op LAND = new Op(dev.tessera.comm.Op.LAND);
    /** Bitwise and. */
    public static final Op BAND = new Op(dev.tessera.comm.Op.BAND);
    /** Logical or. */
    public static final Op LOR = new Op(dev.tessera.comm.Op.LOR);
    /** Bitwise or. */
    public static final Op BOR = new Op(dev.tessera.comm.Op.BOR);
    /** Logical exclusive or. */
    public static final Op LXOR = new Op(dev.tessera.comm.Op.LXOR);
    /** Bitwise exclusive or. */
    public static final Op BXOR = new Op(dev.tessera.comm.Op.BXOR);
    /** Minimum value and the smallest index holding it, on pair types. */
    public static final Op MINLOC = new Op(dev.tessera.comm.Op.MINLOC);
    /** Maximum value and the smallest index holding it, on pair types. */
    public static final Op MAXLOC = new Op(dev.tessera.comm.Op.MAXLOC);

    // ------------------------------------------------------------------ per-rank state

    /** The communicator of all processes; set by {@link #Init}. */
    public static Intracomm COMM_WORLD;
    /**
     * The communicator holding only this process; set by {@link #Init}. Declared as
     * {@code Comm}, as in MPJ Express; the object is an {@link Intracomm}.
     */
    public static Comm COMM_SELF;
    /** The empty group. */
    public static final Group GROUP_EMPTY = new Group(dev.tessera.comm.Group.EMPTY);
    /** The null communicator: what Split, Create and Create_cart return to non-members. */
    public static final Comm COMM_NULL = null;
    /** The null group. */
    public static final Group GROUP_NULL = null;
    /** A null request: Wait and Test return at once, {@link Request#Is_null()} is true. */
    public static final Request REQUEST_NULL = new Request(null);
    /** The status of an operation that moved nothing. */
    public static final Status EMPTY_STATUS = Status.empty();
    /** Processors available to this JVM. */
    public static final int NUM_OF_PROCESSORS = java.lang.Runtime.getRuntime().availableProcessors();

    private static Session runtime;
    private static int worldRank = -1;
    private static boolean finalized;
    private static Thread mainThread;

    /** The attached buffer of buffered sends, and the sends still using it. */
    private static ByteBuffer attached;
    private static long attachedInUse;
    private static final List<Object[]> bsends = new ArrayList<>();

    private MPI() {
    }

    /**
     * Initialises this process (thread level: Tessera's default, FUNNELED, or
     * {@code --thread-level}); returns the arguments left after Tessera's own options.
     */
    public static String[] Init(String[] args) throws MPIException {
        return init(args, null);
    }

    /** MPJ Express's form of {@link #Init_thread}: initialises with level {@code required}; returns the remaining arguments. */
    public static String[] initThread(int required, int provided, String[] argv) throws MPIException {
        checkLevel(required);
        return init(argv, ThreadLevel.values()[required]);
    }

    /** MPJ Express's name for {@link #Query_thread()}. */
    public static int queryThread() throws MPIException {
        return Query_thread();
    }

    /** MPJ Express's name for {@link #Is_thread_main()}. */
    public static boolean isMainThread() throws MPIException {
        return Is_thread_main();
    }

    private static void checkLevel(int required) throws MPIException {
        if (required < THREAD_SINGLE || required > THREAD_MULTIPLE) {
            throw new MPIException(ERR_ARG, where("Init_thread") + ": thread level " + required + " is not one of THREAD_*");
        }
    }

    /** Initialises with a thread level ({@code THREAD_SINGLE .. THREAD_MULTIPLE}); returns the level provided. */
    public static int Init_thread(String[] args, int required) throws MPIException {
        checkLevel(required);
        init(args, ThreadLevel.values()[required]);
        return Query_thread();
    }

    private static synchronized String[] init(String[] args, ThreadLevel level) throws MPIException {
        if (runtime != null || finalized) {
            throw new MPIException(ERR_OTHER, where("Init") + ": MPI is already " + (finalized ? "finalized" : "initialized"));
        }
        return call(() -> {
            Session rt = Tessera.init(args == null ? new String[0] : args, level);
            worldRank = rt.rank();
            mainThread = Thread.currentThread();
            COMM_WORLD = new Intracomm(rt.world());
            COMM_SELF = new Intracomm(rt.world().self());
            runtime = rt;
            return rt.args().toArray(new String[0]);
        });
    }

    /** Ends this process's participation: completes pending buffered sends and releases the rank. */
    public static void Finalize() throws MPIException {
        requireInit("Finalize");
        run(() -> {
            drainBsends();
            runtime.close();
            finalized = true;
        });
    }

    /** True once {@link #Init} has been called. */
    public static boolean Initialized() throws MPIException {
        return runtime != null;
    }

    /** True once {@link #Finalize} has been called. */
    public static boolean Finalized() throws MPIException {
        return finalized;
    }

    /** The thread level provided. */
    public static int Query_thread() throws MPIException {
        requireInit("Query_thread");
        return runtime.threadLevel().ordinal();
    }

    /** True if called by the thread that initialised MPI. */
    public static boolean Is_thread_main() throws MPIException {
        requireInit("Is_thread_main");
        return Thread.currentThread() == mainThread;
    }

    /**
     * Wall-clock time in seconds since an arbitrary origin. It is the JVM's
     * {@code System.nanoTime()}, which is the operating system's monotonic clock: one clock
     * for every process of a node (and for every smp rank of a JVM), so times taken on
     * different ranks of one node can be compared, as {@link #WTIME_IS_GLOBAL} then says.
     */
    public static double Wtime() throws MPIException {
        return Session.wtime();
    }

    /** Resolution of {@link #Wtime()} in seconds. */
    public static double Wtick() throws MPIException {
        return 1e-9;
    }

    /** The host name of this process. */
    public static String Get_processor_name() throws MPIException {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /** MPJ Express's name: sets the error handler of {@link #COMM_WORLD} (see {@link Comm#Errhandler_set}). */
    public static void Errorhandler_set(Errhandler errhandler) throws MPIException {
        requireInit("Errorhandler_set");
        COMM_WORLD.Errhandler_set(errhandler);
    }

    /** MPJ Express's name: the error handler of {@link #COMM_WORLD}. */
    public static Errhandler Errorhandler_get() throws MPIException {
        requireInit("Errorhandler_get");
        return COMM_WORLD.Errhandler_get();
    }

    /** True if every rank of the job runs on this rank's node (one monotonic clock for all). */
    static boolean singleNode() {
        return runtime != null && runtime.localSize() == runtime.size();
    }

    // ------------------------------------------------------------------ buffered sends

    /** Attaches the buffer that buffered sends ({@code Bsend}, {@code Ibsend}) account their data against. */
    public static void Buffer_attach(ByteBuffer buffer) throws MPIException {
        synchronized (bsends) {
            if (attached != null) {
                throw new MPIException(ERR_BUFFER, where("Buffer_attach") + ": a buffer is already attached");
            }
            if (buffer == null) {
                throw new MPIException(ERR_BUFFER, where("Buffer_attach") + ": buffer is null");
            }
            attached = buffer;
        }
    }

    /** Attaches a byte array as the buffer of buffered sends (mpiJava 1.2's form). */
    public static void Buffer_attach(byte[] buffer) throws MPIException {
        Buffer_attach(buffer == null ? null : ByteBuffer.wrap(buffer));
    }

    /** Waits until every buffered send has been delivered, then detaches the buffer (MPJ Express's form: no result). */
    public static void Buffer_detach() throws MPIException {
        run(() -> {
            synchronized (bsends) {
                drainBsends();
                attached = null;
            }
        });
    }

    /** Reserves room for a buffered send of {@code bytes} data bytes, or fails with ERR_BUFFER. */
    static long reserveBsend(String call, long bytes) {
        synchronized (bsends) {
            releaseCompletedBsends();
            long need = bytes + BSEND_OVERHEAD;
            long capacity = attached == null ? 0 : attached.capacity();
            if (attachedInUse + need > capacity) {
                throw new TesseraException(ErrorClass.BUFFER, where(call) + ": buffered send needs " + need
                        + " bytes but the attached buffer has " + (capacity - attachedInUse) + " free of " + capacity
                        + (attached == null ? " (no buffer attached: call MPI.Buffer_attach)" : ""));
            }
            attachedInUse += need;
            return need;
        }
    }

    /** Records a buffered send in flight, holding {@code reserved} bytes of the attached buffer. */
    static void trackBsend(dev.tessera.comm.Request r, long reserved) {
        synchronized (bsends) {
            bsends.add(new Object[] {r, reserved});
        }
    }

    /** Returns reserved room of a buffered send that could not be started. */
    static void releaseBsend(long reserved) {
        synchronized (bsends) {
            attachedInUse -= reserved;
        }
    }

    private static void releaseCompletedBsends() {
        bsends.removeIf(e -> {
            if (((dev.tessera.comm.Request) e[0]).test()) {
                attachedInUse -= (Long) e[1];
                return true;
            }
            return false;
        });
    }

    private static void drainBsends() {
        synchronized (bsends) {
            for (Object[] e : bsends) {
                ((dev.tessera.comm.Request) e[0]).await();
                attachedInUse -= (Long) e[1];
            }
            bsends.clear();
        }
    }

    // ------------------------------------------------------------------ plumbing

    /** Tells every rank of the job that this rank failed with {@code cause} (smp and process jobs). */
    static void abortJob(Throwable cause) {
        Tessera.abortJob(cause);
    }

    /** The world rank of this process (-1 before Init). */
    static int worldRank() {
        return worldRank;
    }

    /** "rank R: call" for error messages. */
    static String where(String call) {
        return (worldRank < 0 ? "rank ?" : "rank " + worldRank) + ": " + call;
    }

    private static void requireInit(String call) throws MPIException {
        if (runtime == null) {
            throw new MPIException(ERR_OTHER, where(call) + ": MPI.Init has not been called");
        }
    }

    /** A body that reports errors as unchecked Tessera exceptions. */
    @FunctionalInterface
    interface Body<T> {
        T run();
    }

    /** A body without a result. */
    @FunctionalInterface
    interface VoidBody {
        void run();
    }

    /** Runs {@code body} on no communicator: errors go to {@link #COMM_WORLD}'s error handler. */
    static <T> T call(Body<T> body) throws MPIException {
        return call(null, body);
    }

    /** Runs {@code body} on no communicator: errors go to {@link #COMM_WORLD}'s error handler. */
    static void run(VoidBody body) throws MPIException {
        run(null, body);
    }

    /**
     * Runs {@code body}, turning unchecked errors into {@link MPIException}s handled by the
     * error handler of {@code comm} (of {@link #COMM_WORLD} when null).
     */
    static <T> T call(Comm comm, Body<T> body) throws MPIException {
        try {
            return body.run();
        } catch (TesseraException | IllegalArgumentException | NullPointerException | IndexOutOfBoundsException
                 | ArrayStoreException | ClassCastException e) {
            throw raise(comm, MPIException.of(e));
        }
    }

    /** Runs {@code body}; errors go to the error handler of {@code comm}. */
    static void run(Comm comm, VoidBody body) throws MPIException {
        call(comm, () -> {
            body.run();
            return null;
        });
    }

    /**
     * Applies the error handler of {@code comm} (of {@link #COMM_WORLD} when null) to
     * {@code e}: returns it to be thrown under ERRORS_RETURN; under ERRORS_ARE_FATAL aborts
     * the job with the error as the cause and unwinds this rank with an {@link Error}.
     */
    static MPIException raise(Comm comm, MPIException e) {
        Comm c = comm != null ? comm : COMM_WORLD;
        if (c == null || runtime == null || finalized || !c.errhandler.isFatal()) {
            return e;
        }
        if (e.getErrorClass() != ERR_PROC_FAILED) {        // a failure of another rank: the job is already aborted
            try {
                runtime.abort(e.getErrorClass(), "MPI.ERRORS_ARE_FATAL: " + e.getMessage());
            } catch (RuntimeException aborted) {
                // smp: the rank unwinds with the FatalError below, which carries the error
            }
        }
        throw new Errhandler.FatalError(e);
    }
}
