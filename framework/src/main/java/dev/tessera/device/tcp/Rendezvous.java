package dev.tessera.device.tcp;

import java.time.Duration;

/** How the ranks of a job learn each other's addresses at startup: each publishes a line, all read every line. */
public interface Rendezvous {

    /** Publishes this rank's line. */
    void publish(int rank, String line);

    /** Every rank's line, by rank; waits up to {@code timeout} and names the ranks that never showed up. */
    String[] gather(int me, int size, Duration timeout);
}
