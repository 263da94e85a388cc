package dev.tessera.conformance;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;

/**
 * A job that never ends: every rank prints "rank R pid PID job JOB" and then reduces in a
 * loop (issue #28, items 3 and 4: what is left when its launcher is killed). With the
 * argument {@code once} each rank prints its line and returns.
 */
public final class SpinningJobMain {

    private SpinningJobMain() {
    }

    public static void main(String[] args) {
        try (Session s = Tessera.init(new String[0])) {
            Comm world = s.world();
            world.barrier();
            System.out.println("rank " + world.rank() + " pid " + ProcessHandle.current().pid() + " job "
                    + System.getenv().getOrDefault("TESSERA_JOB_ID", "-"));
            System.out.flush();
            if (args.length > 0 && args[0].equals("once")) {
                return;
            }
            int[] v = new int[1];
            while (true) {
                world.allreduce(Buffer.of(v), Op.SUM);
            }
        }
    }
}
