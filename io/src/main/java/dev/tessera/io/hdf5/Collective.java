package dev.tessera.io.hdf5;

import dev.tessera.comm.Comm;
import java.util.List;

/**
 * Turns a failure on some ranks of a collective I/O call into the same exception on all
 * ranks, so that no rank goes on to the next collective while another has given up: every
 * rank contributes its error (or null) and all throw the first one, naming its rank.
 */
final class Collective {

    private Collective() {
    }

    static void throwIfAnyFailed(Comm comm, String error, String call, AutoCloseable toCloseOnFailure) {
        List<String> errors = comm.allgatherObject(error);
        for (int r = 0; r < errors.size(); r++) {
            if (errors.get(r) != null) {
                if (toCloseOnFailure != null) {
                    try {
                        toCloseOnFailure.close();
                    } catch (Exception ignored) {
                        // the first error is the one to report
                    }
                }
                throw new IllegalStateException(call + ": rank " + r + ": " + errors.get(r));
            }
        }
    }
}
