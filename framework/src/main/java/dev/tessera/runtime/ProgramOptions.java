package dev.tessera.runtime;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options of a program (a kernel, an app, an example), so that a scientist changes a
 * parameter without recompiling, in the manner of PETSc's options database:
 *
 * <pre>{@code
 * ProgramOptions opts = ProgramOptions.of("heat3d", "Hybrid 3D heat equation")
 *         .add("n", 32, "grid points per side (global)")
 *         .add("steps", 200, "time steps")
 *         .add("alpha", 0.1, "diffusion coefficient");
 * if (!opts.parse(session)) {
 *     return;                       // --help was asked for: rank 0 printed every option
 * }
 * int n = opts.getInt("n");
 * }</pre>
 *
 * <p>On the command line an option is {@code -name value}, {@code --name value} or
 * {@code --name=value}; booleans also as a bare flag ({@code -verbose}). In the environment
 * the same option is {@code TESSERA_NAME} (upper case, '-' as '_'); the command line wins
 * over the environment, the environment over the default. {@code -help} / {@code --help}
 * lists every option with its type, default and variable. Unknown options and values that
 * do not parse are errors naming the option and the program. Parsing is done by picocli's
 * programmatic model; this class only declares options from typed defaults.
 */
public final class ProgramOptions {

    private final String program;
    private final String description;
    private final Map<String, Object> defaults = new LinkedHashMap<>();
    private final Map<String, String> descriptions = new LinkedHashMap<>();
    private Map<String, Object> values;
    private boolean helpRequested;
    private Map<String, String> environment = System.getenv();

    private ProgramOptions(String program, String description) {
        this.program = program;
        this.description = description;
    }

    /** Options of the program called {@code program} (as --help names it). */
    public static ProgramOptions of(String program, String description) {
        return new ProgramOptions(program, description);
    }

    /** Declares an int option. */
    public ProgramOptions add(String name, int defaultValue, String description) {
        return declare(name, defaultValue, description);
    }

    /** Declares a long option. */
    public ProgramOptions add(String name, long defaultValue, String description) {
        return declare(name, defaultValue, description);
    }

    /** Declares a double option. */
    public ProgramOptions add(String name, double defaultValue, String description) {
        return declare(name, defaultValue, description);
    }

    /** Declares a boolean option (a bare {@code -name} sets it). */
    public ProgramOptions add(String name, boolean defaultValue, String description) {
        return declare(name, defaultValue, description);
    }

    /** Declares a string option. */
    public ProgramOptions add(String name, String defaultValue, String description) {
        return declare(name, defaultValue, description);
    }

    /** Reads TESSERA_* defaults from {@code variables} instead of the process environment (tests). */
    public ProgramOptions environment(Map<String, String> variables) {
        this.environment = Map.copyOf(variables);
        return this;
    }

    private ProgramOptions declare(String name, Object defaultValue, String text) {
        if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_-]*")) {
            throw new IllegalArgumentException(program + ": option name '" + name + "' must start with a letter and hold only letters, digits, '_' and '-'");
        }
        if (defaults.containsKey(name) || name.equals("help")) {
            throw new IllegalArgumentException(program + ": option -" + name + " declared twice");
        }
        defaults.put(name, defaultValue);
        descriptions.put(name, text);
        return this;
    }

    /** The environment variable that sets option {@code name}. */
    public static String variableFor(String name) {
        return "TESSERA_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /**
     * Parses the session's program arguments ({@link Session#args()}). Returns false when
     * help was asked for (rank 0 has printed it; the program should end), true otherwise.
     *
     * @throws IllegalArgumentException naming the program, the option and the value on bad input
     */
    public boolean parse(Session session) {
        return parse(session.args(), session.rank() == 0 ? System.out : null);
    }

    /** Parses {@code args}; prints help to {@code helpOut} (if not null) when asked. Returns false after help. */
    public boolean parse(List<String> args, PrintStream helpOut) {
        CommandSpec spec = CommandSpec.create().name(program);
        spec.usageMessage().description(description);
        spec.mixinStandardHelpOptions(false);
        spec.parser().posixClusteredShortOptionsAllowed(false);   // -nx is an option called nx, not -n x
        spec.addOption(OptionSpec.builder("-help", "--help", "-h").usageHelp(true).description("Print the options and exit.").build());
        for (Map.Entry<String, Object> e : defaults.entrySet()) {
            String name = e.getKey();
            Object def = e.getValue();
            OptionSpec.Builder b = OptionSpec.builder("-" + name, "--" + name).type(def.getClass())
                    .description(descriptions.get(name) + " (default: " + def + "; env " + variableFor(name) + ")")
                    .defaultValue(String.valueOf(def));
            if (def instanceof Boolean) {
                b.arity("0..1");
            } else {
                b.paramLabel(typeLabel(def));
            }
            spec.addOption(b.build());
        }
        CommandLine cl = new CommandLine(spec);
        cl.setDefaultValueProvider(arg -> {
            if (arg instanceof OptionSpec o) {
                String name = o.longestName().substring(2);
                String v = environment.get(variableFor(name));
                if (v != null) {
                    return v;
                }
            }
            return arg.defaultValue();
        });
        CommandLine.ParseResult result;
        try {
            result = cl.parseArgs(args.toArray(new String[0]));
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(program + ": " + e.getMessage() + " (" + program + " --help lists the options)", e);
        }
        if (result.isUsageHelpRequested()) {
            helpRequested = true;
            if (helpOut != null) {
                cl.usage(helpOut);
            }
            return false;
        }
        Map<String, Object> parsed = new LinkedHashMap<>();
        for (String name : defaults.keySet()) {
            parsed.put(name, spec.findOption("--" + name).getValue());
        }
        values = parsed;
        return true;
    }

    private static String typeLabel(Object def) {
        return switch (def) {
            case Integer i -> "INT";
            case Long l -> "LONG";
            case Double d -> "REAL";
            default -> "TEXT";
        };
    }

    /** Whether the last parse saw --help. */
    public boolean helpRequested() {
        return helpRequested;
    }

    public int getInt(String name) {
        return (Integer) value(name, Integer.class);
    }

    public long getLong(String name) {
        return (Long) value(name, Long.class);
    }

    public double getDouble(String name) {
        return (Double) value(name, Double.class);
    }

    public boolean getBoolean(String name) {
        return (Boolean) value(name, Boolean.class);
    }

    public String getString(String name) {
        return (String) value(name, String.class);
    }

    /** Every option and its value, in declaration order ("n=32 steps=200 ..."), for a run's log line. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        (values != null ? values : defaults).forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(" ", parts);
    }

    private Object value(String name, Class<?> type) {
        if (values == null) {
            throw new IllegalStateException(program + ": options read before parse()");
        }
        Object v = values.get(name);
        if (!defaults.containsKey(name)) {
            throw new IllegalArgumentException(program + ": no option -" + name + " was declared");
        }
        if (!type.isInstance(v)) {
            throw new IllegalArgumentException(program + ": option -" + name + " is a " + defaults.get(name).getClass().getSimpleName()
                    + ", not a " + type.getSimpleName());
        }
        return v;
    }
}
