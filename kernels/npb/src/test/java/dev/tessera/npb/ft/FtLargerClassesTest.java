package dev.tessera.npb.ft;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.KernelResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Classes W and A of FT at 1 x 1, 1 x 2 and 2 x 1 (ranks x threads, smp). Opt-in, minutes
 * long: {@code mvn -pl kernels/npb install -Pnpb-full} sets {@code npb.test.classes} to SWA;
 * by default (S) these are skipped.
 */
@Timeout(1800)
class FtLargerClassesTest {

    static List<Arguments> configurations() {
        List<Arguments> out = new ArrayList<>();
        for (char c : System.getProperty("npb.test.classes", "S").toCharArray()) {
            if (c != 'S') {
                out.add(Arguments.of(c, 1, 1));
                out.add(Arguments.of(c, 1, 2));
                out.add(Arguments.of(c, 2, 1));
            }
        }
        if (out.isEmpty()) {
            out.add(Arguments.of('S', 0, 0));
        }
        return out;
    }

    @ParameterizedTest(name = "class {0}, {1} ranks x {2} threads")
    @MethodSource("configurations")
    void largerClassVerifies(char problemClass, int ranks, int threads) {
        assumeTrue(ranks > 0, "classes W and A run with -Pnpb-full");
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, Duration.ofMinutes(25), session -> {
            KernelResult r = new FtKernel().run(session.world(), session.team(), problemClass);
            if (session.rank() == 0) {
                result.set(r);
            }
        });
        KernelResult r = result.get();
        System.out.printf("npb-full: %s class %c %dx%d: %.2f s, %.2f Mop/s, verified %b%n", r.name(), problemClass, ranks,
                threads, r.seconds(), r.mops(), r.verified());
        assertTrue(r.verified(), r.name() + " class " + problemClass + " at " + ranks + " x " + threads
                + " did not verify:\n" + r.verificationDetail());
    }
}
