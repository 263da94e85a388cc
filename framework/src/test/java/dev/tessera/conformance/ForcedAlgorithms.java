package dev.tessera.conformance;

import dev.tessera.comm.Comm;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Checks a collective under each of several forced algorithms inside one job: a job per
 * algorithm would start its rank JVMs again for every one. A failure names the algorithm.
 */
final class ForcedAlgorithms {

    /** A check run with one algorithm forced. */
    @FunctionalInterface
    interface Check {
        void run(String algorithm) throws Exception;
    }

    private ForcedAlgorithms() {
    }

    /**
     * (runner, ranks, algorithms) for every runner of {@code runners} and every rank count of
     * {@code ranks} it runs, with the {@code algorithms} that runner runs.
     */
    static Stream<Arguments> cases(List<JobRunner> runners, List<Integer> ranks, String... algorithms) {
        return runners.stream().flatMap(r -> ranks.stream().filter(r::runs).map(n ->
                Arguments.of(r, n, Stream.of(algorithms).filter(r::runsAlgorithm).toList())));
    }

    /**
     * For each of {@code algorithms} in turn: forces it for every one of {@code collectives}
     * on {@code world}, then runs {@code check}. A failure of the check fails with the
     * collectives and the algorithm in its message (the original failure is its cause).
     */
    static void each(Comm world, List<String> algorithms, List<String> collectives, Check check) {
        for (String algorithm : algorithms) {
            for (String collective : collectives) {
                world.tuning().force(collective, algorithm);
            }
            try {
                check.run(algorithm);
            } catch (Exception | AssertionError e) {
                throw new AssertionError(String.join("/", collectives) + " with algorithm " + algorithm + " on " + world.size()
                        + " ranks: " + e, e);
            }
        }
    }
}
