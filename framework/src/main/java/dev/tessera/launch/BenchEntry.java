package dev.tessera.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tessera bench} as listed in {@code tessera --help}. The benchmarks live in the bench
 * module (dev.tessera.bench.cli.BenchCommand, with its own class path); bin/tessera
 * dispatches {@code bench} there before this launcher starts, so this command only runs when
 * the launcher is started some other way, and then says how to reach the real one.
 */
@Command(name = "bench", description = "OSU-style micro-benchmarks, optionally next to native Open MPI, "
        + "and the performance report (see tessera bench --help).")
final class BenchEntry implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "Arguments of tessera bench.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        System.err.println("tessera: 'bench' runs from the bench module: use bin/tessera bench " + String.join(" ", args)
                + " (or java -cp bench/target/tessera-bench.jar:bench/target/lib/* dev.tessera.bench.cli.BenchCommand)");
        return 2;
    }
}
