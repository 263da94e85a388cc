package dev.tessera.bench.io;

import dev.tessera.io.hdf5.DistributedDataset;
import dev.tessera.io.hdf5.Hdf5Layout;
import dev.tessera.io.hdf5.Hdf5Reader;
import dev.tessera.io.hdf5.Hdf5Type;
import dev.tessera.io.hdf5.Hdf5Writer;
import dev.tessera.io.hdf5.ParallelHdf5File;
import dev.tessera.io.hdf5.WriteStrategy;
import dev.tessera.launch.SmpJob;
import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.Dataset;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Write and read bandwidth of a distributed 3-d double array (n^3, 1 GiB by default)
 * through HDF5, next to dd's raw sequential bandwidth to the same directory in the same
 * run: Tessera's writer (smp ranks in this JVM; slab and pencil blocks; every rank writes
 * vs two-phase aggregation; contiguous and chunked+deflate), jHDF 0.13 (serial, the whole
 * array in memory) and libhdf5 through h5py (serial, native). Every write includes fsync;
 * every read starts with the file evicted from the page cache (dd oflag=nocache), so reads
 * come from the device (dd copies non-zero data from a cached file). Each case runs
 * --repeat times, alternating, each time right after two dd references of the same size: a
 * write and read through the page cache and one with O_DIRECT (on a shared machine the
 * disk's speed drifts, so a case is compared with the dd just before it). Before every
 * timed write and read, dd's and ours, the machine is brought to the same state
 * ({@link #settle}: sync, and the memory freed by the step before handed back to the host
 * where the VM reports free pages). The table shows medians of the times, of the per-pair
 * ratios to each dd, and the CPU seconds the process used (all threads). Run it with
 * {@code -Xms} equal to {@code -Xmx} and {@code -XX:+AlwaysPreTouch}, so that the heap's
 * first-touch page faults are not inside a timed read.
 *
 * <pre>
 * java -Xmx4g -cp bench/target/tessera-bench.jar:bench/target/lib/* dev.tessera.bench.io.Hdf5Bandwidth
 *      [--quick] [--mib 1024] [--ranks 2] [--repeat 3] [--dir DIR] [--only tessera,jHDF]
 * </pre>
 */
public final class Hdf5Bandwidth {

    private static final Duration JOB = Duration.ofMinutes(10);

    record Sample(double writeSeconds, double writeCpu, double readSeconds, double readCpu) {
    }

    /**
     * A case's sample and the dd samples taken just before it (the machine's state then):
     * dd through the page cache and dd with O_DIRECT ({@code oflag=direct}, {@code iflag=direct}).
     */
    record Pair(Sample dd, Sample ddDirect, Sample it) {
        double writeRatio() {
            return dd.writeSeconds / it.writeSeconds;
        }

        double readRatio() {
            return dd.readSeconds / it.readSeconds;
        }

        double directWriteRatio() {
            return ddDirect.writeSeconds / it.writeSeconds;
        }

        double directReadRatio() {
            return ddDirect.readSeconds / it.readSeconds;
        }
    }

    private final Path dir;
    private final int n;
    private final int ranks;
    private final long bytes;

    private Hdf5Bandwidth(Path dir, int n, int ranks) {
        this.dir = dir;
        this.n = n;
        this.ranks = ranks;
        this.bytes = 8L * n * n * n;
    }

    public static void main(String[] args) throws Exception {
        long mib = 1024;
        int ranks = 2;
        int repeat = 3;
        String only = "";
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "tessera-io-bench");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> mib = 64;
                case "--mib" -> mib = Long.parseLong(args[++i]);
                case "--ranks" -> ranks = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--only" -> only = args[++i];
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (--quick, --mib M, --ranks N, --repeat R, --dir D, --only WORD[,WORD])");
            }
        }
        Files.createDirectories(dir);
        int n = (int) Math.round(Math.cbrt(mib * 1024.0 * 1024.0 / 8));
        new Hdf5Bandwidth(dir, n, ranks).run(repeat, only);
    }

    private void run(int repeat, String only) throws Exception {
        Map<String, Case> cases = new LinkedHashMap<>();
        cases.put("dd bs=8M (raw sequential)", () -> dd(""));
        cases.put("tessera " + ranks + " ranks slab, every rank writes", () -> tessera("slab", WriteStrategy.INDEPENDENT, null));
        cases.put("tessera " + ranks + " ranks slab, aggregated", () -> tessera("slab", WriteStrategy.AGGREGATED, null));
        cases.put("tessera " + ranks + " ranks pencil, every rank writes", () -> tessera("pencil", WriteStrategy.INDEPENDENT, null));
        cases.put("tessera " + ranks + " ranks pencil, aggregated", () -> tessera("pencil", WriteStrategy.AGGREGATED, null));
        cases.put("tessera 1 rank (Hdf5Writer)", this::serial);
        cases.put("tessera " + ranks + " ranks chunked 64^3 deflate 1",
                () -> tessera("slab", WriteStrategy.AUTO, Hdf5Layout.chunked(64, 64, 64).deflate(1)));
        cases.put("jHDF 0.13 (serial, whole array)", this::jhdf);
        cases.put("libhdf5 1.10 via h5py (serial)", this::h5py);
        if (!only.isEmpty()) { // dd stays: every ratio is against it
            List<String> words = List.of(only.split(","));
            cases.keySet().removeIf(k -> !k.startsWith("dd") && words.stream().noneMatch(k::contains));
        }
        cases.remove("dd bs=8M (raw sequential)");
        Map<String, List<Pair>> samples = new LinkedHashMap<>();
        if (n > 128) { // compile the Java paths first (writes and reads), so no timed case pays for the JIT
            Hdf5Bandwidth small = new Hdf5Bandwidth(dir, 128, ranks);
            for (int i = 0; i < 2; i++) {
                small.tessera("slab", WriteStrategy.INDEPENDENT, null);
                small.tessera("slab", WriteStrategy.AGGREGATED, null);
                small.tessera("pencil", WriteStrategy.INDEPENDENT, null);
                small.tessera("pencil", WriteStrategy.AGGREGATED, null);
                small.tessera("slab", WriteStrategy.AUTO, Hdf5Layout.chunked(32, 32, 32).deflate(1));
                small.serial();
                small.jhdf();
            }
        }
        System.out.printf(Locale.ROOT, "# %d^3 doubles = %.1f MiB, %d smp ranks, dir %s, %d repeats; CPU: %s%n",
                n, bytes / 1048576.0, ranks, dir, repeat, cpuModel());
        System.out.println("# every case runs right after a dd write+read of the same size (its reference);"
                + " x dd = dd time / case time, median over the repeats");
        for (int r = 0; r < repeat; r++) {
            for (var c : cases.entrySet()) {
                Sample ref;
                Sample refDirect;
                Sample s;
                try {
                    ref = dd("");
                    refDirect = dd("direct");
                    s = c.getValue().run();
                } catch (Exception | OutOfMemoryError e) {
                    System.out.println("# " + c.getKey() + ": " + e);
                    continue;
                }
                samples.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(new Pair(ref, refDirect, s));
                System.out.printf(Locale.ROOT, "#  run %d %-40s write %7.3f s (cpu %5.2f; dd %6.3f s cpu %5.2f; direct %6.3f)"
                        + "  read %7.3f s (cpu %5.2f; dd %6.3f; direct %6.3f)%n", r + 1, c.getKey(), s.writeSeconds,
                        s.writeCpu, ref.writeSeconds, ref.writeCpu, refDirect.writeSeconds, s.readSeconds, s.readCpu,
                        ref.readSeconds, refDirect.readSeconds);
            }
        }
        System.out.println();
        System.out.println("| method | write MiB/s | x dd | x dd direct | write CPU s | read MiB/s | x dd | x dd direct"
                + " | read CPU s | dd write, read MiB/s | dd direct write, read MiB/s |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (var e : samples.entrySet()) {
            List<Pair> ps = e.getValue();
            Sample m = median(ps.stream().map(Pair::it).toList());
            Sample d = median(ps.stream().map(Pair::dd).toList());
            Sample dx = median(ps.stream().map(Pair::ddDirect).toList());
            double mib = bytes / 1048576.0;
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.2f | %.2f | %.2f | %.0f | %.2f | %.2f | %.2f | %.0f, %.0f | %.0f, %.0f |%n",
                    e.getKey(), mib / m.writeSeconds, med(ps.stream().mapToDouble(Pair::writeRatio).toArray()),
                    med(ps.stream().mapToDouble(Pair::directWriteRatio).toArray()), m.writeCpu,
                    mib / m.readSeconds, med(ps.stream().mapToDouble(Pair::readRatio).toArray()),
                    med(ps.stream().mapToDouble(Pair::directReadRatio).toArray()), m.readCpu,
                    mib / d.writeSeconds, mib / d.readSeconds, mib / dx.writeSeconds, mib / dx.readSeconds);
        }
    }

    interface Case {
        Sample run() throws Exception;
    }

    private static Sample median(List<Sample> s) {
        return new Sample(med(s.stream().mapToDouble(Sample::writeSeconds).toArray()),
                med(s.stream().mapToDouble(Sample::writeCpu).toArray()),
                med(s.stream().mapToDouble(Sample::readSeconds).toArray()),
                med(s.stream().mapToDouble(Sample::readCpu).toArray()));
    }

    private static double med(double[] v) {
        java.util.Arrays.sort(v);
        return v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    // ---- helpers ----

    private static double cpuSeconds() {
        return ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }

    private static String cpuModel() {
        return dev.tessera.bench.osu.CpuName.describe() + ", " + Runtime.getRuntime().availableProcessors() + " cpus";
    }

    /** Runs a command; returns {wall seconds, user+sys CPU seconds} from bash's time -p. */
    private static double[] timed(String command) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", "TIMEFORMAT='%R %U %S'; { time ( " + command + " 2>/dev/null ) ; } 2>&1")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(command + " failed: " + out);
        }
        String[] lines = out.split("\n");
        String[] t = lines[lines.length - 1].strip().split("\\s+");
        return new double[] {Double.parseDouble(t[0]), Double.parseDouble(t[1]) + Double.parseDouble(t[2])};
    }

    /** Drops {@code file}'s pages from the page cache so that the next read comes from the device. */
    private static void evict(Path file) throws Exception {
        timed("dd if=/dev/null of='" + file + "' oflag=nocache conv=notrunc,fdatasync count=0 status=none");
    }

    private static void settleQuietly() {
        try {
            settle();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void fsync(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    private double value(long z, long y, long x) {
        return Math.sin(z * 0.01 + y * 0.003) * x + y;
    }

    /**
     * {offset, count} of rank r: slabs split z (one run of n^3/p elements per rank), pencils
     * split x (n^2 runs of n/p elements per rank: 2 KiB at 512^3 on 2 ranks).
     */
    private long[][] block(String shape, int r, int p) {
        int d = shape.equals("slab") ? 0 : 2;
        long[] offset = new long[3];
        long[] count = {n, n, n};
        offset[d] = (long) n * r / p;
        count[d] = (long) n * (r + 1) / p - offset[d];
        return new long[][] {offset, count};
    }

    private double[] fill(long[] offset, long[] count) {
        double[] a = new double[Math.toIntExact(count[0] * count[1] * count[2])];
        int i = 0;
        for (long z = 0; z < count[0]; z++) {
            for (long y = 0; y < count[1]; y++) {
                for (long x = 0; x < count[2]; x++) {
                    a[i++] = value(offset[0] + z, offset[1] + y, offset[2] + x);
                }
            }
        }
        return a;
    }

    // ---- cases ----

    /** dd's write (with fdatasync) and read of {@code bytes}; {@code flag} "direct" adds oflag/iflag=direct. */
    private Sample dd(String flag) throws Exception {
        Path source = ddSource();
        Path f = dir.resolve("dd.bin");
        String o = flag.isEmpty() ? "" : " oflag=" + flag;
        String i = flag.isEmpty() ? "" : " iflag=" + flag;
        settle();
        double[] w = timed("dd if='" + source + "' of='" + f + "' bs=8M conv=fdatasync" + o + " status=none");
        evict(f);
        settle();
        double[] r = timed("dd if='" + f + "' of=/dev/null bs=8M" + i + " status=none");
        Files.delete(f);
        return new Sample(w[0], w[1], r[0], r[1]);
    }

    private static final Path REPORTED = Path.of("/sys/module/page_reporting/parameters/reported_kib");

    /**
     * Puts the machine in the same state before every timed write, dd's and ours: other
     * dirty pages written back ({@code sync}), then, where the kernel reports free pages to
     * the hypervisor (virtio-balloon free page reporting: the VM hands freed memory back, and
     * the next write pays a host page fault per fresh page-cache page), until its count of
     * reported memory has stopped moving for 3 s (the kernel reports in batches about 2 s
     * after pages are freed; at most 20 s in all), so that every writer and reader starts
     * with the memory freed by the previous step already handed back.
     */
    public static void settle() throws Exception {
        timed("sync");
        if (!Files.isReadable(REPORTED)) {
            return;
        }
        String last = Files.readString(REPORTED).strip();
        long stableSince = System.nanoTime();
        long deadline = stableSince + 20_000_000_000L;
        while (System.nanoTime() < deadline && System.nanoTime() - stableSince < 3_000_000_000L) {
            Thread.sleep(100);
            String now = Files.readString(REPORTED).strip();
            if (!now.equals(last)) {
                last = now;
                stableSince = System.nanoTime();
            }
        }
    }

    /**
     * dd's input: {@code bytes} of non-zero data, kept in the page cache. (Zeros from
     * /dev/zero are not a fair reference: a virtual disk may detect and elide zero writes.)
     */
    private Path ddSource() throws Exception {
        Path source = dir.resolve("dd-source.bin");
        if (!Files.exists(source) || Files.size(source) != bytes) {
            try (FileChannel ch = FileChannel.open(source, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(8 << 20);
                java.util.Random random = new java.util.Random(42);
                for (long at = 0; at < bytes; ) {
                    b.clear();
                    while (b.remaining() >= 8) {
                        b.putLong(random.nextLong());
                    }
                    b.flip().limit((int) Math.min(b.limit(), bytes - at));
                    at += ch.write(b, at);
                }
            }
        }
        timed("cat '" + source + "' > /dev/null"); // in the page cache, as the arrays are in memory
        return source;
    }

    private Sample tessera(String shape, WriteStrategy strategy, Hdf5Layout layout) throws Exception {
        Path f = dir.resolve("tessera.h5");
        double[] w = new double[2];
        var options = ParallelHdf5File.WriteOptions.defaults().withStrategy(strategy);
        SmpJob.run(ranks, new String[0], JOB, s -> {
            long[][] b = block(shape, s.rank(), s.size());
            double[] data = fill(b[0], b[1]);
            if (s.rank() == 0) {
                System.gc(); // the previous case's garbage is not this case's cost
                settleQuietly();
            }
            s.world().barrier();
            long t0 = System.nanoTime();
            double c0 = cpuSeconds();
            try (ParallelHdf5File file = ParallelHdf5File.create(s.world(), f, options)) {
                file.createDataset("/phi", Hdf5Type.DOUBLE, new long[] {n, n, n},
                        layout == null ? Hdf5Layout.contiguous() : layout).write(b[0], b[1], data);
                file.force();
            }
            s.world().barrier();
            if (s.rank() == 0) {
                w[0] = (System.nanoTime() - t0) / 1e9;
                w[1] = cpuSeconds() - c0;
            }
        });
        fsync(f); // the metadata written at close
        evict(f);
        double[] r = new double[2];
        boolean[] ok = {true};
        SmpJob.run(ranks, new String[0], JOB, s -> {
            long[][] b = block(shape, s.rank(), s.size());
            if (s.rank() == 0) {
                System.gc();
                settleQuietly();
            }
            s.world().barrier();
            long t0 = System.nanoTime();
            double c0 = cpuSeconds();
            // the collective read: AUTO reads pencils two-phase (aggregators read direct and scatter)
            double[] got = (double[]) DistributedDataset.readAll(s.world(), f, "/phi", b[0], b[1]);
            s.world().barrier();
            if (s.rank() == 0) {
                r[0] = (System.nanoTime() - t0) / 1e9;
                r[1] = cpuSeconds() - c0;
            }
            long last = b[1][0] * b[1][1] * b[1][2] - 1;
            if (got[(int) last] != value(b[0][0] + b[1][0] - 1, b[0][1] + b[1][1] - 1, b[0][2] + b[1][2] - 1)) {
                ok[0] = false;
            }
        });
        Files.delete(f);
        if (!ok[0]) {
            throw new IllegalStateException("read back a wrong value");
        }
        return new Sample(w[0], w[1], r[0], r[1]);
    }

    private Sample serial() throws Exception {
        Path f = dir.resolve("serial.h5");
        double[] data = fill(new long[3], new long[] {n, n, n});
        System.gc();
        settle();
        long t0 = System.nanoTime();
        double c0 = cpuSeconds();
        try (Hdf5Writer w = Hdf5Writer.create(f)) {
            w.root().writeDataset("phi", new long[] {n, n, n}, data);
        }
        fsync(f);
        double ws = (System.nanoTime() - t0) / 1e9;
        double wc = cpuSeconds() - c0;
        data = null;
        evict(f);
        System.gc();
        settle();
        t0 = System.nanoTime();
        c0 = cpuSeconds();
        try (Hdf5Reader r = Hdf5Reader.open(f)) {
            data = (double[]) r.read("/phi");
        }
        double rs = (System.nanoTime() - t0) / 1e9;
        double rc = cpuSeconds() - c0;
        Files.delete(f);
        return new Sample(ws, wc, rs, rc);
    }

    private Sample jhdf() throws Exception {
        Path f = dir.resolve("jhdf.h5");
        double[][][] data = new double[n][n][n];
        for (int z = 0; z < n; z++) {
            for (int y = 0; y < n; y++) {
                for (int x = 0; x < n; x++) {
                    data[z][y][x] = value(z, y, x);
                }
            }
        }
        System.gc();
        settle();
        long t0 = System.nanoTime();
        double c0 = cpuSeconds();
        try (WritableHdfFile w = HdfFile.write(f)) {
            w.putDataset("phi", data);
        }
        fsync(f);
        double ws = (System.nanoTime() - t0) / 1e9;
        double wc = cpuSeconds() - c0;
        data = null;
        evict(f);
        System.gc();
        settle();
        t0 = System.nanoTime();
        c0 = cpuSeconds();
        try (HdfFile h = new HdfFile(f)) {
            data = (double[][][]) ((Dataset) h.getByPath("/phi")).getData();
        }
        double rs = (System.nanoTime() - t0) / 1e9;
        double rc = cpuSeconds() - c0;
        Files.delete(f);
        return new Sample(ws, wc, rs, rc);
    }

    private Sample h5py() throws Exception {
        Path f = dir.resolve("h5py.h5");
        String script = String.join("\n",
                "import h5py, numpy as np, os, time, resource, sys",
                "n = " + n,
                "y, x = np.arange(n)[:, None], np.arange(n)[None, :]",
                "a = np.empty((n, n, n))",
                "for z in range(n): a[z] = np.sin(z * 0.01 + y * 0.003) * x + y",
                "def cpu():",
                "    u = resource.getrusage(resource.RUSAGE_SELF); return u.ru_utime + u.ru_stime",
                "def settle():  # as Hdf5Bandwidth.settle: sync, then until free page reporting is still for 3 s",
                "    os.sync(); p = '" + REPORTED + "'",
                "    if not os.access(p, os.R_OK): return",
                "    last, since, end = open(p).read(), time.time(), time.time() + 20",
                "    while time.time() < end and time.time() - since < 3:",
                "        time.sleep(0.1); now = open(p).read()",
                "        if now != last: last, since = now, time.time()",
                "settle()",
                "t, c = time.time(), cpu()",
                "with h5py.File('" + f + "', 'w') as f: f.create_dataset('phi', data=a)",
                "fd = os.open('" + f + "', os.O_RDONLY); os.fsync(fd)",
                "ws, wc = time.time() - t, cpu() - c",
                "os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd); del a",
                "settle()",
                "t, c = time.time(), cpu()",
                "with h5py.File('" + f + "', 'r') as f: b = f['phi'][...]",
                "print(ws, wc, time.time() - t, cpu() - c)");
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("h5py: " + out);
        }
        Files.deleteIfExists(f);
        String[] lines = out.split("\n");
        String[] t = lines[lines.length - 1].split("\\s+");
        return new Sample(Double.parseDouble(t[0]), Double.parseDouble(t[1]), Double.parseDouble(t[2]),
                Double.parseDouble(t[3]));
    }
}
