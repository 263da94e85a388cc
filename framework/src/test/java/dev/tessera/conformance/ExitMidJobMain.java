package dev.tessera.conformance;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;

/**
 * A job whose rank 2 calls {@code System.exit(STATUS)} in the middle of its work, with its
 * session open, while rank 0 waits for a message from it and ranks 1 and 3 for it in an
 * allreduce (issue #28, items 1 and 2). Usage: {@code ExitMidJobMain STATUS}.
 */
public final class ExitMidJobMain {

    private ExitMidJobMain() {
    }

    public static void main(String[] args) {
        int status = Integer.parseInt(args[0]);
        try (Session s = Tessera.init(new String[0])) {
            Comm world = s.world();
            world.barrier();
            if (world.rank() == 2) {
                System.out.println("rank 2 calls System.exit(" + status + ")");
                System.out.flush();
                System.exit(status);
            } else if (world.rank() == 0) {
                world.recv(Buffer.of(new int[1]), 2, 0);
            } else {
                while (true) {
                    world.allreduce(Buffer.of(new int[1]), Op.SUM);
                }
            }
        }
    }
}
