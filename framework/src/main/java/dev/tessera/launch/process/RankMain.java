package dev.tessera.launch.process;

import dev.tessera.runtime.Tessera;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;

/**
 * The main class of a rank process started by {@link ProcessLauncher}: runs the
 * program's main, and if it throws, tells the other ranks (ABORT, naming this rank and
 * the cause) before exiting with status 1, so that they stop within seconds instead of
 * waiting for this rank forever. Exits 0 when main returns; the device then closes
 * cleanly in the shutdown hook installed by the runtime's process bootstrap.
 *
 * <p>Usage: {@code RankMain MAIN [ARGS...]}.
 */
public final class RankMain {

    private RankMain() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: RankMain MAIN [ARGS...]");
            System.exit(2);
        }
        Map<String, String> env = System.getenv();
        String rank = env.getOrDefault("TESSERA_RANK", env.getOrDefault("OMPI_COMM_WORLD_RANK", env.getOrDefault("PMI_RANK", "?")));
        boolean tag = "1".equals(env.get("TESSERA_TAG_OUTPUT"));
        if (OutputForwarding.connectRank(env, tag ? "[" + rank + "] " : "")) {
            // tessera run --device mpi forwards this rank's output itself, in whole lines
        } else if (tag) {
            dev.tessera.launch.RankTaggedOutput.installForProcess(rank);
        } else if ("mpi".equals(env.get("TESSERA_DEVICE"))) {
            // mpirun forwards whatever each write holds: whole lines only, so ranks never split each other's lines
            dev.tessera.launch.RankTaggedOutput.installWholeLines();
        }
        Method main;
        try {
            main = Class.forName(args[0]).getMethod("main", String[].class);
        } catch (ReflectiveOperationException | LinkageError e) {
            System.err.println("tessera: rank " + rank + ": cannot start " + args[0] + ": " + e);
            System.exit(2);
            return;
        }
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            fail(rank, e.getCause());
        } catch (IllegalAccessException e) {
            fail(rank, e);
        }
        System.out.flush();
        dev.tessera.runtime.internal.ProcessBootstrap.mainReturned();
        System.exit(0);   // the device closes cleanly in its shutdown hook
    }

    private static void fail(String rank, Throwable cause) {
        System.err.println("tessera: rank " + rank + " failed: " + cause);
        cause.printStackTrace();
        Tessera.abortJob(cause);
        System.err.flush();
        java.lang.Runtime.getRuntime().halt(1);   // no clean close: the peers were told this rank failed
    }
}
