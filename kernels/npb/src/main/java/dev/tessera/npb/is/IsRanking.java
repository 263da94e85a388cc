package dev.tessera.npb.is;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.Op;
import dev.tessera.comm.Request;
import dev.tessera.npb.Randlc;
import dev.tessera.npb.VectorSwitch;
import dev.tessera.task.Team;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Locale;

/**
 * One rank's keys and work arrays of {@link IsKernel}, and the ranking iteration over them
 * ({@code rank} in NPB3.4-MPI IS/is.c), with the loops spread over the rank's team.
 *
 * <p>Arrays (is.c names): {@code keyArray} holds this rank's {@code numKeys} keys;
 * {@code keyBuff1} the same keys grouped by the rank that owns their bucket (the alltoallv
 * send buffer; is.c groups them by bucket, which orders them the same way by rank);
 * {@code keyBuff2} the keys received from the other ranks. The rank's own keys of buckets
 * {@code ptr1[me]..ptr2[me]} are not sent to itself as is.c's alltoallv does: they stay in
 * {@code keyBuff1} and the count reads them there, then those in {@code keyBuff2} (with two
 * ranks that self part is half of what is.c's alltoallv copies). keyBuff1 and keyBuff2 are
 * off the heap (native segments of an automatic arena), so that the shm device moves the
 * alltoallv's messages by single copy (process_vm_readv) instead of through its ring; the
 * partition writes and the count reads them in place. {@code counts} holds the populations,
 * then inclusive prefix sums, over this rank's key range {@code [minKeyVal, maxKeyVal]} (is.c
 * reuses key_buff1 for it). The send and receive buffers hold SIZE_OF_BUFFERS keys, 1.5 x the
 * average for fewer than 256 ranks, as the reference sizes them. With one rank nothing is
 * exchanged: neither buffer is allocated, and {@code keyArray} and {@code verifyCopy} (the copy
 * the full verification sorts from) hold {@code numKeys} keys each, 2 instead of 4.5 ints per
 * key (class C: 1 GiB instead of 2.25 GiB).
 *
 * <p>The keys are not bucket-sorted as is.c does: after the bucket counts and their
 * allreduce fix which rank owns which buckets, one pass writes each key into the part of
 * {@code keyBuff1} for its bucket's owner, in the order read ({@link #partitionByRank}). The
 * receiver only counts the keys, and the count does not depend on their order. With two ranks
 * that pass has two write streams instead of is.c's 1024; on the Intel Xeon kind of machine a
 * scatter into 1024 streams took 20-26 ms per 4M keys, three times the partition's 6-7 ms
 * (docs/npb.md, "Stop 39"). The count then reads the keys in key order instead of bucket
 * order, which costs it about 2 ms of that.
 *
 * <p>Threads: the partition gives each member a contiguous block of keys; members count
 * their block's buckets privately, then the rank's thread computes, from all members' counts,
 * where each member's keys for each rank start (after lower members' keys for that rank), so
 * the partition needs no synchronisation and produces exactly the sequential order. With one
 * rank there is nothing to redistribute: the keys are counted where they are, without the
 * bucket sort and the exchange (or, with {@code bucketsAtOneRank}, bucket-sorted as is.c does:
 * {@link #bucketSort}, whose members place their keys of bucket b after lower members'). The population count gives each member a
 * private histogram over the key range; the histograms are then summed and scanned by blocks
 * of the range into {@code counts}, each block offset by the totals of the blocks before it.
 * With one member the histogram is {@code counts} itself (ints). With more, each member's
 * histogram has 16-bit counters ({@code char}), half the bytes: two members' tables of
 * class A (2^19 keys) take 1 MiB each instead of 2 MiB, so they stay closer to each core's
 * 1 MiB L2 and the two members' random increments contend less in the shared L3 (a scratch
 * count of 8M keys, 2 threads: 3.1 ms against 3.3-4.1 with ints; 1 thread: the same). The scan
 * clears the tables as it reads them. A counter wraps only when one member holds more than
 * 65535 keys of one value (NPB's keys hold about 43 per value at the peak of their
 * distribution); then the block totals no longer add up to the keys counted, and the count
 * is redone with int histograms ({@link #countAndScanWide}). All communication happens on
 * the rank's own thread between these parallel regions.
 */
final class IsRanking {

    private final Comm world;
    private final Team team;
    private final char problemClass;
    private final int myRank;
    private final int commSize;
    /** One rank counting its keys where they are, without bucket sort and exchange (the default at one rank). */
    private final boolean inPlace;
    private final int numKeys;
    private final int maxKey;
    private final int numBuckets;
    private final int shift;
    private final int[] testIndex;
    private final int[] testRank;

    private final int[] keyArray;
    /** The alltoallv send buffer; null with one rank. */
    private final MemorySegment keyBuff1;
    /** Keys received (native, more than one rank), or with one rank null. */
    private final MemorySegment keyBuff2;
    /** With one rank: the copy of the keys the full verification sorts from; else null. */
    private final int[] verifyCopy;
    /** Ints in keyBuff1 and keyBuff2 (SIZE_OF_BUFFERS). */
    private final int bufferInts;
    private int[] counts;
    /** Members' 16-bit histograms (members > 1), all zero between counts. */
    private final char[][] narrowHist;
    /** Members' int histograms for the wide recount (member 0's is counts); allocated on first use. */
    private final int[][] memberHist;
    private final int[][] memberBuckets;
    private final int[][] memberPtrs;
    /** Several ranks: where member m writes its next key for rank r in keyBuff1 (memberPos[m][r]). */
    private final int[][] memberPos;
    /** More than two ranks: the rank each bucket's keys go to. */
    private final int[] bucketOwner;
    private final long[] blockTotals;

    private final int[] bucketSize;
    private final int[] bucketSizeTotals;
    private final int[] ptr1;
    private final int[] ptr2;
    private final int[] sendCount;
    private final int[] recvCount;
    private final int[] sendDispl;
    private final int[] recvDispl;
    /** The counts the alltoallv is given: sendCount and recvCount with this rank's own entry 0. */
    private final int[] sendCountOthers;
    private final int[] recvCountOthers;
    private final Buffer bucketSizeBuffer;
    private final Buffer bucketTotalsBuffer;
    private final Buffer sendCountBuffer;
    private final Buffer recvCountBuffer;
    private final Buffer keyBuff1Buffer;
    private final Buffer keyBuff2Buffer;

