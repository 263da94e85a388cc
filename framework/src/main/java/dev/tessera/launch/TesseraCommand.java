package dev.tessera.launch;

import dev.tessera.runtime.Tessera;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/tessera}: the one command users type. */
@Command(name = "tessera",
        mixinStandardHelpOptions = true,
        versionProvider = TesseraCommand.VersionProvider.class,
        description = "Tessera: hybrid message-passing + threads for scientific codes on the JVM.",
        subcommands = {RunCommand.class, InfoCommand.class, BenchEntry.class, CommandLine.HelpCommand.class},
        footer = {"", "Examples:",
            "  tessera run -np 4 --device smp -cp examples/target/classes dev.tessera.examples.Jacobi2D",
            "  tessera info",
            "  tessera bench latency --quick --vs native"})
public final class TesseraCommand implements Runnable {

    /** The command; picocli fills its options. */
    public TesseraCommand() {
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new TesseraCommand());
        // Everything after the program's main class belongs to the program, even if it looks like an option.
        cli.setStopAtPositional(true);
        int code = cli.execute(args);
        System.exit(code);
    }

    /** Prints the build's version and the JVM it runs on. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"Tessera " + Tessera.VERSION,
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
        }
    }
}
