package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Classes W and A of EP, IS, CG, MG and FT at 1 x 1, 1 x 2 and 2 x 1 (ranks x threads, smp). Opt-in,
 * minutes long: {@code mvn -pl kernels/npb install -Pnpb-full} (the profile sets the
 * system property {@code npb.test.classes} to SWA; by default it is S and these are skipped).
 */
@Timeout(1800)
class LargerClassesTest {

    static List<Arguments> configurations() {
        List<Arguments> out = new ArrayList<>();
        String classes = System.getProperty("npb.test.classes", "S");
        for (char c : classes.toCharArray()) {
            if (c == 'S') {
                continue;
            }
            for (String kernel : new String[] {"ep", "is", "cg", "mg", "ft"}) {
                out.add(Arguments.of(kernel, c, 1, 1));
                out.add(Arguments.of(kernel, c, 1, 2));
                out.add(Arguments.of(kernel, c, 2, 1));
            }
        }
        if (out.isEmpty()) {
            out.add(Arguments.of("none", 'S', 0, 0));
        }
        return out;
    }

    @ParameterizedTest(name = "{0} class {1}, {2} ranks x {3} threads")
    @MethodSource("configurations")
    void largerClassVerifies(String name, char problemClass, int ranks, int threads) {
        assumeTrue(ranks > 0, "classes W and A run with -Pnpb-full");
        KernelResult r = SmpRuns.run(KernelVerificationTest.kernel(name).get(), problemClass, ranks, threads,
                Duration.ofMinutes(25));
        System.out.printf("npb-full: %s class %c %dx%d: %.2f s, %.2f Mop/s, verified %b%n", r.name(), problemClass, ranks,
                threads, r.seconds(), r.mops(), r.verified());
        assertTrue(r.verified(), r.name() + " class " + problemClass + " at " + ranks + " x " + threads
                + " did not verify:\n" + r.verificationDetail());
    }
}