    private int passedVerification;
    private final StringBuilder failures = new StringBuilder();
    /** State of the last timed iteration, which the full verification sorts by. */
    private int totalLocalKeys;
    private int lastMinKeyVal;
    /**
     * Where this rank's keys of the last ranking lie (several ranks): its own keys (the
     * partition's part or parts for this rank in keyBuff1, never sent) and after them the keys
     * received from the other ranks (keyBuff2 from 0). With one rank null: the whole keyArray.
     */
    private Keys lastKeys;
    /** Keys of all ranks below lastMinKeyVal in the last timed iteration, and its range's last key. */
    private long lastLesser;
    private int lastMaxKeyVal;
    private volatile boolean recountedWide;
    /**
     * Two ranks with at most two members each, and {@link IsKernel#SPLIT} not {@code buckets}: the
     * keys are split at {@link #split} without counting buckets first ({@link #rankSplitTwo}).
     */
    private final boolean splitAdaptive;
    /**
     * The key the two-rank ranking splits at (rank 0 holds the keys below it): the middle of the
     * key range, until a ranking finds the halves off balance and counts buckets; then the
     * bucket boundary that ranking chose.
     */
    private int split;
    /** Rankings whose adaptive split was off balance and counted buckets after all (for the report and tests). */
    private int splitFallbacks;
    /** Per member: keys below the split in its block (two-rank adaptive split). */
    private final int[] memberLow;
    /** Allreduce of the adaptive split: keys below and above the split, then the test keys. */
    private final int[] splitTotals;
    private final int[] splitMine;
    private final Buffer splitMineBuffer;
    private final Buffer splitTotalsBuffer;

    IsRanking(Comm world, Team team, char problemClass, int totalKeysLog2, int maxKeyLog2, int numBucketsLog2,
            int[] testIndex, int[] testRank) {
        this(world, team, problemClass, totalKeysLog2, maxKeyLog2, numBucketsLog2, testIndex, testRank, false);
    }

    /**
     * With {@code bucketsAtOneRank}, one rank ranks as is.c's np = 1 does (bucket sort, then the
     * count over the bucket-sorted keys; the exchange with itself moves nothing), instead of
     * counting its keys in place: for measuring speed-ups on the reference's terms.
     */
    IsRanking(Comm world, Team team, char problemClass, int totalKeysLog2, int maxKeyLog2, int numBucketsLog2,
            int[] testIndex, int[] testRank, boolean bucketsAtOneRank) {
        this.world = world;
        this.team = team;
        this.problemClass = problemClass;
        this.myRank = world.rank();
        this.commSize = world.size();
        this.numKeys = (1 << totalKeysLog2) / commSize;
        this.maxKey = 1 << maxKeyLog2;
        this.numBuckets = 1 << numBucketsLog2;
        this.shift = maxKeyLog2 - numBucketsLog2;
        this.testIndex = testIndex;
        this.testRank = testRank;
        this.inPlace = commSize == 1 && !bucketsAtOneRank;
        int size = inPlace ? numKeys : bufferSize(numKeys, commSize);
        keyArray = new int[size];
        bufferInts = size;
        if (inPlace) {
            keyBuff1 = null;
            keyBuff2 = null;
            verifyCopy = new int[size];
        } else {
            // Off the heap, so that the shm device sends them by single copy (a heap array can move
            // while another process reads it, so heap messages go through the shared ring, copied
            // into it and out of it). Freed with this object.
            Arena arena = Arena.ofAuto();
            keyBuff1 = arena.allocate((long) Integer.BYTES * size, 64);
            keyBuff2 = arena.allocate((long) Integer.BYTES * size, 64);
            verifyCopy = null;
        }
        int members = team.size();
        int rangeGuess = Math.min(maxKey, 2 * (maxKey / commSize) + numBuckets);
        counts = new int[rangeGuess];
        memberHist = new int[members][];
        narrowHist = new char[members > 1 ? members : 0][];
        for (int m = 0; m < narrowHist.length; m++) {
            narrowHist[m] = new char[rangeGuess];
        }
        memberBuckets = new int[members][numBuckets];
        memberPtrs = new int[members][numBuckets];
        memberPos = new int[members][commSize];
        bucketOwner = commSize > 2 ? new int[numBuckets] : null;
        blockTotals = new long[members];
        int top = numBuckets + IsKernel.TEST_ARRAY_SIZE;
        bucketSize = new int[top];
        bucketSizeTotals = new int[top];
        ptr1 = new int[top];
        ptr2 = new int[top];
        sendCount = new int[commSize];
        recvCount = new int[commSize];
        sendDispl = new int[commSize];
        recvDispl = new int[commSize];
        sendCountOthers = new int[commSize];
        recvCountOthers = new int[commSize];
        bucketSizeBuffer = Buffer.of(bucketSize);
        bucketTotalsBuffer = Buffer.of(bucketSizeTotals);
        sendCountBuffer = Buffer.of(sendCount);
        recvCountBuffer = Buffer.of(recvCount);
        keyBuff1Buffer = inPlace ? null : Buffer.of(keyBuff1, Datatype.INT);
        keyBuff2Buffer = inPlace ? null : Buffer.of(keyBuff2, Datatype.INT);
        splitAdaptive = commSize == 2 && members <= 2 && IsKernel.adaptiveSplit();
        split = maxKey / 2;
        memberLow = new int[members];
        splitMine = new int[2 + IsKernel.TEST_ARRAY_SIZE];
        splitTotals = new int[2 + IsKernel.TEST_ARRAY_SIZE];
        splitMineBuffer = Buffer.of(splitMine);
        splitTotalsBuffer = Buffer.of(splitTotals);
    }

    /**
     * Ints held by the key arrays (keyArray and, with one rank, the verification copy on the
     * heap; keyBuff1 and keyBuff2 off it): what {@link IsKernel#heapBytesPerRank} counts for them.
     */
    long keyArrayInts() {
        return (long) keyArray.length + (inPlace ? verifyCopy.length : 2L * bufferInts);
    }

    /** Key ints one rank allocates: 2 numKeys with one rank, 3 SIZE_OF_BUFFERS with more. */
    static long keyArrayInts(int numKeys, int commSize) {
        return commSize == 1 ? 2L * numKeys : 3L * bufferSize(numKeys, commSize);
    }

    /** SIZE_OF_BUFFERS of is.c (alloc_space): room for the keys a rank may receive. */
    static int bufferSize(int numKeys, int commSize) {
        long n = numKeys;
        long size;
        if (commSize < 256) {
            size = 3 * n / 2;
        } else if (commSize < 512) {
            size = 5 * n / 2;
        } else if (commSize < 1024) {
            size = 4 * n;
        } else {
            size = 13 * n / 2;
        }
        return Math.toIntExact(size);
    }

