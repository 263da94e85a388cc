package dev.tessera.bench.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FormatsTest {

    static Series latency(String impl, double seconds) {
        ResultParser p = new ResultParser();
        assertEquals(8, p.accept("TB start 8 100"));
        assertEquals(-1, p.accept("TB result 8 100 0 " + seconds + " " + seconds * 3 + " " + seconds));
        p.accept("TB result 1024 100 0 " + 2 * seconds);
        return new Series(Suite.LATENCY, impl, "smp", 2, p.points());
    }

    @Test
    void repeatedRunsKeepTheBestMedianPerSize() {
        Series a = latency("tessera", 2e-6);   // 8 B: 2 us, 1 KiB: 4 us
        ResultParser p = new ResultParser();
        p.accept("TB result 8 100 0 3e-6");
        p.accept("TB result 1024 100 0 1e-6");
        Series b = new Series(Suite.LATENCY, "tessera", "smp", 2, p.points());
        Series best = Series.bestOf(List.of(a, b));
        assertEquals(2.0, best.at(8).p50(), 1e-9);
        assertEquals(1.0, best.at(1024).p50(), 1e-9);
        assertEquals(a.points().size(), best.points().size());
    }

    @Test
    void parserReadsProtocolLines() {
        ResultParser p = new ResultParser();
        p.accept("TB result 65536 5 4194304 1e-3 2e-3 3e-3");
        Series.Point pt = p.points().get(0);
        assertEquals(65536, pt.size());
        assertEquals(5, pt.iters());
        assertEquals(2e-3, pt.time().p50());
        assertEquals(2097.152, pt.p50(), 1e-9); // MB/s at the median time
        assertEquals(1398.101, pt.p90(), 1e-3);  // the slow tail is the low bandwidth
        assertEquals(4194304 / 1e-3 / 1e6, pt.best(), 1e-9);
        assertTrue(ResultParser.isProtocol("TB start 1 2"));
        assertFalse(ResultParser.isProtocol("rank 0: hello"));
        assertThrows(IllegalArgumentException.class, () -> p.accept("TB result 8"));
    }

    @Test
    void osuTableHasHeaderColumnsAndRatio() {
        String t = Formats.table(latency("tessera", 2e-6), latency("native", 1e-6), "Open MPI 4.1.4, btl self,vader");
        List<String> lines = t.lines().toList();
        assertTrue(lines.get(0).startsWith("# Tessera bench latency"));
        String cols = lines.stream().filter(l -> l.startsWith("# Size")).findFirst().orElseThrow();
        assertEquals(List.of("#", "Size", "p50(us)", "p90(us)", "p99(us)", "min(us)", "native", "p50(us)", "ratio"),
                List.of(cols.trim().split("\\s+")));
        String row = lines.get(lines.size() - 2);
        assertEquals(List.of("8", "2.000", "6.000", "6.000", "2.000", "1.000", "2.00"), List.of(row.split("\\s+")));
    }

    @Test
    void csvHasHeaderAndNumericColumns(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("sub/x.csv");
        dev.tessera.bench.cli.CsvAccess.write(f, List.of(latency("tessera", 2e-6)));
        List<String> lines = Files.readAllLines(f);
        assertEquals(Formats.CSV_HEADER, lines.get(0));
        assertEquals(3, lines.size());
        String[] cells = lines.get(1).split(",");
        assertEquals(13, cells.length);
        assertEquals("latency", cells[0]);
        assertEquals("us", cells[7]);
        for (int i = 8; i < 13; i++) {
            Double.parseDouble(cells[i]);
        }
        assertEquals(2.0, Double.parseDouble(cells[8]), 1e-9);
    }

    @Test
    void markdownUsesSizeSuffixes() {
        String md = Formats.markdown(latency("tessera", 1e-6), null);
        assertTrue(md.startsWith("| Size | p50(us) |"), md);
        assertTrue(md.contains("| 1K | 2.000 |"), md);
    }

    @Test
    void suitesParseByName() {
        assertEquals(Suite.MULTI_LAT, Suite.parse("multi-lat"));
        assertEquals(Suite.ALLREDUCE, Suite.parse("ALLREDUCE"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Suite.parse("pingpong"));
        assertTrue(e.getMessage().contains("known: latency"), e.getMessage());
    }

    @Test
    void partnersPairRanks() {
        assertEquals(1, OsuRank.partner(Suite.LATENCY, 0, 4));
        assertEquals(0, OsuRank.partner(Suite.LATENCY, 1, 4));
        assertEquals(-1, OsuRank.partner(Suite.LATENCY, 2, 4));
        assertEquals(2, OsuRank.partner(Suite.MULTI_LAT, 0, 4));
        assertEquals(1, OsuRank.partner(Suite.MBW_MR, 3, 4));
        assertEquals(-1, OsuRank.partner(Suite.MULTI_LAT, 4, 5));
    }
}
