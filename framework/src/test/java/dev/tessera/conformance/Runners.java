package dev.tessera.conformance;

import java.util.ArrayList;
import java.util.List;

/** The job runners every conformance test runs on; multi-process devices add theirs here. */
public final class Runners {

    private static volatile boolean mpiReported;

    private Runners() {
    }

    /** smp, tcp, shm, auto, and mpi (under mpirun) when Open MPI is installed. */
    public static List<JobRunner> all() {
        List<JobRunner> runners = new ArrayList<>(List.of(new SmpJobRunner(), new ProcessJobRunner("tcp"),
                new ProcessJobRunner("shm"), new ProcessJobRunner("auto", java.time.Duration.ofSeconds(90), 2)));
        if (mpiAvailable()) {
            runners.add(new MpirunJobRunner(false));
        }
        return only(runners);
    }

    /** -Dtessera.test.runners=mpi,smp keeps the runners whose names start with one of those (for working on one device). */
    private static List<JobRunner> only(List<JobRunner> runners) {
        String keep = System.getProperty("tessera.test.runners", "");
        if (keep.isBlank()) {
            return runners;
        }
        List<String> prefixes = List.of(keep.split(","));
        runners.removeIf(r -> prefixes.stream().noneMatch(p -> r.toString().startsWith(p.strip())));
        return runners;
    }

    /** {@link #all()}, plus the mpi device with the library's own collectives (for the collective suites). */
    public static List<JobRunner> withNativeCollectives() {
        List<JobRunner> runners = new ArrayList<>(all());
        if (mpiAvailable()) {
            runners.add(new MpirunJobRunner(true));
        }
        return only(runners);
    }

    /** {@link #all()}, plus the mpi device over MPICH when it is installed next to Open MPI (point-to-point suite). */
    public static List<JobRunner> withMpich() {
        List<JobRunner> runners = new ArrayList<>(all());
        if (MpirunJobRunner.mpichAvailable()) {
            runners.add(MpirunJobRunner.mpich());
        } else {
            System.out.println("conformance: MPICH not installed (mpich libmpich-dev): the mpi device is tested on Open MPI only");
        }
        return only(runners);
    }

    /** {@link #withNativeCollectives()}, plus the mpi device over MPICH when it is installed (collectives on every library). */
    public static List<JobRunner> everyLibrary() {
        List<JobRunner> runners = new ArrayList<>(withNativeCollectives());
        if (MpirunJobRunner.mpichAvailable()) {
            runners.add(MpirunJobRunner.mpich());
        }
        return only(runners);
    }

    private static boolean mpiAvailable() {
        boolean ok = MpirunJobRunner.available();
        if (!ok && !mpiReported) {
            mpiReported = true;
            System.out.println("conformance: the mpi device is not tested: mpirun or mpicc not on PATH "
                    + "(install openmpi-bin libopenmpi-dev)");
        }
        return ok;
    }
}