    /**
     * Fills this rank's keys from the generator seeded with {@code seed} (is.c: create_seq):
     * key = (maxKey / 4) x (sum of four uniforms). Members start their blocks by jumping the
     * seed ahead by a^(4 lo), so the keys are those of the sequential loop.
     */
    void createSequence(double seed, double a) {
        double k = maxKey / 4;
        team.region(ctx -> {
            int lo = block(numKeys, ctx.id(), ctx.size());
            int hi = block(numKeys, ctx.id() + 1, ctx.size());
            double x = Randlc.multiply(seed, Randlc.power(a, 4L * lo));
            for (int i = lo; i < hi; i++) {
                x = Randlc.multiply(x, a);
                double sum = x * 0x1p-46;
                x = Randlc.multiply(x, a);
                sum += x * 0x1p-46;
                x = Randlc.multiply(x, a);
                sum += x * 0x1p-46;
                x = Randlc.multiply(x, a);
                sum += x * 0x1p-46;
                keyArray[i] = (int) (k * sum);
            }
        });
    }

    private static int block(int n, int id, int members) {
        return (int) ((long) n * id / members);
    }

    void resetVerification() {
        passedVerification = 0;
        failures.setLength(0);
    }

    int passedVerification() {
        return passedVerification;
    }

    String failures() {
        return failures.toString();
    }

    /** One ranking iteration (is.c: rank(iteration)). */
    void rank(int iteration) {
        if (myRank == 0) {
            keyArray[iteration] = iteration;
            keyArray[iteration + IsKernel.MAX_ITERATIONS] = maxKey - iteration;
        }
        Arrays.fill(bucketSize, 0);
        Arrays.fill(bucketSizeTotals, 0);
        Arrays.fill(ptr1, 0);
        Arrays.fill(ptr2, 0);
        // The test keys travel hidden in the top of the bucket sizes.
        for (int i = 0; i < IsKernel.TEST_ARRAY_SIZE; i++) {
            if (testIndex[i] / numKeys == myRank) {
                bucketSize[numBuckets + i] = keyArray[testIndex[i] % numKeys];
            }
        }

        if (inPlace) {
            // One rank: every bucket stays here, so the bucket sort and the exchange would only copy
            // the keys twice; count them where they are, over the whole key range, as NPB's serial IS
            // does (NPB3.4-OMP IS/is.c without USE_BUCKETS). The ranks are the same.
            System.arraycopy(bucketSize, numBuckets, bucketSizeTotals, numBuckets, IsKernel.TEST_ARRAY_SIZE);
            ensureRange(maxKey);
            Keys keys = new Keys(keyArray, numKeys);
            team.region(ctx -> countAndScan(ctx.id(), ctx.size(), ctx, keys, 0, maxKey));
            partialVerify(iteration, 0, maxKey - 1, 0);
            if (iteration == IsKernel.MAX_ITERATIONS) {
                totalLocalKeys = numKeys;
                lastMinKeyVal = 0;
                lastMaxKeyVal = maxKey - 1;
                lastKeys = null;
                lastLesser = 0;
            }
            return;
        }
        if (splitAdaptive && rankSplitTwo(iteration)) {
            return;
        }
        long j;
        if (commSize == 1) {
            // One rank ranking on the reference's terms (bucketsAtOneRank): is.c's bucket sort.
            team.region(ctx -> bucketSort(ctx.id(), ctx.size(), ctx));
            world.allreduce(bucketSizeBuffer, bucketTotalsBuffer, Op.SUM);
            j = distributeBuckets();
        } else {
            // Several ranks: count the buckets, agree on their owners, then write each key into the
            // part of keyBuff1 for the rank that owns its bucket (not in bucket order: see partitionByRank).
            team.region(ctx -> countMemberBuckets(ctx.id(), ctx.size()));
            sumMemberBuckets();
            world.allreduce(bucketSizeBuffer, bucketTotalsBuffer, Op.SUM);
            j = distributeBuckets();
            if (splitAdaptive) {
                // the adaptive split was off balance: later rankings split where the buckets say
                split = (ptr2[0] + 1) << shift;
            }
            placeMembers();
            team.region(ctx -> partitionByRank(ctx.id(), ctx.size()));
        }
        world.alltoall(sendCountBuffer, recvCountBuffer);
        // This rank's own keys stay where the partition put them (keyBuff1 at sendDispl[myRank]):
        // the alltoallv moves only the other ranks' keys, received into keyBuff2 in rank order, and
        // the count reads both (with two ranks, half of what is.c's alltoallv copies is that self part).
        long received = 0;
        int others = 0;
        for (int i = 0; i < commSize; i++) {
            received += recvCount[i];
            recvDispl[i] = others;
            int n = i == myRank ? 0 : recvCount[i];
            recvCountOthers[i] = n;
            sendCountOthers[i] = i == myRank ? 0 : sendCount[i];
            others += n;
        }
        if (received > bufferInts) {
            throw new IllegalStateException(String.format(Locale.ROOT, "IS rank %d: %d keys to receive, more than "
                    + "its buffer of %d (SIZE_OF_BUFFERS, is.c)", myRank, received, bufferInts));
        }
        world.alltoallv(keyBuff1Buffer, sendCountOthers, sendDispl, keyBuff2Buffer, recvCountOthers, recvDispl);
        int own = sendCount[myRank];
        int ownAt = sendDispl[myRank];
        int fromOthers = others;

        int minKeyVal = ptr1[myRank] << shift;
        int maxKeyVal = ((ptr2[myRank] + 1) << shift) - 1;
        int range = Math.max(0, maxKeyVal - minKeyVal + 1);
        long lesser = 0;
        for (int k = 0; k < myRank; k++) {
            for (int i = ptr1[k]; i <= ptr2[k]; i++) {
                lesser += bucketSizeTotals[i];
            }
        }
        int localKeys = Math.toIntExact(j);
        if (own + fromOthers != localKeys) {
            throw new IllegalStateException(String.format(Locale.ROOT, "IS rank %d: %d own keys and %d received, but "
                    + "the bucket totals give it %d", myRank, own, fromOthers, localKeys));
        }
        ensureRange(range);
        Keys keys = new Keys(keyBuff1, ownAt, own, keyBuff2, 0, fromOthers);
        team.region(ctx -> countAndScan(ctx.id(), ctx.size(), ctx, keys, minKeyVal, range));

        partialVerify(iteration, minKeyVal, maxKeyVal, lesser);
        if (iteration == IsKernel.MAX_ITERATIONS) {
            totalLocalKeys = localKeys;
            lastMinKeyVal = minKeyVal;
            lastMaxKeyVal = maxKeyVal;
            lastKeys = keys;
            lastLesser = lesser;
        }
    }

