package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.device.Posix;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The links a shm device makes while it starts ({@link CellCopy#link}, {@link Futex#link},
 * {@link HeapCopy#link}) leave nothing for the JDK to generate at a job's later calls: in a fresh
 * JVM with class loading logged, no lambda form class is defined between the links and 400
 * further cell copies by memcpy, futex wakes and heap single-copy helper calls (the JDK customizes a downcall handle's lambda form at its 128th call from
 * interpreted or C1 code, docs/performance.md, stop 68). The helper calls run where heap single
 * copy is on (the probe's JVM decides as a rank's would: off on AMD from family 26 by default).
 */
@Timeout(120)
class DowncallLinkTest {

    @Test
    void noLambdaFormIsGeneratedAfterTheLinks() throws IOException, InterruptedException {
        assertTrue(CellCopy.byMemcpy(CellCopy.MIN_BYTES), "memcpy not linked on this machine");
        assertTrue(Posix.futexAvailable(), "futexes not available on this machine");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-Xshare:auto",
                "-Xlog:class+load=info:stdout", "-cp", System.getProperty("java.class.path"),
                DowncallLinkProbe.class.getName()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe did not end");
        assertEquals(0, p.exitValue(), out);
        List<String> lines = out.lines().toList();
        int linked = lines.indexOf("LINKED");
        int done = lines.indexOf("DONE");
        assertTrue(linked >= 0 && done > linked, () -> "probe output without its marks:\n" + tail(out));
        List<String> generated = lines.subList(linked, done).stream()
                .filter(l -> l.contains("java.lang.invoke.LambdaForm$")).toList();
        assertEquals(List.of(), generated, "lambda forms generated after the links");
    }

    private static String tail(String s) {
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }
}
