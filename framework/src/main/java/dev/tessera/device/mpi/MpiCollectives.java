package dev.tessera.device.mpi;

import dev.tessera.device.NativeCollectives;
import dev.tessera.device.WireCodes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The MPI library's own collectives, on an MPI communicator that mirrors each Tessera
 * communicator (created with MPI_Comm_create_group by its members when the Tessera one is
 * created, see {@link dev.tessera.device.Device#contextCreated}).
 *
 * <p>Heap arrays are staged through per-thread native buffers: a blocking collective can
 * last arbitrarily long, so it must not pin the collector the way a critical downcall
 * with heap access would. When the library runs MPI_THREAD_MULTIPLE the calls run
 * without the device lock, so other threads keep progressing point-to-point traffic;
 * under MPI_THREAD_SERIALIZED they hold it.
 */
final class MpiCollectives implements NativeCollectives {



    private final MpiDevice device;
    private final MpiLibrary lib;
    private final Arena arena;
    private final boolean unlocked;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<Integer, MemorySegment> comms = new ConcurrentHashMap<>();
    private final ThreadLocal<MemorySegment[]> staging = ThreadLocal.withInitial(() -> new MemorySegment[2]);

    MpiCollectives(MpiDevice device, MpiLibrary lib, Arena arena, boolean multiple) {
        this.device = device;
        this.lib = lib;
        this.arena = arena;
        this.unlocked = multiple;
        MemorySegment world = arena.allocate(lib.commSize, 8);
        device.call("MPI_Comm_dup", () -> (int) lib.commDupPredefined.invokeExact(0, world));
        MemorySegment self = arena.allocate(lib.commSize, 8);
        device.call("MPI_Comm_dup", () -> (int) lib.commDupPredefined.invokeExact(1, self));
        comms.put(0, world);
        comms.put(2, self);
    }

    void contextCreated(int context, int[] worldRanks) {
        MemorySegment comm = arena.allocate(lib.commSize, 8);
        MemorySegment ranks = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, worldRanks.length));
        MemorySegment.copy(worldRanks, 0, ranks, ValueLayout.JAVA_INT, 0, worldRanks.length);
        int n = worldRanks.length;
        int tag = context & 0x7fff;
        run("MPI_Comm_create_group", () -> (int) lib.commCreate.invokeExact(ranks, n, tag, comm));
        comms.put(context, comm);
    }

    void free() {
        for (MemorySegment c : comms.values()) {
            MpiDevice.invoke(() -> (int) lib.commFree.invokeExact(c));
        }
        comms.clear();
    }

    @Override
    public boolean supports(int typeCode, int opCode) {
        return WireCodes.nativeReducible(typeCode, opCode);
    }

    private MemorySegment comm(int context) {
        MemorySegment c = comms.get(context);
        if (c == null) {
            throw new IllegalStateException("no MPI communicator mirrors Tessera context " + context);
        }
        return c;
    }

    /** Runs a blocking library call, under the device lock unless the library is fully thread-safe. */
    private void run(String what, MpiDevice.MpiCall c) {
        if (!unlocked) {
            device.call(what, c);
            return;
        }
        // Counted, so that close() never finalizes MPI under a collective still running here
        // (a JVM shutdown hook on SIGTERM did: SIGSEGV inside MPI_Allreduce).
        inFlight.incrementAndGet();
        try {
            device.checkNotClosing();
            device.check(what, MpiDevice.invoke(c));
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Native collectives running without the device lock right now. */
    int inFlight() {
        return inFlight.get();
    }

    /** A native view of {@code s}: itself if native, else a per-thread staging buffer (filled from s if asked). */
    private MemorySegment nativeOf(MemorySegment s, int which, boolean fill) {
        if (s == null || s.isNative() || s.byteSize() == 0) {
            return s == null || s.byteSize() == 0 ? MemorySegment.NULL : s;
        }
        MemorySegment[] slots = staging.get();
        MemorySegment buf = slots[which];
        if (buf == null || buf.byteSize() < s.byteSize()) {
            buf = Arena.ofAuto().allocate(Math.max(s.byteSize(), 4096), 16);
            slots[which] = buf;
        }
        MemorySegment view = buf.asSlice(0, s.byteSize());
        if (fill) {
            MemorySegment.copy(s, 0, view, 0, s.byteSize());
        }
        return view;
    }

    private static void back(MemorySegment heap, MemorySegment view) {
        if (heap != null && heap != view && !heap.isNative() && heap.byteSize() > 0) {
            MemorySegment.copy(view, 0, heap, 0, heap.byteSize());
        }
    }

    @Override
    public void barrier(int context) {
        MemorySegment c = comm(context);
        run("MPI_Barrier", () -> (int) lib.barrier.invokeExact(c));
    }

    @Override
    public void bcast(MemorySegment buffer, long count, int typeCode, int root, int context) {
        MemorySegment c = comm(context);
        MemorySegment b = nativeOf(buffer, 0, true);
        run("MPI_Bcast", () -> (int) lib.bcast.invokeExact(b, count, typeCode, root, c));
        back(buffer, b);
    }

    @Override
    public void reduce(MemorySegment send, MemorySegment recv, long count, int typeCode, int opCode, int root, int context) {
        MemorySegment c = comm(context);
        MemorySegment s = send == null ? MemorySegment.NULL : nativeOf(send, 0, true);
        MemorySegment r = nativeOf(recv, 1, send == null);
        run("MPI_Reduce", () -> (int) lib.reduce.invokeExact(s, r, count, typeCode, opCode, root, c));
        back(recv, r);
    }

    @Override
    public void allreduce(MemorySegment send, MemorySegment recv, long count, int typeCode, int opCode, int context) {
        MemorySegment c = comm(context);
        MemorySegment s = send == null ? MemorySegment.NULL : nativeOf(send, 0, true);
        MemorySegment r = nativeOf(recv, 1, send == null);
        run("MPI_Allreduce", () -> (int) lib.allreduce.invokeExact(s, r, count, typeCode, opCode, c));
        back(recv, r);
    }

    @Override
    public void reduceScatterBlock(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int opCode,
                                   int context) {
        MemorySegment c = comm(context);
        MemorySegment s = nativeOf(send, 0, true);
        MemorySegment r = nativeOf(recv, 1, false);
        run("MPI_Reduce_scatter_block",
                () -> (int) lib.reduceScatterBlock.invokeExact(s, r, countPerRank, typeCode, opCode, c));
        back(recv, r);
    }

    @Override
    public void allgather(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int context) {
        MemorySegment c = comm(context);
        MemorySegment s = send == null ? MemorySegment.NULL : nativeOf(send, 0, true);
        MemorySegment r = nativeOf(recv, 1, send == null);
        run("MPI_Allgather", () -> (int) lib.allgather.invokeExact(s, r, countPerRank, typeCode, c));
        back(recv, r);
    }

    @Override
    public void alltoall(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int context) {
        MemorySegment c = comm(context);
        MemorySegment s = nativeOf(send, 0, true);
        MemorySegment r = nativeOf(recv, 1, false);
        run("MPI_Alltoall", () -> (int) lib.alltoall.invokeExact(s, r, countPerRank, typeCode, c));
        back(recv, r);
    }

    @Override
    public void gather(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int root, int context) {
        MemorySegment c = comm(context);
        MemorySegment s = nativeOf(send, 0, true);
        MemorySegment r = recv == null ? MemorySegment.NULL : nativeOf(recv, 1, false);
        run("MPI_Gather", () -> (int) lib.gather.invokeExact(s, r, countPerRank, typeCode, root, c));
        back(recv, r);
    }

    @Override
    public void scatter(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int root, int context) {
        MemorySegment c = comm(context);
        MemorySegment s = send == null ? MemorySegment.NULL : nativeOf(send, 0, true);
        MemorySegment r = nativeOf(recv, 1, false);
        run("MPI_Scatter", () -> (int) lib.scatter.invokeExact(s, r, countPerRank, typeCode, root, c));
        back(recv, r);
    }
}