    /**
     * One ranking of two ranks without the bucket count ({@link #splitAdaptive}): each member
     * splits its block of keyArray at {@link #split} into keyBuff1 (this rank's side from one
     * end of the block, the other rank's from the other, {@link #splitMember}), one allreduce
     * gives both ranks the keys below and above the split and the test keys, and the alltoallv
     * moves the other rank's side. Which rank holds which keys does not change a key's rank (the
     * keys below a rank's range are counted whole, {@code lesser}), only the balance; so if
     * either side holds more than {@link #BALANCE} of the keys above the average (or more than
     * the receive buffer takes), both ranks see it in the same totals and return false, and the
     * ranking counts buckets as is.c does and keeps their boundary as the split from then on.
     * NPB's keys are a sum of four uniform numbers, symmetric about the middle of the range, so
     * the first split, the middle, holds: 0.01 % off balance at class A, where is.c's bucket
     * boundaries leave up to 0.2 %.
     */
    private boolean rankSplitTwo(int iteration) {
        int members = team.size();
        int s = split;
        team.region(ctx -> splitMember(ctx.id(), ctx.size(), s));
        int myLow = 0;
        for (int m = 0; m < members; m++) {
            myLow += memberLow[m];
        }
        splitMine[0] = myLow;
        splitMine[1] = numKeys - myLow;
        for (int i = 0; i < IsKernel.TEST_ARRAY_SIZE; i++) {
            splitMine[2 + i] = bucketSize[numBuckets + i];
        }
        world.allreduce(splitMineBuffer, splitTotalsBuffer, Op.SUM);
        int low = splitTotals[0];
        int high = splitTotals[1];
        int localKeys = myRank == 0 ? low : high;
        int own = myRank == 0 ? myLow : numKeys - myLow;
        int fromOther = localKeys - own;
        long limit = Math.min((long) numKeys + (long) (numKeys * BALANCE), bufferInts);
        if (Math.max(low, high) > limit) {
            splitFallbacks++;
            return false;
        }
        // Member 0's block: own side from its start, the other rank's side back from its end;
        // member 1's block the other way round, so the two members' parts for the other rank meet.
        int end0 = block(numKeys, 1, members);
        int own0 = memberOwn(0, end0);
        int sent0 = end0 - own0;
        int own1 = members == 1 ? 0 : memberOwn(1, numKeys - end0);
        int other = 1 - myRank;
        sendCountOthers[myRank] = 0;
        recvCountOthers[myRank] = 0;
        sendCountOthers[other] = numKeys - own;
        sendDispl[other] = end0 - sent0;
        recvCountOthers[other] = fromOther;
        recvDispl[other] = 0;
        world.alltoallv(keyBuff1Buffer, sendCountOthers, sendDispl, keyBuff2Buffer, recvCountOthers, recvDispl);

        int minKeyVal = myRank == 0 ? 0 : s;
        int maxKeyVal = myRank == 0 ? s - 1 : maxKey - 1;
        int range = Math.max(0, maxKeyVal - minKeyVal + 1);
        Keys keys = Keys.of(new MemorySegment[] {keyBuff1, keyBuff1, keyBuff2}, new long[] {0, numKeys - own1, 0},
                new int[] {own0, own1, fromOther});
        ensureRange(range);
        team.region(ctx -> countAndScan(ctx.id(), ctx.size(), ctx, keys, minKeyVal, range));
        System.arraycopy(splitTotals, 2, bucketSizeTotals, numBuckets, IsKernel.TEST_ARRAY_SIZE);
        partialVerify(iteration, minKeyVal, maxKeyVal, myRank == 0 ? 0 : low);
        if (iteration == IsKernel.MAX_ITERATIONS) {
            totalLocalKeys = localKeys;
            lastMinKeyVal = minKeyVal;
            lastMaxKeyVal = maxKeyVal;
            lastKeys = keys;
            lastLesser = myRank == 0 ? 0 : low;
        }
        return true;
    }

    /**
     * How far above the average ({@code numKeys}) either rank's share may be before the
     * adaptive split counts buckets instead, as a fraction: 1/32 (the receive buffer's room,
     * 1.5 x the average, bounds it in any case).
     */
    static final double BALANCE = 1.0 / 32;

    /** This rank's keys in member m's block of {@code n} keys after {@link #splitMember}. */
    private int memberOwn(int m, int n) {
        return myRank == 0 ? memberLow[m] : n - memberLow[m];
    }

    /**
     * Member {@code id} (of one or two): its block of keyArray split at {@code s} into the same
     * block of keyBuff1, this rank's side ascending from the block's start and the other
     * rank's descending from its end (member 1: the other way round); keys below s counted
     * into memberLow[id].
     */
    private void splitMember(int id, int members, int s) {
        int lo = block(numKeys, id, members);
        int hi = block(numKeys, id + 1, members);
        // ascending side: member 0 this rank's, member 1 the other's; rank 0's side is the low one
        boolean lowAscending = (id == 0) == (myRank == 0);
        long low;
        if (VectorSplit.ON && hi - lo >= VectorSplit.MIN_KEYS) {
            low = VectorSplit.COMPRESS
                    ? IsVectorSplit.splitTwoSided(keyArray, lo, hi, s, keyBuff1, lo, hi, lowAscending)
                    : IsVectorSplit.splitTwoSidedPermute(keyArray, lo, hi, s, keyBuff1, lo, hi, lowAscending);
        } else {
            low = splitTwoSided(keyArray, lo, hi, s, keyBuff1, lo, hi, lowAscending);
        }
        memberLow[id] = (int) low;
    }

    /** One line for the report at two ranks: which form of the partition ran ({@link VectorSplit#describe}). */
    String describePartition() {
        return VectorSplit.describe(numKeys / team.size());
    }

    /** One line for the report at two ranks: how the keys were split between the ranks. */
    String describeSplit() {
        if (!splitAdaptive) {
            return "two-rank split: bucket counts every ranking, as is.c (" + (team.size() > 2 ? "more than two threads"
                    : "-D" + IsKernel.SPLIT + "=buckets") + ")";
        }
        return String.format(Locale.ROOT, "two-rank split: adaptive, at key %d of %d, no bucket count%s (-D%s=buckets: "
                + "count every ranking, as is.c)", split, maxKey, splitFallbacks == 0 ? ""
                : "; " + splitFallbacks + " rankings off balance counted buckets", IsKernel.SPLIT);
    }

