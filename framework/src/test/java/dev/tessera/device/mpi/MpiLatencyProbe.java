package dev.tessera.device.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Not a test: a program for bench/mpi-latency-breakdown.sh that measures what the JVM's
 * downcalls add to the mpi device's small-message costs, without any Tessera code: two
 * ranks under mpirun call the device's C shim through FFM, MPI initialised at the thread
 * level given (single, funneled, serialized, multiple), on a duplicate of MPI_COMM_WORLD.
 * <ul>
 *   <li>{@code ring LEVEL}: 8-byte ping-pong with the device's receive pattern (32
 *       pre-posted wildcard receives, the oldest tested until it completes, then
 *       re-posted; MPI_Send out). Prints half a round trip.</li>
 *   <li>{@code allreduce LEVEL}: MPI_Allreduce of one double in place, as the device's
 *       native collectives call it (a downcall that may block, so not a critical one).
 *       Prints the time per call.</li>
 * </ul>
 * Rank 0 prints microseconds, the best of 10 timed repeats of 200000 operations after 2
 * warm-up repeats. Usage: {@code MpiLatencyProbe ring|allreduce LEVEL}.
 */
public final class MpiLatencyProbe {

    private static final int ROUND_TRIPS = 200_000;
    private static final int RING = 32;
    private static final long SLOT = 16 * 1024 + 64;
    /** Tessera's type and op codes, as the shim reads them (Datatype.DOUBLE, Op.SUM). */
    private static final int DOUBLE = 7;
    private static final int SUM = 0;

    private MpiLatencyProbe() {
    }

    public static void main(String[] args) throws Throwable {
        String what = args.length > 0 ? args[0] : "";
        if (!what.equals("ring") && !what.equals("allreduce")) {
            throw new IllegalArgumentException("usage: MpiLatencyProbe ring|allreduce single|funneled|serialized|multiple");
        }
        double best = run(what.equals("ring"), level(args.length > 1 ? args[1] : "multiple"));
        if (best >= 0) {
            System.out.printf("%s %.3f us%n", String.join(" ", args), best);
        }
    }

    private static int level(String name) {
        return switch (name) {
            case "single" -> 0;
            case "funneled" -> 1;
            case "serialized" -> 2;
            case "multiple" -> 3;
            default -> throw new IllegalArgumentException("unknown thread level " + name);
        };
    }

    /** Best time per operation (half round trip, or allreduce) in us on rank 0, -1 elsewhere. */
    private static double run(boolean ring, int level) throws Throwable {
        MpiLibrary lib = MpiLibrary.load();
        Arena arena = Arena.ofShared();
        MemorySegment ints = arena.allocate(ValueLayout.JAVA_INT, 3);
        MemorySegment tagUb = arena.allocate(ValueLayout.JAVA_LONG);
        check((int) lib.init.invokeExact(lib.threadLevels[level], ints, ints.asSlice(4), ints.asSlice(8), tagUb));
        if (ints.getAtIndex(ValueLayout.JAVA_INT, 0) != lib.threadLevels[level]) {
            throw new IllegalStateException("the library granted another thread level");
        }
        int rank = ints.getAtIndex(ValueLayout.JAVA_INT, 1);
        if (ints.getAtIndex(ValueLayout.JAVA_INT, 2) != 2) {
            throw new IllegalStateException("needs 2 ranks");
        }
        MemorySegment comm = arena.allocate(lib.commSize, 8);
        check((int) lib.commDupPredefined.invokeExact(0, comm));
        MemorySegment[] slots = new MemorySegment[RING];
        MemorySegment[] requests = new MemorySegment[RING];
        for (int i = 0; i < RING; i++) {
            slots[i] = arena.allocate(SLOT, 16);
            requests[i] = arena.allocate(lib.requestSize, 8);
            check((int) lib.irecv.invokeExact(slots[i], SLOT, lib.anySource, lib.anyTag, comm, requests[i]));
        }
        MemorySegment out = arena.allocate(8, 8).fill((byte) 0);
        MemorySegment flag = arena.allocate(8 + 8 * 8, 8);
        MemorySegment status = flag.asSlice(8);
        int[] head = {0};
        double best = Double.MAX_VALUE;
        for (int rep = 0; rep < 12; rep++) {
            long t0 = System.nanoTime();
            for (int k = 0; k < ROUND_TRIPS / 1000; k++) {
                if (ring) {
                    ringRound(lib, rank, comm, out, slots, requests, flag, status, head);
                } else {
                    allreduceRound(lib, comm, out);
                }
            }
            double t = (System.nanoTime() - t0) / 1e3 / ROUND_TRIPS / (ring ? 2 : 1);
            if (rep >= 2) {
                best = Math.min(best, t);
            }
        }
        for (MemorySegment r : requests) {
            check((int) lib.cancel.invokeExact(r));
            do {
                check((int) lib.test.invokeExact(r, flag, status));
            } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
        }
        check((int) lib.commFree.invokeExact(comm));
        check((int) lib.finalizeMpi.invokeExact());
        return rank == 0 ? best : -1;
    }

    private static void allreduceRound(MpiLibrary lib, MemorySegment comm, MemorySegment value) throws Throwable {
        for (int i = 0; i < 1000; i++) {
            check((int) lib.allreduce.invokeExact(MemorySegment.NULL, value, 1L, DOUBLE, SUM, comm));
        }
    }

    private static void ringRound(MpiLibrary lib, int rank, MemorySegment comm, MemorySegment out, MemorySegment[] slots,
                                 MemorySegment[] requests, MemorySegment flag, MemorySegment status, int[] head)
            throws Throwable {
        for (int i = 0; i < 1000; i++) {
            for (int turn = 0; turn < 2; turn++) {
                if ((turn == 0) == (rank == 0)) {
                    check((int) lib.send.invokeExact(out, 8L, 1 - rank, 5, comm));
                    continue;
                }
                int h = head[0];
                do {
                    check((int) lib.test.invokeExact(requests[h], flag, status));
                } while (flag.get(ValueLayout.JAVA_INT, 0) == 0);
                check((int) lib.irecv.invokeExact(slots[h], SLOT, lib.anySource, lib.anyTag, comm, requests[h]));
                head[0] = (h + 1) % RING;
            }
        }
    }

    private static void check(int rc) {
        if (rc != 0) {
            throw new IllegalStateException("MPI call failed with code " + rc);
        }
    }
}
