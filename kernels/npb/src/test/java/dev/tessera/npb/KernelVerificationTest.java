package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npb.cg.CgKernel;
import dev.tessera.npb.ep.EpKernel;
import dev.tessera.npb.ft.FtKernel;
import dev.tessera.npb.is.IsKernel;
import dev.tessera.npb.mg.MgKernel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Class S of EP, IS and CG verifies against the reference's values at 1, 2 and 4 ranks
 * (smp: ranks as threads of this JVM) and 1 and 2 threads per rank.
 */
@Timeout(300)
class KernelVerificationTest {

    static List<Arguments> configurations() {
        List<Arguments> out = new ArrayList<>();
        for (String kernel : new String[] {"ep", "is", "cg"}) {
            for (int ranks : new int[] {1, 2, 4}) {
                for (int threads : new int[] {1, 2}) {
                    out.add(Arguments.of(kernel, ranks, threads));
                }
            }
        }
        return out;
    }

    static Supplier<NpbKernel> kernel(String name) {
        return switch (name) {
            case "ep" -> EpKernel::new;
            case "is" -> IsKernel::new;
            case "cg" -> CgKernel::new;
            case "mg" -> MgKernel::new;
            case "ft" -> FtKernel::new;
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest(name = "{0} class S, {1} ranks x {2} threads")
    @MethodSource("configurations")
    void classSVerifies(String name, int ranks, int threads) {
        KernelResult r = SmpRuns.run(kernel(name).get(), 'S', ranks, threads);
        assertTrue(r.verified(), name + " class S at " + ranks + " x " + threads + " did not verify:\n" + r.verificationDetail());
        assertEquals('S', r.problemClass());
        assertEquals(name.toUpperCase(), r.name());
        assertTrue(r.seconds() > 0 && r.mops() > 0, "time and rate are positive: " + r);
    }
}
