package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.launch.LaunchSpec;
import dev.tessera.launch.process.ProcessLauncher;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The larger classes of EP, IS, CG, MG and FT at 1 x 1, 1 x 2 and 2 x 1 (ranks x threads), on smp
 * (ranks as threads of the test JVM) and on shm (one JVM per rank, started by the process launcher as
 * {@code tessera run --device shm} starts them). Opt-in, minutes long: {@code mvn -pl kernels/npb
 * install -Pnpb-full} sets the system property {@code npb.test.classes} to SWAB (W, A and B; about
 * 10 minutes on 2 idle cores, an hour on busy ones); {@code -Dnpb.test.classes=SWA} leaves class B out, {@code
 * -Dnpb.test.kernels=is,cg} runs only those kernels. By default it is
 * S and these are skipped (class S is verified by the other tests of this module).
 */
@Timeout(1800)
class LargerClassesTest {

    /** Heap of each shm rank JVM: class B of FT at one rank, the largest here, needs under 4 GiB. */
    private static final String RANK_HEAP = "-Xmx4g";

    static List<Arguments> configurations() {
        List<Arguments> out = new ArrayList<>();
        String classes = System.getProperty("npb.test.classes", "S");
        List<String> kernels = List.of(System.getProperty("npb.test.kernels", "ep,is,cg,mg,ft").split(","));
        for (char c : classes.toCharArray()) {
            if (c == 'S') {
                continue;
            }
            for (String device : new String[] {"smp", "shm"}) {
                for (String kernel : kernels) {
                    out.add(Arguments.of(kernel, c, 1, 1, device));
                    out.add(Arguments.of(kernel, c, 1, 2, device));
                    out.add(Arguments.of(kernel, c, 2, 1, device));
                }
            }
        }
        if (out.isEmpty()) {
            out.add(Arguments.of("none", 'S', 0, 0, "smp"));
        }
        return out;
    }

    @ParameterizedTest(name = "{0} class {1}, {2} ranks x {3} threads, {4}")
    @MethodSource("configurations")
    void largerClassVerifies(String name, char problemClass, int ranks, int threads, String device) throws Exception {
        assumeTrue(ranks > 0, "classes W, A and B run with -Pnpb-full");
        if (device.equals("smp")) {
            KernelResult r = SmpRuns.run(KernelVerificationTest.kernel(name).get(), problemClass, ranks, threads,
                    Duration.ofMinutes(25));
            System.out.printf("npb-full: %s class %c %dx%d smp: %.2f s, %.2f Mop/s, verified %b%n", r.name(),
                    problemClass, ranks, threads, r.seconds(), r.mops(), r.verified());
            assertTrue(r.verified(), r.name() + " class " + problemClass + " at " + ranks + " x " + threads
                    + " on smp did not verify:\n" + r.verificationDetail());
            return;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LaunchSpec spec = new LaunchSpec(ranks, 0, List.of(), threads, device, false, List.of(), NpbMain.class.getName(),
                List.of(name, "--class", String.valueOf(problemClass), "--json"), List.of(RANK_HEAP),
                Duration.ofSeconds(60), false);
        int status = new ProcessLauncher(sink, sink, Duration.ofMinutes(25), 0).run(spec);
        String output = bytes.toString(StandardCharsets.UTF_8);
        String json = output.lines().filter(l -> l.startsWith("{")).findFirst().orElse("");
        System.out.printf("npb-full: %s class %c %dx%d %s: %s s, %s Mop/s, verified %b%n", name.toUpperCase(), problemClass,
                ranks, threads, device, field(json, "seconds"), field(json, "mops"), json.contains("\"verified\":true"));
        assertEquals(0, status, output);
        assertTrue(json.contains("\"verified\":true"), output);
        assertTrue(json.contains("\"class\":\"" + problemClass + "\""), json);
        assertTrue(json.contains("\"np\":" + ranks) && json.contains("\"threads\":" + threads), json);
        assertTrue(json.contains("\"device\":\"" + device + "\""), json);
    }

    /** The value of a numeric field of NpbMain's JSON line, as printed ("?" when absent). */
    private static String field(String json, String key) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + key + "\":([0-9.eE+-]+)").matcher(json);
        return m.find() ? m.group(1) : "?";
    }
}
