package dev.tessera.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandTest {

    @Test
    void replacesOnlyTheGeneratedSection(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("performance.md");
        Files.writeString(f, "# Performance\n\nintro\n\n" + ReportCommand.BEGIN + "\nold\n" + ReportCommand.END + "\n\n## Notes\nkept\n");
        ReportCommand.writeSection(f, "## Generated\nnew table\n");
        String text = Files.readString(f);
        assertTrue(text.startsWith("# Performance\n\nintro\n\n" + ReportCommand.BEGIN), text);
        assertTrue(text.contains("new table"), text);
        assertTrue(!text.contains("old"), text);
        assertTrue(text.endsWith(ReportCommand.END + "\n\n## Notes\nkept\n"), text);
        ReportCommand.writeSection(f, "## Generated\nnewer\n");
        assertEquals(1, Files.readString(f).split(ReportCommand.BEGIN, -1).length - 1);
    }

    @Test
    void insertsMarkersAfterTheTitleWhenMissing(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("p.md");
        Files.writeString(f, "# Title\nhand-written\n");
        ReportCommand.writeSection(f, "gen");
        String text = Files.readString(f);
        assertTrue(text.startsWith("# Title\n\n" + ReportCommand.BEGIN + "\n\ngen\n\n" + ReportCommand.END), text);
        assertTrue(text.endsWith("hand-written\n"), text);
    }

    @Test
    void summaryRowPicksTheSizeAtOrBelow() {
        dev.tessera.bench.osu.ResultParser tp = new dev.tessera.bench.osu.ResultParser();
        tp.accept("TB result 1 10 0 1e-6");
        tp.accept("TB result 8 10 0 2e-6");
        tp.accept("TB result 64 10 0 4e-6");
        dev.tessera.bench.osu.ResultParser np = new dev.tessera.bench.osu.ResultParser();
        np.accept("TB result 8 10 0 1e-6");
        var t = new dev.tessera.bench.osu.Series(dev.tessera.bench.osu.Suite.LATENCY, "tessera", "shm", 2, tp.points());
        var n = new dev.tessera.bench.osu.Series(dev.tessera.bench.osu.Suite.LATENCY, "native", "vader", 2, np.points());
        assertEquals("| latency, shm | 8 B | 2.000 us | 1.000 us | 2.00 |\n", ReportCommand.summaryRow("latency, shm", t, n, 8));
        assertEquals("| latency, shm | 64 B | 4.000 us | - | - |\n", ReportCommand.summaryRow("latency, shm", t, n, 1 << 20));
        assertEquals("| latency, shm | 1 B | 1.000 us | - | - |\n", ReportCommand.summaryRow("latency, shm", t, null, 4));
    }

    @Test
    void warnsOnlyWhenTheLoadExceedsTheCores() {
        assertEquals("", ReportCommand.loadWarning(1.5, 2, 2));
        assertTrue(ReportCommand.loadWarning(8.66, 2, 2).startsWith("**Noisy run:** the load average reached 8.7 on 2 cores"));
        // the report's own 4 ranks on 2 cores make a load of 4 without any other work
        assertEquals("", ReportCommand.loadWarning(3.2, 2, 4));
        assertTrue(ReportCommand.loadWarning(4.5, 2, 4).contains("at most 4 busy ranks"));
    }

    @Test
    void machineFactsNameTheEssentials() {
        String m = ReportCommand.machine();
        for (String key : new String[] {"- Date:", "- CPU:", "- Memory:", "- OS:", "- JDK:", "- MPI:"}) {
            assertTrue(m.contains(key), m);
        }
    }
}
