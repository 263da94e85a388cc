package dev.tessera.bench.cli;

import dev.tessera.bench.osu.Series;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Test access to the package-private CSV writer. */
public final class CsvAccess {

    private CsvAccess() {
    }

    public static void write(Path file, List<Series> series) throws IOException {
        BenchCommand.writeCsv(file, series);
    }
}
