package dev.tessera.npb.is;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.comm.Request;
import dev.tessera.npb.Randlc;
import dev.tessera.task.Team;
import java.util.Arrays;
import java.util.Locale;

/**
 * One rank's keys and work arrays of {@link IsKernel}, and the ranking iteration over them
 * ({@code rank} in NPB3.4-MPI IS/is.c), with the loops spread over the rank's team.
 *
 * <p>Arrays (is.c names): {@code keyArray} holds this rank's {@code numKeys} keys;
 * {@code keyBuff1} the same keys grouped by bucket (the alltoallv send buffer);
 * {@code keyBuff2} the keys received, those of buckets {@code ptr1[me]..ptr2[me]};
 * {@code counts} the populations, then inclusive prefix sums, over this rank's key range
 * {@code [minKeyVal, maxKeyVal]} (is.c reuses key_buff1 for it). The receive buffers hold
 * SIZE_OF_BUFFERS keys, 1.5 x the average for fewer than 256 ranks, as the reference sizes them.
 * With one rank nothing is exchanged: {@code keyBuff1} is not allocated, and {@code keyArray}
 * and {@code keyBuff2} (the copy the full verification sorts from) hold {@code numKeys} keys
 * each, 2 instead of 4.5 ints per key (class C: 1 GiB instead of 2.25 GiB).
 *
 * <p>Threads: the bucket sort gives each member a contiguous block of keys; members count
 * their block's buckets privately, then each computes, from all members' counts, where its
 * keys of bucket b start (after the keys of lower buckets, and of bucket b from lower
 * members), so the scatter needs no synchronisation and produces exactly the sequential
 * order. With one rank there is nothing to redistribute: the keys are counted where they
 * are, without the bucket sort and the exchange. The population count gives each member a
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
    private final int numKeys;
    private final int maxKey;
    private final int numBuckets;
    private final int shift;
    private final int[] testIndex;
    private final int[] testRank;

    private final int[] keyArray;
    /** The alltoallv send buffer; null with one rank. */
    private final int[] keyBuff1;
    private final int[] keyBuff2;
    private int[] counts;
    /** Members' 16-bit histograms (members > 1), all zero between counts. */
    private final char[][] narrowHist;
    /** Members' int histograms for the wide recount (member 0's is counts); allocated on first use. */
    private final int[][] memberHist;
    private final int[][] memberBuckets;
    private final int[][] memberPtrs;
    private final long[] blockTotals;

    private final int[] bucketSize;
    private final int[] bucketSizeTotals;
    private final int[] ptr1;
    private final int[] ptr2;
    private final int[] sendCount;
    private final int[] recvCount;
    private final int[] sendDispl;
    private final int[] recvDispl;
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
    private volatile boolean recountedWide;

    IsRanking(Comm world, Team team, char problemClass, int totalKeysLog2, int maxKeyLog2, int numBucketsLog2,
            int[] testIndex, int[] testRank) {
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
        int size = commSize == 1 ? numKeys : bufferSize(numKeys, commSize);
        keyArray = new int[size];
        keyBuff1 = commSize == 1 ? null : new int[size];
        keyBuff2 = new int[size];
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
        bucketSizeBuffer = Buffer.of(bucketSize);
        bucketTotalsBuffer = Buffer.of(bucketSizeTotals);
        sendCountBuffer = Buffer.of(sendCount);
        recvCountBuffer = Buffer.of(recvCount);
        keyBuff1Buffer = commSize == 1 ? null : Buffer.of(keyBuff1);
        keyBuff2Buffer = Buffer.of(keyBuff2);
    }

    /** Ints held by the key arrays (keyArray, keyBuff1, keyBuff2): what {@link IsKernel#heapBytesPerRank} counts for them. */
    long keyArrayInts() {
        return (long) keyArray.length + (keyBuff1 == null ? 0 : keyBuff1.length) + keyBuff2.length;
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

        if (commSize == 1) {
            // One rank: every bucket stays here, so the bucket sort and the exchange would only copy
            // the keys twice; count them where they are, over the whole key range, as NPB's serial IS
            // does (NPB3.4-OMP IS/is.c without USE_BUCKETS). The ranks are the same.
            System.arraycopy(bucketSize, numBuckets, bucketSizeTotals, numBuckets, IsKernel.TEST_ARRAY_SIZE);
            ensureRange(maxKey);
            team.region(ctx -> countAndScan(ctx.id(), ctx.size(), ctx, keyArray, numKeys, 0, maxKey));
            partialVerify(iteration, 0, maxKey - 1, 0);
            if (iteration == IsKernel.MAX_ITERATIONS) {
                totalLocalKeys = numKeys;
                lastMinKeyVal = 0;
            }
            return;
        }
        team.region(ctx -> bucketSort(ctx.id(), ctx.size(), ctx));

        world.allreduce(bucketSizeBuffer, bucketTotalsBuffer, Op.SUM);
        long j = distributeBuckets();
        world.alltoall(sendCountBuffer, recvCountBuffer);
        recvDispl[0] = 0;
        long received = recvCount[0];
        for (int i = 1; i < commSize; i++) {
            recvDispl[i] = recvDispl[i - 1] + recvCount[i - 1];
            received += recvCount[i];
        }
        if (received > keyBuff2.length) {
            throw new IllegalStateException(String.format(Locale.ROOT, "IS rank %d: %d keys to receive, more than "
                    + "its buffer of %d (SIZE_OF_BUFFERS, is.c)", myRank, received, keyBuff2.length));
        }
        world.alltoallv(keyBuff1Buffer, sendCount, sendDispl, keyBuff2Buffer, recvCount, recvDispl);

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
        ensureRange(range);
        team.region(ctx -> countAndScan(ctx.id(), ctx.size(), ctx, keyBuff2, localKeys, minKeyVal, range));

        partialVerify(iteration, minKeyVal, maxKeyVal, lesser);
        if (iteration == IsKernel.MAX_ITERATIONS) {
            totalLocalKeys = localKeys;
            lastMinKeyVal = minKeyVal;
        }
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

    // The three passes over the keys, as small methods of their own: the JIT compiles each one
    // whole after a few calls instead of replacing a large region method's loops on the stack.

    private static void countBuckets(int[] keys, int lo, int hi, int shift, int[] buckets) {
        for (int i = lo; i < hi; i++) {
            buckets[keys[i] >> shift]++;
        }
    }

    private static void scatter(int[] keys, int lo, int hi, int shift, int[] ptr, int[] out) {
        for (int i = lo; i < hi; i++) {
            int key = keys[i];
            out[ptr[key >> shift]++] = key;
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

    /** Whether the last count needed the wide recount (a 16-bit counter wrapped); for tests. */
    boolean recountedWide() {
        return recountedWide;
    }

    /** Counts and prefix sums of {@code keys[0, n)} over [min, min + range) into the returned array (for tests). */
    int[] countForTest(int[] keys, int n, int min, int range) {
        ensureRange(range);
        team.region(ctx -> countAndScan(ctx.id(), ctx.size(), ctx, keys, n, min, range));
        return counts;
    }

    /**
     * Member {@code id}: population count of its block of {@code keys} (the keys received, or
     * with one rank the rank's own) into its histogram; then, by blocks of the key range, the
     * sum of the histograms and its inclusive prefix sum into {@code counts}.
     */
    private void countAndScan(int id, int members, dev.tessera.task.TeamContext ctx, int[] keys, int localKeys,
            int minKeyVal, int range) {
        if (members == 1) {
            countAndScanWide(id, members, ctx, keys, localKeys, minKeyVal, range);
            return;
        }
        int lo = block(localKeys, id, members);
        int hi = block(localKeys, id + 1, members);
        narrowHistogram(keys, lo, hi, minKeyVal, narrowHist[id]);
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
            countAndScanWide(id, members, ctx, keys, localKeys, minKeyVal, range);
            return;
        }
        if (offset != 0) {
            addOffset(counts, from, to, offset);
        }
    }

    /** countAndScan with int histograms: one member's is counts itself, scanned in place. */
    private void countAndScanWide(int id, int members, dev.tessera.task.TeamContext ctx, int[] keys, int localKeys,
            int minKeyVal, int range) {
        int[] hist = id == 0 ? counts : memberHist[id];
        Arrays.fill(hist, 0, range, 0);
        int lo = block(localKeys, id, members);
        int hi = block(localKeys, id + 1, members);
        histogram(keys, lo, hi, minKeyVal, hist);
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
        if (commSize == 1) {
            // The one-rank ranking counted keyArray in place; sort from a copy of it.
            System.arraycopy(keyArray, 0, keyBuff2, 0, totalLocalKeys);
        }
        for (int i = 0; i < totalLocalKeys; i++) {
            int key = keyBuff2[i];
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
