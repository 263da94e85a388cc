package dev.tessera.bench.osu;

import dev.tessera.comm.Comm;
import dev.tessera.device.Posix;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

/**
 * Turn-taking between the two sides of an interleaved comparison ({@code tessera bench --vs native
 * --interleave}): Tessera's job and Open MPI's job run at the same time and take turns, one
 * segment each (a size's warm-up, or one timed block), so both meet the same states of the
 * machine: on a VM whose two vCPUs move between the host's core complexes every few seconds,
 * small-message times of both switch between levels 2-2.5x apart, and runs taken one after the
 * other can each meet a different level. A side waits for its turn asleep on a futex on the
 * baton's word ({@link Posix#futexWait}), woken by the side that passes it, so it takes no CPU
 * from the side that runs: a waiter that polled every 20 us instead preempted the running
 * side's spinning ranks 100,000 times a second and made both sides' times 1.5-3x longer and
 * noisier. Where futexes are not available it polls every millisecond.
 *
 * <p>The baton is a file of {@link #BYTES} bytes (zeroed) whose first int counts the segments
 * run by both sides: side {@code s} (0 or 1) runs its segment {@code j} when the count is
 * {@code 2 j + s}, and its rank 0 stores {@code 2 j + s + 1} once every rank of the side has
 * finished it. Both sides run the same number of segments. bench/native/osu_mpi.c does the
 * same. The environment variable {@value #ENV} names the file and the side: {@code PATH:SIDE}.
 */
public final class Baton {

    public static final String ENV = "TESSERA_BENCH_BATON";
    public static final int BYTES = 64;
    /** A futex wait's timeout (the condition is checked again after it), or the poll interval without futexes. */
    private static final long SLEEP_NANOS = 1_000_000;
    private static final MemorySegment SLEEP = Posix.futexAvailable() ? Posix.timespec(100 * SLEEP_NANOS) : null;
    /** A side that waits this long for its turn gives up: the other side has stopped. */
    static final long TIMEOUT_NANOS = Long.getLong("tessera.bench.batonTimeoutSeconds", 600) * 1_000_000_000L;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment turn;
    private final int side;
    private final Comm world;
    private int segment;

    Baton(MemorySegment turn, int side, Comm world) {
        if (side != 0 && side != 1) {
            throw new IllegalArgumentException("baton side must be 0 or 1, got " + side);
        }
        this.turn = turn;
        this.side = side;
        this.world = world;
    }

    /** The baton named by {@value #ENV} ({@code PATH:SIDE}), or null if the variable is not set. */
    static Baton fromEnvironment(Comm world) {
        return parse(System.getenv(ENV), world);
    }

    static Baton parse(String value, Comm world) {
        if (value == null || value.isBlank()) {
            return null;
        }
        int colon = value.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException(ENV + " must be PATH:SIDE, got '" + value + "'");
        }
        int side;
        try {
            side = Integer.parseInt(value.substring(colon + 1).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ENV + " must be PATH:SIDE with SIDE 0 or 1, got '" + value + "'");
        }
        Path file = Path.of(value.substring(0, colon));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (ch.size() < BYTES) {
                throw new IllegalArgumentException(ENV + ": " + file + " has " + ch.size() + " bytes, needs " + BYTES);
            }
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, BYTES, Arena.ofAuto());
            return new Baton(m, side, world);
        } catch (IOException e) {
            throw new UncheckedIOException(ENV + ": cannot map " + file, e);
        }
    }

    /** Waits, asleep, until this side's next segment may run. */
    void await() {
        int want = 2 * segment + side;
        long start = System.nanoTime();
        for (int seen; (seen = (int) INT.getAcquire(turn, 0L)) != want; ) {
            if (SLEEP != null) {
                Posix.futexWait(turn.address(), seen, SLEEP);
            } else {
                LockSupport.parkNanos(SLEEP_NANOS);
            }
            if (System.nanoTime() - start > TIMEOUT_NANOS) {
                throw new IllegalStateException("bench: rank " + world.rank() + " waited " + TIMEOUT_NANOS / 1_000_000_000L
                        + " s for its turn (segment " + segment + " of side " + side + "): the other side has stopped");
            }
        }
    }

    /** Ends this side's segment: once every rank is done with it, rank 0 hands the turn to the other side. */
    void pass() {
        world.barrier();
        if (world.rank() == 0) {
            INT.setRelease(turn, 0L, 2 * segment + side + 1);
            if (SLEEP != null) {
                Posix.futexWake(turn.address());
            }
        }
        segment++;
    }

    /** Segments this side has passed. */
    int segments() {
        return segment;
    }
}
