package dev.tessera.io.pfile;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link CollectiveCheck#agree} as a nonblocking collective: every rank's error (or none)
 * reaches every rank through Comm's nonblocking collectives, an {@code iallgather} of the
 * errors' lengths and, only when some rank failed, an {@code iallgatherv} of their texts.
 * {@link #advance} moves it on without blocking; {@link #throwIfFailed} then throws the same
 * {@link ParallelFileException} on every rank, naming each failing rank.
 */
final class Agreement {

    private final Comm comm;
    private final String call;
    private final Path path;
    private final byte[] mine;
    private int[] lengths;
    private Request lengthsExchange;
    private Request textExchange;
    private byte[] texts;
    private int[] displs;
    private String message;
    private boolean done;

    /** Starts agreeing on {@code error} (null: this rank succeeded). */
    Agreement(Comm comm, String call, Path path, String error) {
        this.comm = comm;
        this.call = call;
        this.path = path;
        this.mine = error == null ? null : error.getBytes(StandardCharsets.UTF_8);
        this.lengths = new int[comm.size()];
        this.lengthsExchange = comm.iallgather(Buffer.of(new int[] {mine == null ? -1 : mine.length}), Buffer.of(lengths));
    }

    /**
     * Continues an agreement whose lengths were already exchanged (-1: no error), e.g.
     * piggybacked on another all-gather.
     */
    Agreement(Comm comm, String call, Path path, String error, int[] gatheredLengths) {
        this.comm = comm;
        this.call = call;
        this.path = path;
        this.mine = error == null ? null : error.getBytes(StandardCharsets.UTF_8);
        this.lengths = gatheredLengths;
        startTexts();
    }

    private void startTexts() {
        int[] counts = new int[lengths.length];
        displs = new int[lengths.length];
        int total = 0;
        boolean any = false;
        for (int r = 0; r < lengths.length; r++) {
            counts[r] = Math.max(0, lengths[r]);
            displs[r] = total;
            total += counts[r];
            any |= lengths[r] >= 0;
        }
        if (!any) {
            done = true;
            return;
        }
        texts = new byte[total];
        byte[] send = mine == null ? new byte[0] : mine;
        textExchange = comm.iallgatherv(Buffer.of(send), Buffer.of(texts), counts, displs);
    }

    /** True once every rank's outcome is known here. */
    boolean advance() {
        if (done) {
            return true;
        }
        if (lengthsExchange != null) {
            if (!lengthsExchange.test()) {
                return false;
            }
            lengthsExchange = null;
            startTexts();
            if (done) {
                return true;
            }
        }
        if (!textExchange.test()) {
            return false;
        }
        List<String> errors = new ArrayList<>(Arrays.asList(new String[lengths.length]));
        for (int r = 0; r < lengths.length; r++) {
            if (lengths[r] >= 0) {
                errors.set(r, new String(texts, displs[r], lengths[r], StandardCharsets.UTF_8));
            }
        }
        message = CollectiveCheck.message(call, path, errors);
        done = true;
        return true;
    }

    /** After {@link #advance} returned true: throws if any rank failed. */
    void throwIfFailed() {
        if (message != null) {
            throw new ParallelFileException(path, message);
        }
    }
}
