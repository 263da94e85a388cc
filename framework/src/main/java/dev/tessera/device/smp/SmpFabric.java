package dev.tessera.device.smp;

import dev.tessera.device.InProcessJob;
import dev.tessera.device.JobFailure;
import dev.tessera.device.MatchingEngine;

/**
 * The shared state of an smp job: one matching engine (mailbox) per rank, the eager
 * limit, and the job's failure state. Every rank's {@link SmpDevice} points at the same
 * fabric; a sender matches directly against the receiver's engine.
 */
public final class SmpFabric implements InProcessJob {

    /** Default eager limit: messages up to this size are buffered by standard sends. */
    public static final long DEFAULT_EAGER_LIMIT = 16 * 1024;

    private final MatchingEngine[] engines;
    private final long eagerLimit;
    private final JobFailure failure = new JobFailure();
    private final int ringSlots = readRingSlots();
    private final int ringMax = readRingMax();
    /** 1 for a rank whose thread has finished ({@link #rankEnded}). */
    private final java.util.concurrent.atomic.AtomicIntegerArray ended;
    /** The world communicator's collective region: created on first use ({@link #region()}). */
    private SmpRegion region;
    private boolean regionDecided;

    /** Largest payload of one ring entry ({@code -Dtessera.smp.ringMax}, bytes). */
    private static int readRingMax() {
        int max = Integer.getInteger("tessera.smp.ringMax", dev.tessera.device.SmallMessageRing.DEFAULT_MAX_PAYLOAD);
        if (max < 0) {
            throw new IllegalArgumentException("-Dtessera.smp.ringMax must be >= 0, got " + max);
        }
        return max;
    }

    /** Slots per small-message ring, 0 with the rings off ({@code -Dtessera.smp.ring=false}). */
    private static int readRingSlots() {
        String on = System.getProperty("tessera.smp.ring", "true");
        if (!on.equals("true") && !on.equals("false")) {
            throw new IllegalArgumentException("-Dtessera.smp.ring must be true or false, got '" + on + "'");
        }
        int slots = Integer.getInteger("tessera.smp.ringSlots", dev.tessera.device.SmallMessageRing.DEFAULT_SLOTS);
        if (slots < 2 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("-Dtessera.smp.ringSlots must be a power of two >= 2, got " + slots);
        }
        return on.equals("true") ? slots : 0;
    }

    public SmpFabric(int size, long eagerLimit) {
        if (size < 1) {
            throw new IllegalArgumentException("smp job size must be at least 1, got " + size);
        }
        if (eagerLimit < 0) {
            throw new IllegalArgumentException("eager limit must be >= 0, got " + eagerLimit);
        }
        this.engines = new MatchingEngine[size];
        for (int i = 0; i < size; i++) {
            engines[i] = new MatchingEngine();
        }
        this.eagerLimit = eagerLimit;
        this.ended = new java.util.concurrent.atomic.AtomicIntegerArray(size);
    }

    public SmpFabric(int size) {
        this(size, Long.getLong("tessera.eagerLimit", DEFAULT_EAGER_LIMIT));
    }

    @Override
    public int size() {
        return engines.length;
    }

    public long eagerLimit() {
        return eagerLimit;
    }

    /** Slots per small-message ring between two ranks, or 0 if the rings are off. */
    int ringSlots() {
        return ringSlots;
    }

    /**
     * Largest message the rings take: the smaller of {@code -Dtessera.smp.ringMax}, what a ring
     * of {@link #ringSlots()} slots holds in half its slots, and the eager limit; 0 with the rings off.
     */
    int ringMax() {
        if (ringSlots == 0) {
            return 0;
        }
        return (int) Math.min(Math.min(ringMax, dev.tessera.device.SmallMessageRing.maxPayload(ringSlots)), eagerLimit);
    }

    MatchingEngine engine(int rank) {
        return engines[rank];
    }

    public JobFailure failure() {
        return failure;
    }

    @Override
    public void reportFailure(int rank, Throwable cause) {
        failure.report(rank, cause);
    }

    @Override
    public JobFailure.Origin failureOrigin() {
        return failure.origin();
    }

    @Override
    public void rankEnded(int rank) {
        ended.set(rank, 1);
    }

    /** Whether {@code rank}'s thread has finished ({@link #rankEnded}). */
    boolean hasEnded(int rank) {
        return ended.get(rank) != 0;
    }

    /**
     * The world communicator's shared-memory collective region, the same object for every rank,
     * created when the first rank asks; null when the collectives are off or the job has one rank.
     */
    synchronized SmpRegion region() {
        if (!regionDecided) {
            region = SmpRegion.create(engines.length, System.getenv());
            regionDecided = true;
        }
        return region;
    }

    /** The device for one rank of this fabric. */
    @Override
    public SmpDevice device(int rank) {
        if (rank < 0 || rank >= engines.length) {
            throw new IllegalArgumentException("rank " + rank + " outside smp job of size " + engines.length);
        }
        return new SmpDevice(this, rank);
    }
}
