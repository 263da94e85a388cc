package dev.tessera.device;

import java.lang.foreign.MemorySegment;

/**
 * Collectives a device can hand to a library's own tuned implementations (the mpi device's
 * MPI_Allreduce and friends). The comm layer uses them for primitive element types and
 * built-in reduction operations when the device offers them, and its own algorithms
 * otherwise. Contexts are the point-to-point context of the communicator (its id); counts
 * are in elements; type codes are {@code dev.tessera.comm.Datatype} ordinals and op codes
 * the built-in operations SUM (0) to BXOR (9). A null send segment means "in place": the
 * data is already in the receive segment. Receive segments of non-roots may be null where
 * MPI ignores them.
 */
public interface NativeCollectives {

    /** True if the library reduces elements of {@code typeCode} with {@code opCode} (-1: no reduction). */
    boolean supports(int typeCode, int opCode);

    void barrier(int context);

    void bcast(MemorySegment buffer, long count, int typeCode, int root, int context);

    void reduce(MemorySegment send, MemorySegment recv, long count, int typeCode, int opCode, int root, int context);

    void allreduce(MemorySegment send, MemorySegment recv, long count, int typeCode, int opCode, int context);

    void reduceScatterBlock(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int opCode, int context);

    void allgather(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int context);

    void alltoall(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int context);

    void gather(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int root, int context);

    void scatter(MemorySegment send, MemorySegment recv, long countPerRank, int typeCode, int root, int context);
}
