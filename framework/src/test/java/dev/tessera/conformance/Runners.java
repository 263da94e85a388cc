package dev.tessera.conformance;

import java.util.ArrayList;
import java.util.List;

/** The job runners every conformance test runs on; multi-process devices add theirs here. */
public final class Runners {

    static final String NO_OPEN_MPI = "mpirun or mpicc not on PATH (install openmpi-bin libopenmpi-dev)";
    static final String NO_MPICH = "mpirun.mpich or mpicc.mpich not on PATH (install mpich libmpich-dev)";

    private Runners() {
    }

    /**
     * smp, tcp, shm, auto, and mpi (under mpirun); without Open MPI the mpi cases are
     * reported as skipped with the reason ({@link UnavailableRunner}).
     */
    public static List<JobRunner> all() {
        List<JobRunner> runners = new ArrayList<>(List.of(new SmpJobRunner(), new ProcessJobRunner("tcp"),
                new ProcessJobRunner("shm"), new ProcessJobRunner("auto", java.time.Duration.ofSeconds(90), 2)));
        runners.add(mpiAvailable() ? new MpirunJobRunner(false) : new UnavailableRunner("mpi", "mpi", false, NO_OPEN_MPI));
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
        runners.add(mpiAvailable() ? new MpirunJobRunner(true)
                : new UnavailableRunner("mpi(native collectives)", "mpi", true, NO_OPEN_MPI));
        return only(runners);
    }

    /** {@link #all()}, plus the mpi device over MPICH when it is installed next to Open MPI (point-to-point suite). */
    public static List<JobRunner> withMpich() {
        List<JobRunner> runners = new ArrayList<>(all());
        runners.add(mpichRunner());
        return only(runners);
    }

    /** {@link #withNativeCollectives()}, plus the mpi device over MPICH when it is installed (collectives on every library). */
    public static List<JobRunner> everyLibrary() {
        List<JobRunner> runners = new ArrayList<>(withNativeCollectives());
        runners.add(mpichRunner());
        return only(runners);
    }

    private static JobRunner mpichRunner() {
        return mpichAvailable() ? MpirunJobRunner.mpich() : new UnavailableRunner("mpi(MPICH)", "mpi", false, NO_MPICH);
    }

    /** -Dtessera.test.noMpi=true acts as if Open MPI and MPICH were not installed (to check how their cases are reported). */
    private static boolean mpiAvailable() {
        return !Boolean.getBoolean("tessera.test.noMpi") && MpirunJobRunner.available();
    }

    private static boolean mpichAvailable() {
        return !Boolean.getBoolean("tessera.test.noMpi") && MpirunJobRunner.mpichAvailable();
    }
}
