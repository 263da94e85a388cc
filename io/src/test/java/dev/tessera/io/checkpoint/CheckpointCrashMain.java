package dev.tessera.io.checkpoint;

import dev.tessera.comm.Datatype;
import dev.tessera.io.pfile.Subarray;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.nio.file.Path;

/**
 * A job (run with {@code tessera run -np N --device shm}) that saves checkpoint 1, then
 * starts checkpoint 2 and, once rank 1's file of it is on disk, prints
 * {@code MIDWRITE pid <pid>} on rank 1 and waits to be killed.
 */
public final class CheckpointCrashMain {

    static final int[] SIZES = {6, 5, 4};

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        try (Session s = Tessera.init(args)) {
            Checkpointer cp = new Checkpointer(s.world(), dir).listener((phase, step, d) -> {
                if (step == 2 && phase == Checkpointer.Phase.RANK_FILE_WRITTEN && s.rank() == 1) {
                    System.out.println("MIDWRITE pid " + ProcessHandle.current().pid());
                    System.out.flush();
                    try {
                        Thread.sleep(120_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            for (long step = 1; step <= 2; step++) {
                cp.save(step, data(s.rank(), s.size(), step));
                System.out.println("SAVED " + step + " rank " + s.rank());
            }
        }
    }

    /** Rank {@code rank}'s data of step {@code step}: a local array, metadata and its block of the field "rho". */
    static CheckpointData data(int rank, int ranks, long step) {
        Subarray block = slab(rank, ranks);
        return new CheckpointData()
                .metadata("step", Long.toString(step))
                .metadata("owner", "rank " + rank)
                .put("local", new long[] {step, rank, 42})
                .distributed("rho", block, field(block, step));
    }

    /** Slab decomposition along the first dimension, remainder to the first ranks. */
    static Subarray slab(int rank, int ranks) {
        int base = SIZES[0] / ranks;
        int rem = SIZES[0] % ranks;
        int n = base + (rank < rem ? 1 : 0);
        int start = rank * base + Math.min(rank, rem);
        return Subarray.of(Datatype.DOUBLE, SIZES, new int[] {n, SIZES[1], SIZES[2]}, new int[] {start, 0, 0});
    }

    static double[] field(Subarray b, long step) {
        double[] out = new double[(int) b.elementCount()];
        int plane = SIZES[1] * SIZES[2];
        for (int i = 0; i < out.length; i++) {
            out[i] = step * 1000 + b.starts()[0] * plane + i;
        }
        return out;
    }
}
