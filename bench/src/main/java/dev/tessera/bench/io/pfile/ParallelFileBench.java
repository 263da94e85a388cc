package dev.tessera.bench.io.pfile;

import dev.tessera.comm.Datatype;
import dev.tessera.io.pfile.OpenMode;
import dev.tessera.io.pfile.ParallelFile;
import dev.tessera.io.pfile.Subarray;
import dev.tessera.launch.SmpJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Write and read bandwidth of a distributed 3-d double array through {@link ParallelFile}
 * ({@code writeAll}/{@code readAll}, two-phase) next to {@code dd}'s raw sequential
 * bandwidth to the same directory, in the same run, alternating, reporting medians.
 *
 * <p>Writes are timed to durable data: {@code dd conv=fdatasync} and writeAll + sync (fsync);
 * dd copies random bytes from /dev/shm, not zeros (see {@link #ddSource}).
 * Before every read the file's pages are dropped from the page cache
 * ({@code dd iflag=nocache count=0}, posix_fadvise DONTNEED), so both reads come from the
 * device. Before every timed write and read (dd's, Java's and ParallelFile's) the machine
 * is brought to the same memory state ({@link dev.tessera.bench.io.Hdf5Bandwidth#settle}).
 * The array is decomposed in pencils (a 2-d process grid over the first two
 * dimensions), so each rank's block is many short runs in the file: the case two-phase I/O
 * exists for.
 *
 * <pre>
 *   java -cp bench.jar:lib/* dev.tessera.bench.io.pfile.ParallelFileBench [--quick] [--ranks 4]
 *        [--dir /tmp] [--mib 1024] [--repeat 3] [--aggregators 0] [--buffer-mib 16]
 * </pre>
 */
public final class ParallelFileBench {

    public static void main(String[] args) throws Exception {
        boolean quick = has(args, "--quick");
        int ranks = Integer.parseInt(value(args, "--ranks", Integer.toString(Runtime.getRuntime().availableProcessors())));
        boolean slabs = value(args, "--layout", "pencils").equals("slabs");
        Path dir = Path.of(value(args, "--dir", System.getProperty("java.io.tmpdir")));
        long mib = Long.parseLong(value(args, "--mib", quick ? "128" : "1024"));
        int repeat = Integer.parseInt(value(args, "--repeat", quick ? "2" : "3"));
        int aggregators = Integer.parseInt(value(args, "--aggregators", "0"));
        long bufferMib = Long.parseLong(value(args, "--buffer-mib", "16"));

        int n = (int) Math.round(Math.cbrt(mib * (1L << 20) / 8.0));
        int[] sizes = {n, n, n};
        long bytes = 8L * n * n * n;
        Path file = dir.resolve("tessera-pfile-bench-" + ProcessHandle.current().pid() + ".raw");
        Path ddFile = dir.resolve("tessera-dd-bench-" + ProcessHandle.current().pid() + ".raw");
        ParallelFile.Hints hints = new ParallelFile.Hints(aggregators, bufferMib << 20);
        System.out.printf("parallel file: %d^3 doubles = %.0f MiB, %d ranks (in-JVM smp), %s %s, dir %s, %s%n",
                n, bytes / 1048576.0, ranks, slabs ? "slabs" : "pencils", Arrays.toString(grid(ranks, slabs)), dir, hints);
        System.out.println("CPU: " + cpu());

        List<Double> ddWrite = new ArrayList<>();
        List<Double> ddRead = new ArrayList<>();
        List<Double> ddDirectWrite = new ArrayList<>();
        List<Double> ddDirectRead = new ArrayList<>();
        List<Double> javaWrite = new ArrayList<>();
        List<Double> javaRead = new ArrayList<>();
        List<Double> pfWrite = new ArrayList<>();
        List<Double> pfRead = new ArrayList<>();
        try {
            // One untimed round first, so the timed ones run compiled code (the JIT needs a few rounds of two-phase I/O).
            parallelFile(file, ranks, sizes, hints, slabs);
            Files.deleteIfExists(file);
            for (int r = 0; r < repeat; r++) {
                settle();
                ddWrite.add(dd(ddFile, bytes, true));
                dropCache(ddFile);
                settle();
                ddRead.add(dd(ddFile, bytes, false));
                Files.deleteIfExists(ddFile);
                settle();
                ddDirectWrite.add(dd(ddFile, bytes, true, true));
                settle();
                ddDirectRead.add(dd(ddFile, bytes, false, true));
                double[] jr = javaSequential(ddFile, bytes);
                javaWrite.add(jr[0]);
                javaRead.add(jr[1]);
                Files.deleteIfExists(ddFile);
                double[] wr = parallelFile(file, ranks, sizes, hints, slabs);
                pfWrite.add(wr[0]);
                pfRead.add(wr[1]);
                System.out.printf("  round %d: dd write %.0f MB/s, read %.0f MB/s; dd O_DIRECT write %.0f, read %.0f;"
                                + " Java sequential write %.0f, read %.0f; writeAll %.0f MB/s, readAll %.0f MB/s%n", r + 1,
                        ddWrite.getLast(), ddRead.getLast(), ddDirectWrite.getLast(), ddDirectRead.getLast(),
                        javaWrite.getLast(), javaRead.getLast(), pfWrite.getLast(), pfRead.getLast());
                Files.deleteIfExists(ddFile);
                Files.deleteIfExists(file);
            }
        } finally {
            Files.deleteIfExists(ddFile);
            Files.deleteIfExists(file);
            if (ddSource != null) {
                Files.deleteIfExists(ddSource);
            }
        }
        System.out.println();
        System.out.println("| median of " + repeat + " | dd MB/s | dd O_DIRECT MB/s | Java sequential MB/s | ParallelFile MB/s"
                + " | ParallelFile / dd | ParallelFile / dd O_DIRECT |");
        System.out.println("|---|---|---|---|---|---|---|");
        System.out.printf("| write (to disk, fsync) | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f |%n", median(ddWrite),
                median(ddDirectWrite), median(javaWrite), median(pfWrite), median(pfWrite) / median(ddWrite),
                median(pfWrite) / median(ddDirectWrite));
        System.out.printf("| read (page cache dropped) | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f |%n", median(ddRead),
                median(ddDirectRead), median(javaRead), median(pfRead), median(pfRead) / median(ddRead),
                median(pfRead) / median(ddDirectRead));
    }

    /**
     * The same bytes through one FileChannel from one thread, sequentially, 16 MiB at a time
     * from native memory: what Java itself gets from this disk, to tell the JVM's share of a
     * gap to dd from ParallelFile's.
     */
    private static double[] javaSequential(Path file, long bytes) throws IOException {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment block = arena.allocate(16 << 20, 4096);
            for (long i = 0; i < block.byteSize(); i += 8) {
                block.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, i, i * 0.5 + 1);
            }
            settle();
            long t0 = System.nanoTime();
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE,
                    java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
                for (long at = 0; at < bytes; at += block.byteSize()) {
                    java.nio.ByteBuffer bb = block.asSlice(0, Math.min(block.byteSize(), bytes - at)).asByteBuffer();
                    while (bb.hasRemaining()) {
                        ch.write(bb);
                    }
                }
                ch.force(true);
            }
            double write = bytes / ((System.nanoTime() - t0) / 1e3);
            dropCache(file);
            settle();
            t0 = System.nanoTime();
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                    java.nio.file.StandardOpenOption.READ)) {
                java.nio.ByteBuffer bb = block.asByteBuffer();
                while (ch.read(bb.clear()) > 0) {
                    // read through
                }
            }
            return new double[] {write, bytes / ((System.nanoTime() - t0) / 1e3)};
        }
    }

    /** One write (timed to durable) and one read (cache dropped) of the array; MB/s of each. */
    private static double[] parallelFile(Path file, int ranks, int[] sizes, ParallelFile.Hints hints, boolean slabs)
            throws IOException {
        AtomicLong writeNanos = new AtomicLong();
        AtomicLong readNanos = new AtomicLong();
        AtomicLong beforeSync = new AtomicLong();
        long bytes = 8L * sizes[0] * sizes[1] * sizes[2];
        SmpJob.run(ranks, new String[0], Duration.ofMinutes(10), s -> {
            Subarray b = block(s.rank(), s.size(), sizes, slabs);
            double[] data = new double[Math.toIntExact(b.elementCount())];
            Arrays.fill(data, s.rank() + 0.5);
            if (s.rank() == 0) {
                settle();
            }
            s.world().barrier();
            long t0 = System.nanoTime();
            try (ParallelFile f = ParallelFile.open(s.world(), file, hints, OpenMode.CREATE, OpenMode.WRITE)) {
                f.setView(0, b);
                f.writeAll(data);
                if (s.rank() == 0) {
                    beforeSync.set(System.nanoTime() - t0);
                }
                f.sync();
            }
            s.world().barrier();
            if (s.rank() == 0) {
                writeNanos.set(System.nanoTime() - t0);
                dropCache(file);
                settle();
            }
            Arrays.fill(data, 0);
            s.world().barrier();
            t0 = System.nanoTime();
            try (ParallelFile f = ParallelFile.open(s.world(), file, hints, OpenMode.READ)) {
                f.setView(0, b);
                f.readAll(data);
            }
            s.world().barrier();
            if (s.rank() == 0) {
                readNanos.set(System.nanoTime() - t0);
            }
            if (data[0] != s.rank() + 0.5 || data[data.length - 1] != s.rank() + 0.5) {
                throw new IllegalStateException("rank " + s.rank() + " read back other values");
            }
        });
        System.out.printf("    writeAll %.2f s (of which sync %.2f s), readAll %.2f s%n", writeNanos.get() / 1e9,
                (writeNanos.get() - beforeSync.get()) / 1e9, readNanos.get() / 1e9);
        return new double[] {bytes / (writeNanos.get() / 1e3), bytes / (readNanos.get() / 1e3)};
    }

    /**
     * Process grid: slabs split the first dimension only (each rank's block is one range of
     * the file); pencils split the first two, the second at least in two, so blocks interleave
     * row by row in the file (the case collective buffering is for).
     */
    static int[] grid(int ranks, boolean slabs) {
        if (slabs) {
            return new int[] {ranks, 1, 1};
        }
        int a = (int) Math.floor(Math.sqrt(ranks));
        while (ranks % a != 0) {
            a--;
        }
        return new int[] {a, ranks / a, 1};
    }

    static Subarray block(int rank, int ranks, int[] sizes, boolean slabs) {
        int[] g = grid(ranks, slabs);
        int[] c = {rank / g[1], rank % g[1], 0};
        int[] sub = new int[3];
        int[] start = new int[3];
        for (int d = 0; d < 3; d++) {
            int base = sizes[d] / g[d];
            int rem = sizes[d] % g[d];
            sub[d] = base + (c[d] < rem ? 1 : 0);
            start[d] = c[d] * base + Math.min(c[d], rem);
        }
        return Subarray.of(Datatype.DOUBLE, sizes, sub, start);
    }

    /**
     * Where dd's data come from: a file of random bytes in /dev/shm (made once), not
     * /dev/zero, because a virtual disk may turn all-zero writes into cheap zero-fill
     * operations (QEMU detect-zeroes) and so report a bandwidth no real data gets.
     */
    private static Path ddSource;

    static synchronized Path ddSource(long bytes) throws IOException {
        if (ddSource == null) {
            Path shm = Path.of("/dev/shm");
            if (!Files.isDirectory(shm)) {
                return Path.of("/dev/zero");
            }
            ddSource = shm.resolve("tessera-dd-source-" + ProcessHandle.current().pid());
            byte[] block = new byte[16 << 20];
            new java.util.Random(7).nextBytes(block);
            try (var out = Files.newOutputStream(ddSource)) {
                for (long at = 0; at < Math.max(1, bytes >> 24); at++) {
                    out.write(block);
                }
            }
            ddSource.toFile().deleteOnExit();
        }
        return ddSource;
    }

    /** MB/s of dd writing (conv=fdatasync) or reading {@code bytes} in 16 MiB blocks, through the page cache. */
    static double dd(Path file, long bytes, boolean write) throws IOException, InterruptedException {
        return dd(file, bytes, write, false);
    }

    /** As {@link #dd(Path, long, boolean)}; {@code direct}: with oflag=direct / iflag=direct (past the page cache). */
    static double dd(Path file, long bytes, boolean write, boolean direct) throws IOException, InterruptedException {
        long blocks = Math.max(1, bytes >> 24);
        List<String> cmd = new ArrayList<>(write
                ? List.of("dd", "if=" + ddSource(bytes), "of=" + file, "bs=16M", "count=" + blocks, "conv=fdatasync")
                : List.of("dd", "if=" + file, "of=/dev/null", "bs=16M"));
        if (direct) {
            cmd.add(write ? "oflag=direct" : "iflag=direct");
        }
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException("dd failed: " + out);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return (blocks << 24) / seconds / 1e6;
    }

    /**
     * The same memory state before every timed write and read, dd's, Java's and ours:
     * {@link dev.tessera.bench.io.Hdf5Bandwidth#settle} (sync, then the free memory handed
     * back to the host where the VM reports free pages).
     */
    private static void settle() {
        try {
            dev.tessera.bench.io.Hdf5Bandwidth.settle();
        } catch (Exception e) {
            throw new IllegalStateException("cannot settle the machine's memory state: " + e, e);
        }
    }

    /** Drops the file's pages from the page cache (GNU dd: posix_fadvise POSIX_FADV_DONTNEED on the whole file). */
    static void dropCache(Path file) {
        try {
            new ProcessBuilder("dd", "if=" + file, "iflag=nocache", "count=0").redirectErrorStream(true).start()
                    .waitFor();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot drop the page cache of " + file + ": " + e);
        }
    }

    static String cpu() {
        return dev.tessera.bench.osu.CpuName.describe() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs";
    }

    static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int m = s.size() / 2;
        return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
    }

    static boolean has(String[] args, String flag) {
        return Arrays.asList(args).contains(flag);
    }

    static String value(String[] args, String flag, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(flag)) {
                return args[i + 1];
            }
        }
        return fallback;
    }
}
