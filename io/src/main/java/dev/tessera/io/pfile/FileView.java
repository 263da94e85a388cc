package dev.tessera.io.pfile;

import dev.tessera.comm.Datatype;
import java.io.Serializable;

/**
 * Which bytes of a file a rank sees, as {@code MPI_File_set_view(displacement, etype,
 * filetype)}: the file from {@code displacement} on, seen through {@code layout} tiled
 * end to end (tile {@code t} starts {@code t * layout.extentBytes()} after the
 * displacement). A rank's data stream (its buffer, {@code count} elements from view
 * position {@code p}) maps to the file as a sequence of <em>pieces</em> (file offset,
 * length, offset in the buffer) in strictly increasing file order.
 *
 * <p>A layout that covers its whole global array is contiguous: the view is then the
 * file itself from the displacement on, one piece for any access.
 */
public record FileView(long displacement, Subarray layout) implements Serializable {

    /** Receives one piece: {@code length} bytes at {@code fileOffset}, from/to {@code bufferOffset}. */
    @FunctionalInterface
    public interface PieceSink {
        void piece(long fileOffset, long length, long bufferOffset);
    }

    public FileView {
        if (displacement < 0) {
            throw new IllegalArgumentException("FileView: displacement must be >= 0, got " + displacement);
        }
        if (layout == null) {
            throw new IllegalArgumentException("FileView: layout must not be null");
        }
    }

    /** The file as a plain sequence of {@code type} elements from {@code displacement} on. */
    public static FileView contiguous(long displacement, Datatype type) {
        return new FileView(displacement, Subarray.whole(type, 1));
    }

    public Datatype type() {
        return layout.type();
    }

    boolean isContiguous() {
        return layout.runCount() == 1 && layout.runBytes() == layout.extentBytes();
    }

    /** File offset of the run with global index {@code g} (tile-major). */
    private long runFileOffset(long g) {
        long perTile = layout.runCount();
        return displacement + (g / perTile) * layout.extentBytes() + layout.runOffset(g % perTile);
    }

    /** File offset of view byte {@code v}. */
    long fileOffset(long v) {
        if (isContiguous()) {
            return displacement + v;
        }
        long runBytes = layout.runBytes();
        return runFileOffset(v / runBytes) + v % runBytes;
    }

    /** First file byte and one past the last file byte of the access [v0, v0 + n), n > 0. */
    long[] bounds(long v0, long n) {
        return new long[] {fileOffset(v0), fileOffset(v0 + n - 1) + 1};
    }

    /**
     * Calls {@code sink} for each piece of the access [v0, v0 + n) (view bytes) that lies in
     * the file window [w0, w1), in increasing file order; buffer offsets count from v0.
     */
    void forEachPiece(long v0, long n, long w0, long w1, PieceSink sink) {
        if (n <= 0 || w1 <= w0) {
            return;
        }
        if (isContiguous()) {
            long lo = Math.max(displacement + v0, w0);
            long hi = Math.min(displacement + v0 + n, w1);
            if (lo < hi) {
                sink.piece(lo, hi - lo, lo - displacement - v0);
            }
            return;
        }
        long runBytes = layout.runBytes();
        long last = (v0 + n - 1) / runBytes;
        for (long g = firstRunEndingAfter(v0 / runBytes, last, w0, runBytes); g <= last; g++) {
            long runFile = runFileOffset(g);
            if (runFile >= w1) {
                break;
            }
            long vs = Math.max(g * runBytes, v0);
            long ve = Math.min((g + 1) * runBytes, v0 + n);
            long fs = runFile + (vs - g * runBytes);
            long lo = Math.max(fs, w0);
            long hi = Math.min(fs + (ve - vs), w1);
            if (lo < hi) {
                sink.piece(lo, hi - lo, vs - v0 + (lo - fs));
            }
        }
    }

    /** Bytes of the access [v0, v0 + n) that lie in [w0, w1). */
    long bytesIn(long v0, long n, long w0, long w1) {
        long[] total = {0};
        forEachPiece(v0, n, w0, w1, (f, len, b) -> total[0] += len);
        return total[0];
    }

    /** Smallest run index in [lo, hi] whose file end is after w0 (hi + 1 if none). */
    private long firstRunEndingAfter(long lo, long hi, long w0, long runBytes) {
        long a = lo;
        long b = hi + 1;
        while (a < b) {
            long mid = (a + b) >>> 1;
            if (runFileOffset(mid) + runBytes > w0) {
                b = mid;
            } else {
                a = mid + 1;
            }
        }
        return a;
    }

    /** True if the accesses [v0, v0 + n) of this view and [u0, u0 + m) of {@code other} share a file byte. */
    boolean overlaps(long v0, long n, FileView other, long u0, long m) {
        if (n <= 0 || m <= 0) {
            return false;
        }
        long[] a = bounds(v0, n);
        long[] b = other.bounds(u0, m);
        long lo = Math.max(a[0], b[0]);
        long hi = Math.min(a[1], b[1]);
        if (lo >= hi) {
            return false;
        }
        boolean[] hit = {false};
        // Pieces of this access inside the common bounds, each tested against the other's pieces.
        forEachPiece(v0, n, lo, hi, (f, len, buf) -> {
            if (!hit[0] && other.bytesIn(u0, m, f, f + len) > 0) {
                hit[0] = true;
            }
        });
        return hit[0];
    }
}