    /** Rankings whose adaptive split was off balance and counted buckets instead. */
    int splitFallbacks() {
        return splitFallbacks;
    }

    /** The key the two-rank adaptive split splits at (rank 0 holds the keys below it). */
    int split() {
        return split;
    }

    /** Member {@code id}: counts its block's buckets, then scatters its keys into keyBuff1. */
    private void bucketSort(int id, int members, dev.tessera.task.TeamContext ctx) {
        int lo = block(numKeys, id, members);
        int hi = block(numKeys, id + 1, members);
        int[] mine = memberBuckets[id];
        Arrays.fill(mine, 0);
        int[] keys = keyArray;
        int s = shift;
        countBuckets(keys, lo, hi, s, mine);
        if (members > 1) {
            ctx.barrier();
        }
        int[] ptr = memberPtrs[id];
        int start = 0;
        for (int b = 0; b < numBuckets; b++) {
            int before = 0;
            int total = 0;
            for (int m = 0; m < members; m++) {
                int n = memberBuckets[m][b];
                if (m < id) {
                    before += n;
                }
                total += n;
            }
            ptr[b] = start + before;
            start += total;
            if (id == 0) {
                bucketSize[b] = total;
            }
        }
        scatter(keys, lo, hi, s, ptr, keyBuff1);
        if (members > 1) {
            // A second barrier: Team's barrier keeps its shared sense across regions while members'
            // senses restart, so every region must pass an even number of them (framework bug, reported).
            ctx.barrier();
        }
    }

    /** Member {@code id}: counts its block's keys per bucket into memberBuckets[id]. */
    private void countMemberBuckets(int id, int members) {
        int[] mine = memberBuckets[id];
        Arrays.fill(mine, 0);
        countBuckets(keyArray, block(numKeys, id, members), block(numKeys, id + 1, members), shift, mine);
    }

    /** bucketSize[b]: the members' counts of bucket b summed (the test keys above numBuckets stay). */
    private void sumMemberBuckets() {
        System.arraycopy(memberBuckets[0], 0, bucketSize, 0, numBuckets);
        for (int m = 1; m < memberBuckets.length; m++) {
            int[] mb = memberBuckets[m];
            for (int b = 0; b < numBuckets; b++) {
                bucketSize[b] += mb[b];
            }
        }
    }

    /**
     * After {@link #distributeBuckets}: where each member starts writing its keys for each
     * rank in keyBuff1 (rank r's keys at sendDispl[r], member 0's first, each member's in key
     * order), and with more than two ranks which rank each bucket goes to.
     */
    private void placeMembers() {
        int members = memberPos.length;
        for (int r = 0; r < commSize; r++) {
            if (ptr1[r] > ptr2[r]) {
                // A rank without buckets (with as many ranks as buckets; its displacement is unset).
                continue;
            }
            int at = sendDispl[r];
            for (int m = 0; m < members; m++) {
                memberPos[m][r] = at;
                int[] mb = memberBuckets[m];
                for (int b = ptr1[r]; b <= ptr2[r]; b++) {
                    at += mb[b];
                }
            }
            if (bucketOwner != null) {
                Arrays.fill(bucketOwner, ptr1[r], ptr2[r] + 1, r);
            }
        }
    }

    /**
     * Member {@code id}: writes its block's keys into keyBuff1 grouped by the rank they go to
     * (is.c groups them by bucket; the receiver only counts them, so the order within a rank's
     * part does not matter to the result). Two write streams with two ranks, instead of 1024,
     * keep the writes in the cache (docs/npb.md, "Stop 39").
     */
    private void partitionByRank(int id, int members) {
        int lo = block(numKeys, id, members);
        int hi = block(numKeys, id + 1, members);
        int[] pos = memberPos[id];
        if (commSize == 2) {
            // Keys of buckets past rank 0's last go to rank 1 (none if rank 1 has no buckets: then
            // ptr2[0] is the last bucket and the split is maxKey, above every key).
            if (VectorSplit.COMPRESS && hi - lo >= VectorSplit.MIN_KEYS) {
                IsVectorSplit.splitTwo(keyArray, lo, hi, (ptr2[0] + 1) << shift, keyBuff1, pos[0], pos[1]);
            } else {
                splitTwo(keyArray, lo, hi, (ptr2[0] + 1) << shift, keyBuff1, pos[0], pos[1]);
            }
        } else {
            partitionMany(keyArray, lo, hi, shift, bucketOwner, pos, keyBuff1);
        }
    }

    /**
     * Whether the two-rank partition runs {@link IsVectorSplit}: the JVM has the module
     * jdk.incubator.vector (bin/tessera npb adds it), a vector holds 16 ints (AVX-512, where
     * compress is one instruction: {@link IsVectorSplit#splitTwoSided}) or 8 (AVX2: a
     * permutation from a table, {@link IsVectorSplit#splitTwoSidedPermute}), and the kernels'
     * {@link VectorSwitch} (tessera.npb.vector, TESSERA_NPB_VECTOR; MG's too) is not false. All
     * forms put the same keys on the same sides. A scratch loop over 4M class-A keys on the
     * Intel Xeon (model 167, docs/npb.md, stop 51): 5.6-8.3 ms by compress against 21-56 ms for
     * the scalar form; on an AMD EPYC (Zen 3, AVX2; stop 54) 2.0 ms by the permutation against
     * 7.8 ms scalar (a copy of the same keys: 1.9 ms).
     */
    static final class VectorSplit {
        /** Lanes of an int vector; 0 without the module. */
        static final int LANES = VectorSwitch.moduleLoaded() ? IsVectorSplit.lanes() : 0;
        static final boolean ON = switchAllows() && (LANES >= 16 || LANES == 8);
        /** The compress form (16 lanes); else, where {@link #ON}, the permutation form. */
        static final boolean COMPRESS = ON && LANES >= 16;
        /**
         * Fewest keys a member splits with the vector form: until C2 has compiled it, the Vector
         * API runs as Java objects, about 70 ns a key (class S at 2 x 1: 2-4 ms per ranking of
         * 32K keys against 0.13-0.2 ms for the scalar loop, whose C1 code is fast), and a small
         * class's run ends before C2 gets to it (docs/npb.md, stop 53).
         */
        static final int MIN_KEYS = 1 << 18;

