package dev.tessera.conformance;

import java.util.List;

/** The job runners every conformance test runs on; multi-process devices add theirs here. */
public final class Runners {

    private Runners() {
    }

    public static List<JobRunner> all() {
        return List.of(new SmpJobRunner(), new ProcessJobRunner("tcp"), new ProcessJobRunner("shm"),
                new ProcessJobRunner("auto", java.time.Duration.ofSeconds(90), 2));
    }
}
