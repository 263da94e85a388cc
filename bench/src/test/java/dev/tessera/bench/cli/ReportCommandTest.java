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
    void machineFactsNameTheEssentials() {
        String m = ReportCommand.machine();
        for (String key : new String[] {"- Date:", "- CPU:", "- Memory:", "- OS:", "- JDK:", "- MPI:"}) {
            assertTrue(m.contains(key), m);
        }
    }
}