        private static boolean switchAllows() {
            try {
                return VectorSwitch.allowed();
            } catch (IllegalArgumentException e) {
                return false;   // IsKernel.check refuses such a value before any work
            }
        }

        /** One line for the report: which form of the two-rank partition ran, and why. */
        static String describe(int memberKeys) {
            if (ON && memberKeys >= MIN_KEYS) {
                return "two-rank partition: Vector API, " + LANES + " lanes of int, "
                        + (COMPRESS ? "compress" : "a permutation per vector (no compress instruction)")
                        + " (" + VectorSwitch.PROPERTY + "=false: scalar)";
            }
            if (ON) {
                return "two-rank partition: scalar (" + memberKeys + " keys per thread; the vector form from " + MIN_KEYS
                        + ", it is slower until compiled)";
            }
            if (LANES == 0) {
                return "two-rank partition: scalar (no module " + VectorSwitch.MODULE + " in this JVM; java --add-modules "
                        + VectorSwitch.MODULE + ")";
            }
            if (LANES != 8 && LANES < 16) {
                return "two-rank partition: scalar (vectors of " + LANES + " int on this CPU; the vector forms need 8 or 16)";
            }
            return "two-rank partition: scalar (" + VectorSwitch.PROPERTY + " or " + VectorSwitch.VARIABLE + " false)";
        }
    }

    // The passes over the keys, as small methods of their own: the JIT compiles each one
    // whole after a few calls instead of replacing a large region method's loops on the stack.

    /**
     * Keys below {@code split} to {@code out} from element {@code low} on, the others from
     * {@code high} on, each in the order read; returns the number below. One store per key at
     * an address chosen by arithmetic: a key's side is a coin toss, so a branch (or C2's
     * compare and jump for a select) would be mispredicted half the time.
     */
    static long splitTwo(int[] keys, int lo, int hi, int split, MemorySegment out, long low, long high) {
        long low0 = low;
        for (int i = lo; i < hi; i++) {
            int key = keys[i];
            // -1 when key >= split, else 0 (keys and split are in [0, 2^31)).
            long up = (split - 1 - key) >> 31;
            out.setAtIndex(ValueLayout.JAVA_INT, low + ((high - low) & up), key);
            low += 1 + up;
            high -= up;
        }
        return low - low0;
    }

    /**
     * Keys below {@code split} to one end of {@code out[asc, desc)} and the others to the other
     * end: with {@code lowAscending} the low keys ascending from {@code asc} in the order read
     * and the high keys descending from {@code desc} (the first read at desc - 1), else the other
     * way round; returns the number below. Each side fills the range from its end, so neither
     * needs the other's count first. Branch-free as {@link #splitTwo}.
     */
    static long splitTwoSided(int[] keys, int lo, int hi, int split, MemorySegment out, long asc, long desc,
            boolean lowAscending) {
        long asc0 = asc;
        long flip = lowAscending ? 0 : -1;
        for (int i = lo; i < hi; i++) {
            int key = keys[i];
            // -1 when the key goes to the descending side
            long down = ((split - 1 - key) >> 31) ^ flip;
            desc += down;
            out.setAtIndex(ValueLayout.JAVA_INT, asc + ((desc - asc) & down), key);
            asc += 1 + down;
        }
        long ascending = asc - asc0;
        return lowAscending ? ascending : (hi - lo) - ascending;
    }

    /** Keys to {@code out} at {@code pos[owner[bucket]]}, which advances; for more than two ranks. */
    static void partitionMany(int[] keys, int lo, int hi, int shift, int[] owner, int[] pos, MemorySegment out) {
        for (int i = lo; i < hi; i++) {
            int key = keys[i];
            out.setAtIndex(ValueLayout.JAVA_INT, pos[owner[key >> shift]]++, key);
        }
    }

    private static void countBuckets(int[] keys, int lo, int hi, int shift, int[] buckets) {
        for (int i = lo; i < hi; i++) {
            buckets[keys[i] >> shift]++;
        }
    }

    private static void scatter(int[] keys, int lo, int hi, int shift, int[] ptr, MemorySegment out) {
        for (int i = lo; i < hi; i++) {
            int key = keys[i];
            out.setAtIndex(ValueLayout.JAVA_INT, ptr[key >> shift]++, key);
        }
    }

    /**
     * The keys a count reads: an int array (one rank: the rank's keys where they are), or
     * pieces of segments, {@code segments[i][from[i], from[i] + length[i])} (the rank's own keys,
     * in one or two pieces, then those received), numbered 0 .. total-1 in that order.
     */
    static final class Keys {
        final int[] array;
        private final MemorySegment[] segments;
        private final long[] from;
        private final int[] length;
        final int total;

        Keys(int[] array, int n) {
            this.array = array;
            this.segments = null;
            this.from = null;
            this.length = new int[] {n};
            this.total = n;
        }

        /** {@code a[aFrom, aFrom + aLen)} then {@code b[bFrom, bFrom + bLen)}. */
        Keys(MemorySegment a, long aFrom, int aLen, MemorySegment b, long bFrom, int bLen) {
            this(new MemorySegment[] {a, b}, new long[] {aFrom, bFrom}, new int[] {aLen, bLen});
        }

        private Keys(MemorySegment[] segments, long[] from, int[] length) {
            this.array = null;
            this.segments = segments;
            this.from = from;
            this.length = length;
            int n = 0;
            for (int len : length) {
                n = Math.addExact(n, len);
            }
            this.total = n;
        }

        /** Pieces {@code segments[i][from[i], from[i] + length[i])}, in that order. */
        static Keys of(MemorySegment[] segments, long[] from, int[] length) {
            return new Keys(segments.clone(), from.clone(), length.clone());
        }

        /** hist[key - min]++ for the keys numbered [lo, hi). */
        void histogram(int lo, int hi, int min, int[] hist) {
            if (array != null) {
                IsRanking.histogram(array, lo, hi, min, hist);
                return;
            }
            forPieces(lo, hi, (segment, a, b) -> IsRanking.histogram(segment, a, b, min, hist));
        }

        /** The same into a 16-bit histogram. */
        void narrowHistogram(int lo, int hi, int min, char[] hist) {
            if (array != null) {
                IsRanking.narrowHistogram(array, lo, hi, min, hist);
                return;
            }
            forPieces(lo, hi, (segment, a, b) -> IsRanking.narrowHistogram(segment, a, b, min, hist));
        }

