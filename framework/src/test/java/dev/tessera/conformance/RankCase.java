package dev.tessera.conformance;

import dev.tessera.comm.Comm;
import java.io.Serializable;

/**
 * The body every rank of a test job runs, given the world communicator. Serializable so
 * that runners for multi-process devices can ship it (a static method reference, or a
 * lambda capturing only serializable values) to the rank processes.
 */
@FunctionalInterface
public interface RankCase extends Serializable {
    void run(Comm world) throws Exception;
}
