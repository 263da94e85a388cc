package dev.tessera.task;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Opt-in pinning of team members, one CPU each ({@code -Dtessera.team.pin=true} or
 * {@code TESSERA_TEAM_PIN=true}; the property wins). Member m is bound to the m-th CPU of the
 * set the creating thread may run on, by Linux {@code sched_setaffinity(0, ...)} called on the
 * member's own thread through the FFM linker (the caller, member 0, when it first runs a
 * construct; each worker when it starts). Only when that set has at least as many CPUs as the
 * team has members; otherwise, elsewhere than Linux, or where the call fails, the members stay
 * as they are and the team works unpinned (no error: pinning is a hint).
 *
 * <p>The task package depends on nothing else of ours, so this does not share the launcher's
 * rank binding ({@code runtime.internal.Affinity}); it is the same two libc calls.
 */
final class TeamPinning {

    static final String PROPERTY = "tessera.team.pin";
    static final String VARIABLE = "TESSERA_TEAM_PIN";

    private static final int MASK_BYTES = 128;

    private TeamPinning() {
    }

    /** The switch from this JVM's property and environment; a value other than true/false/on/off/1/0 is refused. */
    static boolean requested() {
        return parse(System.getProperty(PROPERTY), System.getenv(VARIABLE));
    }

    /**
     * The switch from {@code property} (-Dtessera.team.pin) and, if that is unset or blank,
     * {@code variable} (TESSERA_TEAM_PIN); both unset: off.
     */
    static boolean parse(String property, String variable) {
        if (property != null && !property.isBlank()) {
            return parseOne(property, "-D" + PROPERTY);
        }
        if (variable != null && !variable.isBlank()) {
            return parseOne(variable, VARIABLE);
        }
        return false;
    }

    private static boolean parseOne(String value, String source) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "on", "1", "yes" -> true;
            case "false", "off", "0", "no" -> false;
            default -> throw new IllegalArgumentException("Team.create: " + source
                    + " must be true or false (on/off, 1/0), got '" + value + "'");
        };
    }

    /**
     * The CPU of each of {@code size} members out of {@code allowed}: member m gets allowed[m];
     * empty when there are fewer allowed CPUs than members (or one member: nothing to spread).
     */
    static int[] plan(int[] allowed, int size) {
        if (size < 2 || allowed.length < size) {
            return new int[0];
        }
        return java.util.Arrays.copyOf(allowed, size);
    }

    private static final class Native {
        static final MethodHandle GET;
        static final MethodHandle SET;

        static {
            Linker linker = Linker.nativeLinker();
            FunctionDescriptor fd = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
            Optional<MemorySegment> get = linker.defaultLookup().find("sched_getaffinity");
            Optional<MemorySegment> set = linker.defaultLookup().find("sched_setaffinity");
            GET = get.map(a -> linker.downcallHandle(a, fd)).orElse(null);
            SET = set.map(a -> linker.downcallHandle(a, fd)).orElse(null);
        }
    }

    private static boolean available() {
        try {
            return System.getProperty("os.name", "").startsWith("Linux") && Native.GET != null && Native.SET != null;
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
    }

    /** The CPUs the calling thread may run on, ascending; empty if unknown. */
    static int[] allowedCpus() {
        if (!available()) {
            return new int[0];
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES, 8);
            if ((int) Native.GET.invokeExact(0, (long) MASK_BYTES, mask) != 0) {
                return new int[0];
            }
            return IntStream.range(0, MASK_BYTES * 8)
                    .filter(cpu -> (mask.get(ValueLayout.JAVA_BYTE, cpu / 8) & (1 << (cpu % 8))) != 0).toArray();
        } catch (Throwable t) {
            return new int[0];
        }
    }

    /** Binds the calling thread to {@code cpus}; false if refused or not possible here. */
    static boolean bindCurrentThread(int... cpus) {
        if (!available() || cpus.length == 0) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES, 8);
            for (int cpu : cpus) {
                if (cpu < 0 || cpu >= MASK_BYTES * 8) {
                    return false;
                }
                int b = cpu / 8;
                mask.set(ValueLayout.JAVA_BYTE, b, (byte) (mask.get(ValueLayout.JAVA_BYTE, b) | (1 << (cpu % 8))));
            }
            return (int) Native.SET.invokeExact(0, (long) MASK_BYTES, mask) == 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
