package dev.tessera.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * The help footer of a program that {@code bin/tessera} starts through {@code tessera run} with
 * a subcommand of its own ({@code tessera npb}, {@code tessera npb-mz}): the program's own
 * {@code --help} prints only the options it parses, so this lists the launch options the
 * wrapper takes before handing the rest to it, and the program's examples.
 */
public final class WrapperHelp {

    private WrapperHelp() {
    }

    /** Footer lines for {@code bin/tessera <subcommand>}: the launch options, then {@code examples}, one per line (76 columns at most, as picocli wraps at 80). */
    public static String[] footer(String subcommand, String... examples) {
        List<String> lines = new ArrayList<>(List.of("",
                "Launch options (bin/tessera " + subcommand + " takes them anywhere on its line):",
                "  -np N             Ranks. Default: 1.",
                "  -t, --threads T   Threads per rank. Default: cores per node / ranks per node.",
                "  -d, --device D    smp (ranks as threads of one JVM; the default), shm,",
                "                    tcp, auto or mpi (one process per rank).",
                "  --jvm-opt OPT     An option for each rank process's JVM (repeatable;",
                "                    e.g. --jvm-opt -Xmx4g; smp: TESSERA_JAVA_OPTS=-Xmx4g).",
                "  --bind-to core|none, --tag-output",
                "                    As for tessera run (tessera run --help)."));
        if (examples.length > 0) {
            lines.add("");
            lines.add("Examples:");
            for (String e : examples) {
                lines.add("  " + e);
            }
        }
        return lines.toArray(new String[0]);
    }
}