        /** A pass over the keys at elements [a, b) of one segment. */
        private interface Pass {
            void over(MemorySegment segment, long a, long b);
        }

        /** {@code pass} over the parts of the pieces that hold the keys numbered [lo, hi). */
        private void forPieces(int lo, int hi, Pass pass) {
            long start = 0;
            for (int p = 0; p < segments.length; p++) {
                long a = Math.max(lo, start);
                long b = Math.min(hi, start + length[p]);
                if (a < b) {
                    pass.over(segments[p], from[p] + a - start, from[p] + b - start);
                }
                start += length[p];
            }
        }

        /** Key number i. */
        int get(int i) {
            if (array != null) {
                return array[i];
            }
            long start = 0;
            for (int p = 0; p < segments.length; p++) {
                if (i < start + length[p]) {
                    return segments[p].getAtIndex(ValueLayout.JAVA_INT, from[p] + i - start);
                }
                start += length[p];
            }
            throw new IndexOutOfBoundsException("key " + i + " of " + total);
        }
    }

    private static void histogram(MemorySegment keys, long lo, long hi, int min, int[] hist) {
        for (long i = lo; i < hi; i++) {
            hist[keys.getAtIndex(ValueLayout.JAVA_INT, i) - min]++;
        }
    }

    private static void narrowHistogram(MemorySegment keys, long lo, long hi, int min, char[] hist) {
        for (long i = lo; i < hi; i++) {
            hist[keys.getAtIndex(ValueLayout.JAVA_INT, i) - min]++;
        }
    }

    private static void histogram(int[] keys, int lo, int hi, int min, int[] hist) {
        for (int i = lo; i < hi; i++) {
            hist[keys[i] - min]++;
        }
    }

    private static void narrowHistogram(int[] keys, int lo, int hi, int min, char[] hist) {
        for (int i = lo; i < hi; i++) {
            hist[keys[i] - min]++;
        }
    }

    /**
     * Deals buckets to ranks (is.c: the redistribution section): rank j gets buckets until
     * the running total passes (j+1) x numKeys; fills sendCount, sendDispl, ptr1, ptr2.
     * Returns the number of keys this rank will hold.
     */
    private long distributeBuckets() {
        long bucketSumAccumulator = 0;
        int localBucketSumAccumulator = 0;
        sendDispl[0] = 0;
        ptr1[0] = 0;
        int j = 0;
        for (int i = 0; i < numBuckets; i++) {
            bucketSumAccumulator += bucketSizeTotals[i];
            localBucketSumAccumulator += bucketSize[i];
            if (bucketSumAccumulator >= (long) (j + 1) * numKeys) {
                sendCount[j] = localBucketSumAccumulator;
                if (j != 0) {
                    sendDispl[j] = sendDispl[j - 1] + sendCount[j - 1];
                    ptr1[j] = ptr2[j - 1] + 1;
                }
                ptr2[j++] = i;
                localBucketSumAccumulator = 0;
            }
        }
        // With as many ranks as buckets, the last ranks may get none.
        while (j < commSize) {
            sendCount[j] = 0;
            ptr1[j] = 1;
            j++;
        }
        long mine = 0;
        for (int i = ptr1[myRank]; i <= ptr2[myRank]; i++) {
            mine += bucketSizeTotals[i];
        }
        return mine;
    }

    private void ensureRange(int range) {
        if (counts.length < range) {
            counts = new int[range];
            for (int m = 0; m < narrowHist.length; m++) {
                narrowHist[m] = new char[range];
            }
        }
    }

    /** The wide recount's int histograms of members 1.. (member 0's is counts). */
    private void ensureWide(int range) {
        for (int m = 1; m < memberHist.length; m++) {
            if (memberHist[m] == null || memberHist[m].length < range) {
                memberHist[m] = new int[range];
            }
        }
    }

    /**
     * For tests, after a ranking with several ranks: this rank's keys, how many it sent to each
     * rank (its own part included), and the send buffer's first numKeys keys (rank 0's part first).
     */
    int[][] partitionForTest() {
        int[] sent = new int[numKeys];
        MemorySegment.copy(keyBuff1, ValueLayout.JAVA_INT, 0, sent, 0, numKeys);
        return new int[][] {Arrays.copyOf(keyArray, numKeys), sendCount.clone(), sent};
    }

    /** This rank's keys, for tests that give a ranking other keys than NPB's. */
    int[] keysForTest() {
        return keyArray;
    }

    /**
     * For tests, after the ranking of iteration MAX_ITERATIONS: the keys of all ranks at most
     * {@code key} as this rank's counts give them, or -1 if the key is outside this rank's range.
     */
    long keysAtMostForTest(int key) {
        return key < lastMinKeyVal || key > lastMaxKeyVal ? -1 : counts[key - lastMinKeyVal] + lastLesser;
    }

    /** Whether the last count needed the wide recount (a 16-bit counter wrapped); for tests. */
    boolean recountedWide() {
        return recountedWide;
    }

    /** Counts and prefix sums of {@code keys[0, n)} over [min, min + range) into the returned array (for tests). */
    int[] countForTest(int[] keys, int n, int min, int range) {
        return countForTest(new Keys(keys, n), min, range);
    }

    /** The same for the keys {@code keys} (for tests: two segments, as a ranking with several ranks counts). */
    int[] countForTest(Keys keys, int min, int range) {
        ensureRange(range);
        team.region(ctx -> countAndScan(ctx.id(), ctx.size(), ctx, keys, min, range));
        return counts;
    }

    /**
     * Member {@code id}: population count of its block of the rank's keys (with one rank the
     * rank's own where they are; with more its own, never sent, followed by those received)
     * into its histogram; then, by blocks of the key range, the sum of the histograms and its
     * inclusive prefix sum into {@code counts}.
     */
    private void countAndScan(int id, int members, dev.tessera.task.TeamContext ctx, Keys keys, int minKeyVal,
            int range) {
        int localKeys = keys.total;
        if (members == 1) {
            countAndScanWide(id, members, ctx, keys, minKeyVal, range);
            return;
        }
        int lo = block(localKeys, id, members);
        int hi = block(localKeys, id + 1, members);
        keys.narrowHistogram(lo, hi, minKeyVal, narrowHist[id]);
        ctx.barrier();
        int from = block(range, id, members);
        int to = block(range, id + 1, members);
        blockTotals[id] = sumAndScanNarrow(counts, narrowHist, from, to);
        ctx.barrier();
        long total = 0;
        int offset = 0;
        for (int m = 0; m < members; m++) {
            total += blockTotals[m];
            if (m < id) {
                offset += (int) blockTotals[m];
            }
        }
        if (total != localKeys) {
            // A 16-bit counter wrapped (more than 65535 keys of one value in a member's block):
            // every member sees the same total and recounts with ints. The scan cleared the tables.
            ctx.single(() -> {
                ensureWide(range);
                recountedWide = true;
            });
            countAndScanWide(id, members, ctx, keys, minKeyVal, range);
            return;
        }
        if (offset != 0) {
            addOffset(counts, from, to, offset);
        }
    }

