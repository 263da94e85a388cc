package dev.tessera.comm;

import dev.tessera.device.NodeRegion;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Shared-memory collectives of a communicator whose ranks all map one region of shared
 * memory ({@link NodeRegion}, offered by the shm device): barrier, bcast, reduce, allreduce,
 * allgather and alltoall move their data through per-rank slots and synchronize through
 * sequence numbers in those slots, as Open MPI's coll/sm does, instead of point-to-point
 * messages.
 *
 * <p>Layout. Member {@code j} owns a live line and {@link NodeRegion#DEPTH} slots; its k-th
 * flagged call (k = 1, 2, ...) uses slot k mod DEPTH:
 * <pre>
 * live line of j at 64 j
 *   0   long  2 (index + 1) for j's latest collective call on the communicator that does not go
 *             through the slots (0: none yet); a closing rank writes an index past all calls
 * slot (j, k mod DEPTH) at 64 members + (DEPTH j + k mod DEPTH) stride
 *   0   long  k, written last (release)
 *   8   long  count       } the call's signature
 *  16   int   call index (low 32 bits)
 *  20   int   root
 *  24   short call code, 26 short element type, 28 int operation
 *  32   data: up to slotBytes; data of up to 32 bytes shares the cache line of the sequence
 * </pre>
 *
 * <p>Protocol. A flagged call k first waits until every member has started its call
 * k - DEPTH + LAG + 1: a member reads a peer's slot of call m during its own call m, and
 * its right neighbour's for the deferred agreement check until it starts its call
 * m + LAG + 1 at the latest. So a rank can run up to DEPTH - LAG - 1 calls ahead of the
 * slowest, as a bcast root does in a loop. It writes its contribution and signature into
 * its slot, then the sequence number (release), and rings the members that sleep. A reader
 * waits for the slot's sequence number to reach k (acquire) and reads the slot: for a small
 * message, one cache line moves from the writer's core to the reader's.
 *
 * <p>Agreement check ({@link CollectiveCheck}) without any message: a rank compares the
 * signature of every member whose slot it reads (the root for a bcast, every member for
 * allreduce and barrier), and its right ring neighbour's otherwise: left pending at the end
 * of the call (the neighbour may still be in it: reading its line then would pull it back
 * and forth on every call), and compared in a batch when a later call needs the slot's
 * reuse (LAG calls later), in a blocking wait, at free or at close. Every collective call draws an index in program
 * order ({@link Comm#nextCollectiveIndex}); a flagged call writes its index into its slot's
 * signature, a call that does not go through the slots (nonblocking, vector and object
 * collectives) writes it into the live line. A rank that waits for a member's slot k
 * therefore stops with the mismatch error, never hangs, when that member made another kind
 * of call at that index or went past it (or closed), and with the job's error when a member dies. Calls whose data does not fit a
 * slot (or with a forced algorithm) still publish their slot's signature and sequence, and
 * run the point-to-point algorithms with this check.
 *
 * <p>Chunks. A reduce or allreduce vector larger than a slot goes through the slots as
 * several flagged calls, one chunk of whole elements each, all with the call's index and
 * signature: the slot protocol above pipelines them (a rank copies chunk m + 1 in while the
 * others combine chunk m), and a mismatch shows at the first chunk.
 */
final class NodeCollectives {

    private static final int DEPTH = NodeRegion.DEPTH;
    private static final int SEQ = 0;
    private static final int SIG = 8;
    private static final int DATA = NodeRegion.SLOT_HEADER;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Comm comm;
    private final NodeRegion region;
    private final MemorySegment mem;
    private final int p;
    private final int me;
    private final long slot;
    private final long stride;
    private final long slotsAt;
    private final int[] worldOf;
    /** Per member: the highest sequence number seen in its slots (so a met condition is not read again). */
    private final long[] seen;
    /**
     * Calls a reader may lag behind: a rank reads a peer's slot of call m until it starts its
     * call m + LAG + 1 (its right neighbour's, for the deferred agreement check), so a writer
     * reuses the slot of call k - DEPTH once every member has started call k - DEPTH + LAG + 1.
     */
    private static final int LAG = 3;
    /** Flagged calls started by this rank, and the call index and signature of each of the last DEPTH. */
    private long seq;
    private final long[] indexOf = new long[DEPTH];
    private final CollectiveCheck.Signature[] signatureOf = new CollectiveCheck.Signature[DEPTH];
    /** Calls up to this one are compared with the right neighbour's; calls up to rightTo need to be. */
    private long rightChecked;
    private long rightTo;
    /** Calls whose data moved through the slots (diagnostics: {@link Comm#sharedMemoryCollectiveCalls}). */
    private final java.util.concurrent.atomic.AtomicLong slotCalls = new java.util.concurrent.atomic.AtomicLong();
    /** Whether the agreement check is on (read at each call: the tuning may change it on every rank). */
    private boolean checking;

    NodeCollectives(Comm comm, NodeRegion region) {
        this.comm = comm;
        this.region = region;
        this.mem = region.memory();
        this.p = comm.size();
        this.me = comm.rank();
        this.slot = region.slotBytes();
        this.stride = NodeRegion.slotStride(region.slotBytes());
        this.slotsAt = (long) p * NodeRegion.LIVE_BYTES;
        this.worldOf = new int[p];
        for (int j = 0; j < p; j++) {
            worldOf[j] = comm.group.worldRank(j);
        }
        this.seen = new long[p];
    }

    long slotCalls() {
        return slotCalls.get();
    }

    /** Bytes one rank can contribute to a call through the slots. */
    long slotBytes() {
        return slot;
    }

    private static long live(int j) {
        return (long) j * NodeRegion.LIVE_BYTES;
    }

    /** Where member j's slot of its call k starts (the sequence number; the data is at + DATA). */
    private long slotAt(int j, long k) {
        return slotsAt + ((long) j * DEPTH + (int) (k % DEPTH)) * stride;
    }

    private static long live(long callIndex, boolean flagged) {
        return ((callIndex + 1) << 1) | (flagged ? 1 : 0);   // flagged calls do not write it today
    }

    /** A collective call at {@code callIndex} that does not go through the flags (see the class comment). */
    void announceUnflagged(long callIndex) {
        LONG.setRelease(mem, live(me), live(callIndex, false));
        region.wake();
    }

    /**
     * The rank closes: a member that waits for a slot this rank did not publish stops with the
     * mismatch error. Not in a failed job (its members report its failure).
     */
    void announceClosed() {
        try {
            comm.device().checkHealthy();
        } catch (RuntimeException failed) {
            return;   // a failed job: the members must see its failure, not a missing call
        }
        // a rank whose main ends by an exception closes before reporting it: the waiters tell the two apart
        // ({@link #reached}) by waiting until its process has exited, when the failure is in the job's state
        LONG.setRelease(mem, live(me), live(Long.MAX_VALUE / 4, false));
        region.wake();
    }

    /** The last call name looked up and its code (names are constants: one map lookup per kind of call). */
    private record CallCode(String call, short code) {
    }

    private CallCode lastCode = new CallCode("", (short) -1);

    private short callCode(CollectiveCheck.Signature signature) {
        CallCode c = lastCode;   // one immutable pair: safe to read from a thread that completes a deferred check
        if (c.call() != signature.call()) {
            c = new CallCode(signature.call(), (short) CollectiveCheck.callCode(signature.call()));
            lastCode = c;
        }
        return c.code();
    }

    /** A flagged call of this rank: its sequence number, call index and signature. */
    record Call(long k, long index, CollectiveCheck.Signature signature) {
    }

    /**
     * Starts a flagged call: waits until every member has started the previous one, writes
     * {@code data} (if not null) into this rank's slot, then the signature and the sequence.
     */
    Call start(CollectiveCheck.Signature signature, MemorySegment data) {
        long callIndex = comm.nextCollectiveIndex(true);
        checking = CollectiveCheck.enabled(comm.env.tuning);
        return publish(callIndex, signature, data);
    }

    /**
     * Publishes this rank's next flagged call (a whole call, or one chunk of a call whose data
     * goes through the slots in several: every chunk carries the call's index and signature).
     */
    private Call publish(long callIndex, CollectiveCheck.Signature signature, MemorySegment data) {
        long k = seq + 1;
        if (rightChecked < k - LAG - 1 && rightTo > rightChecked) {
            verifyRight(Math.min(rightTo, k - LAG - 1));   // its slot may be reused once this call is published
            verifyRightPublished();   // and the later ones already there, in one batch of reads
        }
        long free = k - DEPTH + LAG + 1;  // every member must have started this call: then slot k is read by nobody
        if (free >= 1) {
            for (int j = 0; j < p; j++) {
                if (j != me) {
                    await(j, free, indexOf[(int) (free % DEPTH)], signature, false);
                }
            }
        }
        seq = k;
        indexOf[(int) (k % DEPTH)] = callIndex;
        signatureOf[(int) (k % DEPTH)] = signature;
        long at = slotAt(me, k);
        if (data != null && data.byteSize() > 0) {
            MemorySegment.copy(data, 0, mem, at + DATA, data.byteSize());
        }
        mem.set(ValueLayout.JAVA_LONG, at + SIG, signature.count());
        mem.set(ValueLayout.JAVA_INT, at + SIG + 8, (int) callIndex);
        mem.set(ValueLayout.JAVA_INT, at + SIG + 12, signature.root());
        mem.set(ValueLayout.JAVA_SHORT, at + SIG + 16, callCode(signature));
        mem.set(ValueLayout.JAVA_SHORT, at + SIG + 18, (short) signature.type());
        mem.set(ValueLayout.JAVA_INT, at + SIG + 20, signature.op());
        LONG.setRelease(mem, at + SEQ, k);
        region.wake();
        return new Call(k, callIndex, signature);
    }

    /**
     * Waits until member {@code j} has started its flagged call {@code k} (this rank's call
     * {@code k} has index {@code myIndex}), then, if {@code compare} and the check is on,
     * compares its signature with {@code mine}.
     */
    private void await(int j, long k, long myIndex, CollectiveCheck.Signature mine, boolean compare) {
        if (seen[j] < k && !reached(j, k, myIndex, mine)) {
            // while waiting, the pending comparisons with the right neighbour too: a mismatch there may be
            // what keeps j from coming (it made a nonblocking call where this rank made a blocking one)
            region.awaitUntil(() -> (rightTo <= rightChecked || tryVerifyRight())
                    & reached(j, k, myIndex, mine), worldOf[j]);
        }
        if (compare && checking) {
            compare(j, k, myIndex, mine);
        }
    }

    /**
     * Whether member {@code j} has started its flagged call {@code k}; throws the mismatch
     * error if its live word shows that it made another kind of call at this rank's index
     * {@code myIndex}, or went past it without a flag.
     */
    boolean reached(int j, long k, long myIndex, CollectiveCheck.Signature mine) {
        if (seen[j] >= k) {
            return true;
        }
        long s = (long) LONG.getAcquire(mem, slotAt(j, k) + SEQ);
        if (s >= k) {
            seen[j] = s;
            return true;
        }
        // not there: the live word, then the sequence again (a live word written after the slot implies the slot)
        long live = (long) LONG.getAcquire(mem, live(j));
        s = (long) LONG.getAcquire(mem, slotAt(j, k) + SEQ);
        if (s >= k) {
            seen[j] = s;
            return true;
        }
        long theirs = (live >> 1) - 1;
        if (live != 0 && (theirs > myIndex || theirs == myIndex && (live & 1) == 0)) {
            boolean closed = theirs > Long.MAX_VALUE / 8;
            if (closed && !region.memberExited(worldOf[j])) {
                // a rank closes its session before the exception that ends its main is reported: wait until its
                // process is gone, by then a failure it reports is in the job's state (checked next)
                return false;
            }
            comm.device().checkHealthy();   // a job that failed reports its failure, not what it left undone
            throw CollectiveCheck.mismatch(comm, mine, j, new String[] {"made",
                    mine.call() + " as its collective call number " + (myIndex + 1) + " on this communicator",
                    closed ? "no such call before it closed"
                            : "another kind of collective call (nonblocking, vector or object) as its number "
                            + (Math.min(theirs, myIndex) + 1)});
        }
        return false;
    }

    /** Compares member {@code j}'s signature of call {@code k} with this rank's (aborting the job on a mismatch). */
    private void compare(int j, long k, long myIndex, CollectiveCheck.Signature mine) {
        long s = slotAt(j, k) + SIG;
        int theirIndex = mem.get(ValueLayout.JAVA_INT, s + 8);
        if (mem.get(ValueLayout.JAVA_LONG, s) == mine.count() && mem.get(ValueLayout.JAVA_INT, s + 12) == mine.root()
                && mem.get(ValueLayout.JAVA_SHORT, s + 16) == callCode(mine)
                && mem.get(ValueLayout.JAVA_SHORT, s + 18) == (short) mine.type()
                && mem.get(ValueLayout.JAVA_INT, s + 20) == mine.op() && theirIndex == (int) myIndex) {
            return;   // the common case, without allocating the peer's signature
        }
        CollectiveCheck.Signature other = new CollectiveCheck.Signature(
                CollectiveCheck.callName(mem.get(ValueLayout.JAVA_SHORT, s + 16)),
                mem.get(ValueLayout.JAVA_SHORT, s + 18), mem.get(ValueLayout.JAVA_LONG, s),
                mem.get(ValueLayout.JAVA_INT, s + 12), mem.get(ValueLayout.JAVA_INT, s + 20));
        if (mine.difference(other) != null) {
            throw CollectiveCheck.mismatch(comm, mine, j, other);
        }
        if (theirIndex != (int) myIndex) {
            throw CollectiveCheck.mismatch(comm, mine, j, new String[] {"made", mine.call() + " as its collective call number "
                    + (myIndex + 1) + " on this communicator", "it as its number " + (Integer.toUnsignedLong(theirIndex) + 1)
                    + " (the ranks made different numbers of collective calls before it)"});
        }
    }

    /** The agreement check of {@code call} against the right ring neighbour, by its flag. */
    CollectiveCheck rightCheck(Call call) {
        return new CollectiveCheck(comm, call.signature(), this, (me + 1) % p, call.k(), call.index());
    }

    /** Waits for member {@code j}'s flag of call {@code k} and compares (the flag mode of {@link CollectiveCheck}). */
    void verify(int j, long k, long myIndex, CollectiveCheck.Signature mine) {
        await(j, k, myIndex, mine, true);
    }

    /**
     * Ends a call that compared with {@code compared} (-1: nobody; Integer.MAX_VALUE: every
     * member): unless that included the right neighbour, its comparison is made now if its
     * slot is there, else left pending ({@link #tryVerifyRight}, {@link #verifyRight}).
     */
    private void finish(Call call, int compared) {
        int right = (me + 1) % p;
        synchronized (this) {
            // every call up to rightTo is compared (again, if it was already) by the range below; rightTo is
            // always the latest call once any is pending, so no call's slot is compared after its reuse
            if (!checking || (compared == right || compared == Integer.MAX_VALUE) && rightChecked == call.k() - 1) {
                rightChecked = call.k();
                rightTo = call.k();
                return;
            }
            rightTo = call.k();
        }
        // left pending without reading the neighbour's slot now: while it is still in its call, that read would
        // pull its line back and forth on every call; the next calls compare in batches (publish), at the latest
        // LAG calls later, and so do a blocking wait, free and close
        comm.deferNodeCheck();
    }

    /** Compares the right neighbour's pending calls whose slots are published, reading nothing else. */
    private synchronized void verifyRightPublished() {
        int right = (me + 1) % p;
        while (rightChecked < rightTo) {
            long m = rightChecked + 1;
            long s = seen[right] >= m ? seen[right] : (long) LONG.getAcquire(mem, slotAt(right, m) + SEQ);
            if (s < m) {
                return;
            }
            seen[right] = Math.max(seen[right], s);
            compare(right, m, indexOf[(int) (m % DEPTH)], signatureOf[(int) (m % DEPTH)]);
            rightChecked = m;
        }
    }

    /** Compares the right neighbour's pending calls whose slots are there; true when none is left pending. */
    synchronized boolean tryVerifyRight() {
        int right = (me + 1) % p;
        while (rightChecked < rightTo) {
            long m = rightChecked + 1;
            CollectiveCheck.Signature mine = signatureOf[(int) (m % DEPTH)];
            long myIndex = indexOf[(int) (m % DEPTH)];
            if (!reached(right, m, myIndex, mine)) {
                return false;
            }
            compare(right, m, myIndex, mine);
            rightChecked = m;
        }
        return true;
    }

    /** Waits for and compares the right neighbour's pending calls up to {@code upTo} (all pending: Long.MAX_VALUE). */
    synchronized void verifyRight(long upTo) {
        int right = (me + 1) % p;
        long last = Math.min(upTo, rightTo);
        while (rightChecked < last) {
            long m = rightChecked + 1;
            await(right, m, indexOf[(int) (m % DEPTH)], signatureOf[(int) (m % DEPTH)], true);
            rightChecked = m;
        }
    }

    private void awaitAll(Call c) {
        for (int j = 0; j < p; j++) {
            if (j != me) {
                await(j, c.k(), c.index(), c.signature(), true);
            }
        }
    }

    // ------------------------------------------------------------------ the collectives

    void barrier(CollectiveCheck.Signature signature) {
        Call c = start(signature, null);
        slotCalls.getAndIncrement();
        awaitAll(c);
        finish(c, Integer.MAX_VALUE);
    }

    void bcast(CollectiveCheck.Signature signature, MemorySegment data, int root) {
        Call c = start(signature, me == root ? data : null);
        slotCalls.getAndIncrement();
        if (me != root) {
            await(root, c.k(), c.index(), signature, true);
            if (data.byteSize() > 0) {
                MemorySegment.copy(mem, slotAt(root, c.k()) + DATA, data, 0, data.byteSize());
            }
        }
        finish(c, me == root ? -1 : root);
    }

    /**
     * Reduce into {@code data} at the root (every rank's contribution is in its {@code data}).
     * A vector larger than a slot goes through the slots in chunks of whole elements, one
     * flagged call each: a contributor runs up to DEPTH - LAG - 1 chunks ahead of the root,
     * which combines chunk m while the others copy in the next ones.
     */
    void reduce(CollectiveCheck.Signature signature, MemorySegment data, int count, Op op, Datatype type, int root) {
        boolean pair = pairwise(op);
        // with two ranks and a symmetric operation the root combines the other's slot into its own vector
        // (x1 op x0 = x0 op x1), so its own contribution need not go through its slot
        inChunks(signature, data, count, type, me != root || !pair, (c, part, n) -> {
            if (me == root) {
                awaitAll(c);
                combine(c.k(), part, n, op, type, pair);
            }
            finish(c, me == root ? Integer.MAX_VALUE : -1);
        });
    }

    /**
     * Allreduce in place in {@code data}. A vector larger than a slot goes through the slots in
     * chunks of whole elements, one flagged call each: every rank copies in chunk m + 1 while
     * the others still combine chunk m.
     */
    void allreduce(CollectiveCheck.Signature signature, MemorySegment data, int count, Op op, Datatype type) {
        boolean pair = pairwise(op);
        inChunks(signature, data, count, type, true, (c, part, n) -> {
            awaitAll(c);
            combine(c.k(), part, n, op, type, pair);
            finish(c, Integer.MAX_VALUE);
        });
    }

    /** What a reduction does with one chunk of {@code n} elements once its flagged call {@code c} is published. */
    private interface Chunk {
        void run(Call c, MemorySegment part, int n);
    }

    /**
     * One collective call over {@code count} elements of {@code data}, as one flagged call per
     * chunk (one chunk when the vector fits a slot), each publishing its part of the data
     * (unless {@code publishData} is false) before {@code body} runs.
     */
    private void inChunks(CollectiveCheck.Signature signature, MemorySegment data, int count, Datatype type,
            boolean publishData, Chunk body) {
        long callIndex = comm.nextCollectiveIndex(true);
        checking = CollectiveCheck.enabled(comm.env.tuning);
        slotCalls.getAndIncrement();
        long es = type.byteSize();
        int per = chunkElements(es);
        int done = 0;
        do {
            int n = Math.min(per, count - done);
            MemorySegment part = data.asSlice(done * es, n * es);
            body.run(publish(callIndex, signature, publishData ? part : null), part, n);
            done += n;
        } while (done < count);
    }

    /** Elements of {@code elementBytes} bytes in one chunk: a slot's worth, even (MINLOC and MAXLOC take pairs). */
    private int chunkElements(long elementBytes) {
        return (int) Math.min(Integer.MAX_VALUE, slot / elementBytes) & ~1;
    }

    /**
     * Whether the combine may fold the other rank's slot straight into this rank's vector: two
     * ranks and an operation with a op b = b op a element by element ({@link Op#symmetric}), so
     * both get the rank-order result without the copy; else every rank folds in rank order.
     */
    private boolean pairwise(Op op) {
        return p == 2 && op.symmetric();
    }

    /**
     * data = x0 op x1 op ... op x(p-1) for this chunk, in rank order (so non-commutative
     * operations and every rank agree); {@code pair}: data (this rank's x) = x(other) op data.
     */
    private void combine(long k, MemorySegment data, int count, Op op, Datatype type, boolean pair) {
        long bytes = data.byteSize();
        if (bytes == 0) {
            return;
        }
        if (pair) {
            op.apply(mem.asSlice(slotAt(1 - me, k) + DATA, bytes), data, count, type);
            return;
        }
        MemorySegment.copy(mem, slotAt(p - 1, k) + DATA, data, 0, bytes);
        for (int j = p - 2; j >= 0; j--) {
            op.apply(mem.asSlice(slotAt(j, k) + DATA, bytes), data, count, type);
        }
    }

    /** Allgather: {@code mine} is this rank's block, {@code data} the receive buffer (p blocks of mine's size). */
    void allgather(CollectiveCheck.Signature signature, MemorySegment mine, MemorySegment data) {
        Call c = start(signature, mine);
        slotCalls.getAndIncrement();
        long block = mine.byteSize();
        for (int j = 0; j < p; j++) {
            if (j != me) {
                await(j, c.k(), c.index(), signature, true);
                MemorySegment.copy(mem, slotAt(j, c.k()) + DATA, data, j * block, block);
            }
        }
        finish(c, Integer.MAX_VALUE);
    }

    /** Alltoall: {@code send} holds p blocks (block j goes to rank j), {@code recv} receives p blocks. */
    void alltoall(CollectiveCheck.Signature signature, MemorySegment send, MemorySegment recv, long blockBytes) {
        Call c = start(signature, send);
        slotCalls.getAndIncrement();
        for (int j = 0; j < p; j++) {
            if (j != me) {
                await(j, c.k(), c.index(), signature, true);
                MemorySegment.copy(mem, slotAt(j, c.k()) + DATA + me * blockBytes, recv, j * blockBytes, blockBytes);
            } else {
                MemorySegment.copy(send, me * blockBytes, recv, me * blockBytes, blockBytes);
            }
        }
        finish(c, Integer.MAX_VALUE);
    }

    /**
     * A call that runs a point-to-point algorithm (its data does not fit a slot, or an
     * algorithm is forced): publishes the flag, and returns the channel whose agreement check
     * compares the right neighbour's flag.
     */
    CollectiveChannel channel(CollectiveCheck.Signature signature, Datatype type) {
        Call c = start(signature, null);
        synchronized (this) {
            // the channel's own check compares this call before it blocks; the range keeps covering it
            if (!checking) {
                rightChecked = c.k();
            }
            rightTo = c.k();
        }
        if (checking) {
            comm.deferNodeCheck();
        }
        int tag = (int) (c.index() & (Comm.COLLECTIVE_TAG_SPAN - 1));
        return new CollectiveChannel(comm, signature.call(), tag, type,
                checking ? rightCheck(c) : null);
    }
}
