package dev.tessera.bench.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code tessera bench report}: placeholder until the report is written. */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Runs the report set and writes docs/performance.md.")
final class ReportCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        return 0;
    }
}