    /** countAndScan with int histograms: one member's is counts itself, scanned in place. */
    private void countAndScanWide(int id, int members, dev.tessera.task.TeamContext ctx, Keys keys, int minKeyVal,
            int range) {
        int[] hist = id == 0 ? counts : memberHist[id];
        Arrays.fill(hist, 0, range, 0);
        int localKeys = keys.total;
        int lo = block(localKeys, id, members);
        int hi = block(localKeys, id + 1, members);
        keys.histogram(lo, hi, minKeyVal, hist);
        int[] c = counts;
        if (members == 1) {
            for (int i = 0; i < range - 1; i++) {
                c[i + 1] += c[i];
            }
            return;
        }
        ctx.barrier();
        int from = block(range, id, members);
        int to = block(range, id + 1, members);
        blockTotals[id] = sumAndScan(c, memberHist, members, from, to);
        ctx.barrier();
        int offset = 0;
        for (int m = 0; m < id; m++) {
            offset += (int) blockTotals[m];
        }
        if (offset != 0) {
            addOffset(c, from, to, offset);
        }
    }

    /**
     * c[i] = the inclusive prefix sum, within [from, to), of c[i] + the other members'
     * histograms at i; returns the block's total.
     */
    private static int sumAndScan(int[] c, int[][] memberHist, int members, int from, int to) {
        int run = 0;
        if (members == 2) {
            int[] h = memberHist[1];
            for (int i = from; i < to; i++) {
                run += c[i] + h[i];
                c[i] = run;
            }
            return run;
        }
        for (int i = from; i < to; i++) {
            int v = c[i];
            for (int m = 1; m < members; m++) {
                v += memberHist[m][i];
            }
            run += v;
            c[i] = run;
        }
        return run;
    }

    /**
     * c[i] = the inclusive prefix sum, within [from, to), of the members' 16-bit histograms at
     * i, which are cleared as they are read; returns the block's total.
     */
    private static int sumAndScanNarrow(int[] c, char[][] hist, int from, int to) {
        int run = 0;
        if (hist.length == 2) {
            char[] h0 = hist[0];
            char[] h1 = hist[1];
            for (int i = from; i < to; i++) {
                run += h0[i] + h1[i];
                h0[i] = 0;
                h1[i] = 0;
                c[i] = run;
            }
            return run;
        }
        for (int i = from; i < to; i++) {
            for (char[] h : hist) {
                run += h[i];
                h[i] = 0;
            }
            c[i] = run;
        }
        return run;
    }

    private static void addOffset(int[] c, int from, int to, int offset) {
        for (int i = from; i < to; i++) {
            c[i] += offset;
        }
    }

    /** The partial verification of one iteration (is.c: the end of rank()). */
    private void partialVerify(int iteration, int minKeyVal, int maxKeyVal, long lesser) {
        for (int i = 0; i < IsKernel.TEST_ARRAY_SIZE; i++) {
            int k = bucketSizeTotals[i + numBuckets];
            if (minKeyVal <= k && k <= maxKeyVal) {
                long keyRank = (k - 1 >= minKeyVal ? counts[k - 1 - minKeyVal] : 0) + lesser;
                long expected = testRank[i] + rankShift(i, iteration);
                if (keyRank != expected) {
                    failures.append(String.format(Locale.ROOT, " Failed partial verification: iteration %d, "
                            + "processor %d, test key %d, key rank %d (expected %d)%n", iteration, myRank, i, keyRank, expected));
                } else {
                    passedVerification++;
                }
            }
        }
    }

    /** How test key i's rank moves with the iteration, per class (is.c: the switch in rank()). */
    private int rankShift(int i, int iteration) {
        return switch (problemClass) {
            case 'S' -> i <= 2 ? iteration : -iteration;
            case 'W' -> i < 2 ? iteration - 2 : -iteration;
            case 'A' -> i <= 2 ? iteration - 1 : -(iteration - 1);
            case 'B' -> i == 1 || i == 2 || i == 4 ? iteration : -iteration;
            case 'C' -> i <= 2 ? iteration : -iteration;
            default -> throw new IllegalStateException("IS: no verification data for class " + problemClass);
        };
    }

    /**
     * Sorts the keys of the last iteration by their ranks and checks that they are in order,
     * on this rank and against the largest key of the rank before (is.c: full_verify).
     */
    void fullVerify() {
        int[] c = counts;
        Keys keys;
        if (inPlace) {
            // The one-rank ranking counted keyArray in place; sort from a copy of it.
            System.arraycopy(keyArray, 0, verifyCopy, 0, totalLocalKeys);
            keys = new Keys(verifyCopy, totalLocalKeys);
        } else {
            // The rank's keys: its own (never sent) and, after them, the ones received.
            keys = lastKeys;
        }
        for (int i = 0; i < totalLocalKeys; i++) {
            int key = keys.get(i);
            keyArray[--c[key - lastMinKeyVal]] = key;
        }
        int lastLocalKey = totalLocalKeys < 1 ? 0 : totalLocalKeys - 1;
        int[] neighbour = new int[1];
        Request request = null;
        if (myRank > 0) {
            request = world.irecv(Buffer.of(neighbour), myRank - 1, 1000);
        }
        if (myRank < commSize - 1) {
            world.send(Buffer.of(keyArray, lastLocalKey, 1), myRank + 1, 1000);
        }
        if (request != null) {
            request.await();
        }
        int outOfOrder = 0;
        if (myRank > 0 && totalLocalKeys > 0 && neighbour[0] > keyArray[0]) {
            outOfOrder++;
        }
        for (int i = 1; i < totalLocalKeys; i++) {
            if (keyArray[i - 1] > keyArray[i]) {
                outOfOrder++;
            }
        }
        if (outOfOrder != 0) {
            failures.append(String.format(Locale.ROOT, " Processor %d: full verify: %d keys out of sort%n", myRank, outOfOrder));
        } else {
            passedVerification++;
        }
    }
}
