package dev.tessera.bench.gpu;

import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.examples.Heat3DGpu;
import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.AcceleratorSpec;
import dev.tessera.gpu.Accelerators;
import dev.tessera.gpu.Backend;
import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.ElementType;
import dev.tessera.gpu.GridKernels;
import dev.tessera.gpu.HostBuffer;
import dev.tessera.gpu.IndexBox;
import dev.tessera.gpu.Queue;
import dev.tessera.gpu.comm.DeviceHaloExchange;
import dev.tessera.grid.HaloExchange;
import dev.tessera.launch.SmpJob;
import dev.tessera.runtime.Session;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * The GPU benchmarks of issue #24, one table each, for every available backend (CUDA where
 * there is a GPU, OpenCL, and the CPU backend as the reference):
 * <ol>
 *   <li>host-device bandwidth, pageable (a Java array; a plain native segment) and pinned
 *       ({@link HostBuffer}), both directions, and the device's own copy bandwidth;</li>
 *   <li>stencil throughput (7-point heat step, cell updates per second) with the ratio to
 *       the CPU backend and the fraction of the memory-bandwidth bound (16 bytes moved per
 *       update over the measured device copy bandwidth);</li>
 *   <li>Heat3DGpu's time per step on 1 and 2 ranks;</li>
 *   <li>the halo exchange of device buffers (DeviceHaloExchange) against host arrays
 *       (the framework's HaloExchange), 2 ranks.</li>
 * </ol>
 * Each figure is the median of alternating repetitions (the machines this runs on are
 * noisy). Usage: {@code java -cp ... dev.tessera.bench.gpu.GpuBench [--quick] [--stencil-n N]}.
 */
public final class GpuBench {

    private GpuBench() {
    }

    private static int reps;
    private static boolean quick;

    public static void main(String[] args) {
        quick = Arrays.asList(args).contains("--quick");
        int[] stencilSizes = {64, 128};
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("--stencil-n")) {
                stencilSizes = new int[] {Integer.parseInt(args[i + 1])};
            }
        }
        reps = quick ? 3 : 7;
        List<Backend> backends = new ArrayList<>();
        for (Backend b : Backend.values()) {
            if (Accelerators.probe(b).isAvailable()) {
                backends.add(b);
            } else {
                System.out.println("(" + b.id() + " skipped: " + Accelerators.probe(b).unavailableReason() + ")");
            }
        }
        Map<Backend, Double> copyBandwidth = new ConcurrentHashMap<>();
        bandwidth(backends, copyBandwidth);
        for (int n : stencilSizes) {
            stencil(backends, copyBandwidth, n);
        }
        example(backends);
        halo(backends);
    }

    // ------------------------------------------------------------------ timing

    /** Median over {@link #reps} of {@code run} (each returns seconds). */
    private static double median(DoubleSupplier run) {
        double[] t = new double[reps];
        for (int i = 0; i < reps; i++) {
            t[i] = run.getAsDouble();
        }
        Arrays.sort(t);
        return t[reps / 2];
    }

    private static double seconds(Runnable r) {
        long t0 = System.nanoTime();
        r.run();
        return (System.nanoTime() - t0) * 1e-9;
    }

    private static Accelerator open(Backend b) {
        return Accelerators.open(Accelerators.choose(new AcceleratorSpec(b, 0), 0, 1), null);
    }

    // ------------------------------------------------------------------ 1. bandwidth

    private static void bandwidth(List<Backend> backends, Map<Backend, Double> copyBandwidth) {
        long[] sizes = quick ? new long[] {1 << 20, 16 << 20} : new long[] {1 << 20, 16 << 20, 64 << 20};
        System.out.println();
        System.out.println("## Host-device bandwidth (GB/s, median of " + reps + ")");
        System.out.println();
        System.out.println("| backend | size | H2D heap array | H2D pageable native | H2D pinned | D2H heap array "
                + "| D2H pageable native | D2H pinned | D2D copy (read+write) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (Backend b : backends) {
            try (Accelerator acc = open(b); Arena arena = Arena.ofShared()) {
                Queue q = acc.defaultQueue();
                for (long bytes : sizes) {
                    int n = (int) (bytes / 8);
                    double[] heap = new double[n];
                    MemorySegment pageable = arena.allocate(bytes, 64);
                    try (HostBuffer pinned = acc.allocateHost(bytes);
                         DeviceBuffer d = acc.allocate(ElementType.DOUBLE, n);
                         DeviceBuffer d2 = acc.allocate(ElementType.DOUBLE, n)) {
                        q.write(heap, d); // warm-up: first touch of every page
                        q.writeAsync(pageable, d, 0).await();
                        q.writeAsync(pinned.segment(), d, 0).await();
                        q.readAsync(d, 0, pinned.segment()).await();
                        q.readAsync(d, 0, pageable).await();
                        double[] r = new double[7];
                        double[][] samples = new double[7][reps];
                        for (int i = 0; i < reps; i++) {
                            samples[0][i] = seconds(() -> q.write(heap, d));
                            samples[1][i] = seconds(() -> q.writeAsync(pageable, d, 0).await());
                            samples[2][i] = seconds(() -> q.writeAsync(pinned.segment(), d, 0).await());
                            samples[3][i] = seconds(() -> q.read(d, heap));
                            samples[4][i] = seconds(() -> q.readAsync(d, 0, pageable).await());
                            samples[5][i] = seconds(() -> q.readAsync(d, 0, pinned.segment()).await());
                            samples[6][i] = seconds(() -> q.copy(d, 0, d2, 0, n).await());
                        }
                        for (int k = 0; k < 7; k++) {
                            Arrays.sort(samples[k]);
                            r[k] = (k == 6 ? 2.0 : 1.0) * bytes / samples[k][reps / 2] / 1e9;
                        }
                        copyBandwidth.put(b, r[6]); // the largest size: least cache-resident
                        System.out.printf(Locale.ROOT, "| %s | %d MiB | %.2f | %.2f | %.2f%s | %.2f | %.2f | %.2f | %.2f |%n",
                                b.id(), bytes >> 20, r[0], r[1], r[2], pinned.pinned() ? "" : " (not pinned)", r[3], r[4],
                                r[5], r[6]);
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ 2. stencil

    private static void stencil(List<Backend> backends, Map<Backend, Double> copyBandwidth, int n) {
        int[] padded = {n + 2, n + 2, n + 2};
        long cells = (long) n * n * n;
        int launches = quick ? 3 : 10;
        System.out.println();
        System.out.println("## Stencil: 7-point heat step on " + n + "^3 cells (" + launches + " launches per sample, "
                + "median of " + reps + ")");
        System.out.println();
        System.out.println("| backend | device | Mcell-updates/s (best) | vs cpu | bound (16 B/update at D2D bw) | of bound |");
        System.out.println("|---|---|---|---|---|---|");
        Double cpuRate = null;
        List<String[]> rows = new ArrayList<>();
        Map<Backend, Double> rates = new ConcurrentHashMap<>();
        Map<Backend, Double> bestRates = new ConcurrentHashMap<>();
        // Every backend's device open at once, and the repetitions alternate between them, so
        // load that comes and goes on a shared machine falls on all alike.
        List<Accelerator> accs = new ArrayList<>();
        List<Runnable> samples = new ArrayList<>();
        IndexBox box = IndexBox.of(1, n + 1, 1, n + 1, 1, n + 1);
        try {
            for (Backend b : backends) {
                Accelerator acc = open(b);
                accs.add(acc);
                Queue q = acc.defaultQueue();
                GridKernels k = acc.gridKernels();
                DeviceBuffer u = acc.allocate(ElementType.DOUBLE, (long) padded[0] * padded[1] * padded[2]);
                DeviceBuffer v = acc.allocate(ElementType.DOUBLE, u.count());
                k.fill(q, u, 1.0);
                k.fill(q, v, 0.0);
                for (int i = 0; i < 3; i++) {
                    k.laplaceStep(q, u, v, 0.1, padded, box);
                }
                q.finish();
                samples.add(() -> {
                    for (int i = 0; i < launches; i++) {
                        k.laplaceStep(q, (i & 1) == 0 ? u : v, (i & 1) == 0 ? v : u, 0.1, padded, box);
                    }
                    q.finish();
                });
                rows.add(new String[] {b.id(), acc.info().name()});
            }
            double[][] t = new double[backends.size()][reps];
            for (int r = 0; r < reps; r++) {
                for (int x = 0; x < backends.size(); x++) {
                    t[x][r] = seconds(samples.get(x));
                }
            }
            for (int x = 0; x < backends.size(); x++) {
                Arrays.sort(t[x]);
                rates.put(backends.get(x), cells * launches / t[x][reps / 2]);
                bestRates.put(backends.get(x), cells * launches / t[x][0]);
            }
        } finally {
            accs.forEach(Accelerator::close);
        }
        cpuRate = rates.get(Backend.CPU);
        for (String[] row : rows) {
            Backend b = Backend.fromId(row[0]);
            double rate = rates.get(b);
            double bound = copyBandwidth.getOrDefault(b, Double.NaN) * 1e9 / 16;
            System.out.printf(Locale.ROOT, "| %s | %s | %.1f (%.1f) | %s | %.1f | %.2f |%n", row[0], row[1], rate / 1e6,
                    bestRates.get(b) / 1e6,
                    cpuRate == null ? "-" : String.format(Locale.ROOT, "%.2f x", rate / cpuRate), bound / 1e6,
                    rate / bound);
        }
    }

    // ------------------------------------------------------------------ 3. the example

    private static void example(List<Backend> backends) {
        int n = quick ? 32 : 64;
        double tEnd = quick ? 0.002 : 0.004;
        System.out.println();
        System.out.println("## Heat3DGpu: time per step, " + n + "^3 cells, ranks as threads (smp), median of " + reps);
        System.out.println();
        System.out.println("| backend | ranks | steps | ms per step, overlapped (best) | Mcell-updates/s | ms per step, "
                + "exchange then update (best) |");
        System.out.println("|---|---|---|---|---|---|");
        for (Backend b : backends) {
            for (int ranks : new int[] {1, 2}) {
                double[][] perStep = new double[2][reps];
                int[] steps = new int[1];
                for (int i = 0; i < reps; i++) {
                    int rep = i;
                    for (int mode = 0; mode < 2; mode++) {
                        boolean overlap = mode == 0;
                        int m = mode;
                        SmpJob.run(ranks, new String[] {"--threads", String.valueOf(Math.max(1,
                                Runtime.getRuntime().availableProcessors() / ranks))}, Duration.ofMinutes(5), session -> {
                            try (Accelerator acc = Accelerators.forRank(session, new AcceleratorSpec(b, null))) {
                                Heat3DGpu.Result r = Heat3DGpu.solve(session.world(), acc, n, tEnd, false, overlap);
                                if (session.rank() == 0) {
                                    perStep[m][rep] = r.secondsPerStep();
                                    steps[0] = r.steps();
                                }
                            }
                        });
                    }
                }
                Arrays.sort(perStep[0]);
                Arrays.sort(perStep[1]);
                double s = perStep[0][reps / 2];
                System.out.printf(Locale.ROOT, "| %s | %d | %d | %.3f (%.3f) | %.1f | %.3f (%.3f) |%n", b.id(), ranks,
                        steps[0], s * 1e3, perStep[0][0] * 1e3, (double) n * n * n / s / 1e6, perStep[1][reps / 2] * 1e3,
                        perStep[1][0] * 1e3);
            }
        }
    }

    // ------------------------------------------------------------------ 4. halo exchange

    private static void halo(List<Backend> backends) {
        int n = quick ? 32 : 64;
        int exchanges = quick ? 5 : 20;
        System.out.println();
        System.out.println("## Halo exchange, 2 ranks (smp), " + n + "^3 cells per rank, faces, one ghost layer: "
                + "microseconds per exchange (median of " + reps + " x " + exchanges + ")");
        System.out.println();
        System.out.println("| field in | us per exchange |");
        System.out.println("|---|---|");
        double[] hostTime = new double[1];
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofMinutes(5), session -> {
            Comm world = session.world();
            CartComm grid = world.createCart(new int[] {2, 1, 1}, new boolean[3], false);
            int[] e = {n, n, n};
            HaloExchange h = HaloExchange.create(grid, e, 1, HaloExchange.Shape.FACES);
            double[] field = new double[h.length()];
            for (int i = 0; i < 3; i++) {
                h.exchange(field);
            }
            double t = median(() -> {
                world.barrier();
                return seconds(() -> {
                    for (int i = 0; i < exchanges; i++) {
                        h.exchange(field);
                    }
                }) / exchanges;
            });
            if (session.rank() == 0) {
                hostTime[0] = t;
            }
        });
        System.out.printf(Locale.ROOT, "| host double[] (HaloExchange) | %.1f |%n", hostTime[0] * 1e6);
        for (Backend b : backends) {
            double[] devTime = new double[1];
            SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofMinutes(5), session -> {
                Comm world = session.world();
                CartComm grid = world.createCart(new int[] {2, 1, 1}, new boolean[3], false);
                int[] e = {n, n, n};
                try (Accelerator acc = Accelerators.forRank(session, new AcceleratorSpec(b, null));
                     DeviceHaloExchange h = DeviceHaloExchange.create(grid, acc, e, 1, HaloExchange.Shape.FACES)) {
                    DeviceBuffer field = acc.allocate(ElementType.DOUBLE, h.length());
                    for (int i = 0; i < 3; i++) {
                        h.exchange(field);
                    }
                    double t = median(() -> {
                        world.barrier();
                        return seconds(() -> {
                            for (int i = 0; i < exchanges; i++) {
                                h.exchange(field);
                            }
                        }) / exchanges;
                    });
                    if (session.rank() == 0) {
                        devTime[0] = t;
                    }
                }
            });
            System.out.printf(Locale.ROOT, "| %s DeviceBuffer (DeviceHaloExchange) | %.1f |%n", b.id(), devTime[0] * 1e6);
        }
        System.out.println();
        System.out.println("(" + Session.class.getSimpleName() + " ranks are threads of this JVM; "
                + Runtime.getRuntime().availableProcessors() + " cores)");
    }
}
