package dev.tessera.conformance;

import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;

/**
 * Every rank ends its session and calls {@code System.exit(status)}, rank r about 20 r ms after
 * rank 0, as a program does that refuses its arguments on every rank (the NPB kernels' checks).
 */
public final class AllRanksExitMain {

    private AllRanksExitMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int status = Integer.parseInt(args[0]);
        int rank;
        try (Session s = Tessera.init(new String[0])) {
            rank = s.world().rank();
            s.world().barrier();
        }
        Thread.sleep(20L * rank);
        System.out.flush();
        System.exit(status);
    }
}
