package dev.tessera.npb;

import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/** Runs a kernel on an smp job (ranks as threads of the test JVM) and returns rank 0's result. */
public final class SmpRuns {

    private SmpRuns() {
    }

    public static KernelResult run(NpbKernel kernel, char problemClass, int ranks, int threads) {
        return run(kernel, problemClass, ranks, threads, Duration.ofSeconds(150));
    }

    public static KernelResult run(NpbKernel kernel, char problemClass, int ranks, int threads, Duration timeout) {
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, timeout, session -> {
            KernelResult r = kernel.run(session.world(), session.team(), problemClass);
            if (session.rank() == 0) {
                result.set(r);
            }
        });
        return result.get();
    }
}
