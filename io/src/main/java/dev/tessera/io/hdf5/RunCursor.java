package dev.tessera.io.hdf5;

/**
 * A resumable walk over the runs of a box (see {@link Hyperslab#forEachRun}), for callers
 * that visit the array in windows of increasing position, such as the rounds of a two-phase
 * write: {@link #forEachIn} visits the runs clipped to one window and stops where the next
 * window begins, so over all windows each run is visited once (or twice when a window
 * boundary cuts it) instead of once per window.
 */
final class RunCursor {

    private final long[] offset;
    private final long[] count;
    private final long[] stride;
    private final int k;
    private final long runLength;
    private final long[] idx;
    private long arrayIndex;
    private long boxIndex;
    private boolean done;

    RunCursor(Hyperslab box, long[] shape) {
        int n = box.rank();
        this.offset = box.offset();
        this.count = box.count();
        this.done = box.volume() == 0;
        int kk = n - 1;
        while (kk > 0 && count[kk] == shape[kk]) {
            kk--;
        }
        this.k = Math.max(kk, 0);
        this.stride = new long[Math.max(n, 1)];
        if (n > 0) {
            stride[n - 1] = 1;
            for (int d = n - 2; d >= 0; d--) {
                stride[d] = stride[d + 1] * shape[d + 1];
            }
        }
        long len = 1;
        for (int d = k; d < n; d++) {
            len *= count[d];
        }
        this.runLength = len;
        this.idx = new long[k];
        if (!done) {
            locate();
        }
    }

    private void locate() {
        long a = 0;
        for (int d = 0; d < k; d++) {
            a += (offset[d] + idx[d]) * stride[d];
        }
        if (offset.length > 0) {
            a += offset[k] * stride[k];
        }
        arrayIndex = a;
    }

    private void next() {
        boxIndex += runLength;
        int d = k - 1;
        while (d >= 0) {
            if (++idx[d] < count[d]) {
                break;
            }
            idx[d] = 0;
            d--;
        }
        if (d < 0) {
            done = true;
        } else {
            locate();
        }
    }

    /**
     * Visits the runs clipped to array elements [lo, hi), in order, and leaves the cursor
     * at the first run that reaches past {@code hi}. Successive calls must not move back.
     */
    void forEachIn(long lo, long hi, Hyperslab.RunConsumer consumer) {
        while (!done && arrayIndex + runLength <= lo) {
            next();
        }
        while (!done && arrayIndex < hi) {
            long s = Math.max(arrayIndex, lo);
            long e = Math.min(arrayIndex + runLength, hi);
            if (s < e) {
                consumer.run(s, boxIndex + (s - arrayIndex), e - s);
            }
            if (arrayIndex + runLength > hi) {
                return; // the run goes on in the next window
            }
            next();
        }
    }
}
