package dev.tessera.conformance;

import dev.tessera.comm.ThreadLevel;
import org.junit.jupiter.api.Assumptions;

/**
 * Stands in for a runner whose library is not installed (Open MPI, MPICH): every case it
 * is given is reported as skipped with the reason, so that a green run on a machine
 * without the library says what it did not test instead of leaving those cases out.
 * It takes the same rank counts and algorithms as the runner it replaces, so the skipped
 * cases are the ones that would have run.
 */
final class UnavailableRunner implements JobRunner {

    private final String name;
    private final String device;
    private final String reason;
    private final boolean nativeCollectives;

    UnavailableRunner(String name, String device, boolean nativeCollectives, String reason) {
        this.name = name;
        this.device = device;
        this.nativeCollectives = nativeCollectives;
        this.reason = reason;
    }

    @Override
    public String device() {
        return device;
    }

    @Override
    public void run(int ranks, RankCase body) {
        Assumptions.abort(name + " not tested: " + reason);
    }

    @Override
    public void run(int ranks, ThreadLevel level, RankCase body) {
        Assumptions.abort(name + " not tested: " + reason);
    }

    /** As {@link MpirunJobRunner#runs}. */
    @Override
    public boolean runs(int ranks) {
        return ranks >= 2 && ranks <= 4;
    }

    /** As {@link MpirunJobRunner#runsAlgorithm}. */
    @Override
    public boolean runsAlgorithm(String algorithm) {
        return !nativeCollectives || algorithm.equals("auto");
    }

    @Override
    public String toString() {
        return name;
    }
}
