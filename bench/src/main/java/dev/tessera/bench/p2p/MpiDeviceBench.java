package dev.tessera.bench.p2p;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.Op;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Tessera's side of bench/mpi-device-vs-openmpi.sh, measured exactly as
 * bench/native/mpi_device_bench.c measures plain C: ping-pong between ranks 0 and 1
 * (1 B .. 16 MiB) and allreduce of doubles (8 B .. 16 MiB), median of 5 repeats after a
 * warm-up. Buffers are native memory segments (what a large-message code on the mpi
 * device should use; heap arrays are staged). Runs on any device.
 * Usage: {@code MpiDeviceBench [all|pingpong|allreduce] [MAX_BYTES]}.
 */
public final class MpiDeviceBench {

    private MpiDeviceBench() {
    }

    static int itersFor(long n) {
        return n >= (1 << 22) ? 40 : n >= (1 << 20) ? 100 : n >= (1 << 16) ? 1000 : 20000;
    }

    public static void main(String[] args) {
        String what = args.length > 0 ? args[0] : "all";
        long max = args.length > 1 ? Long.parseLong(args[1]) : 16L << 20;
        try (Session rt = Tessera.init(args); Arena arena = Arena.ofShared()) {
            Comm world = rt.world();
            long room = Math.max(max, 64);
            MemorySegment buf = arena.allocate(room, 64).fill((byte) 1);
            MemorySegment in = arena.allocate(room, 64);
            MemorySegment out = arena.allocate(room, 64);
            for (long i = 0; i < room / 8; i++) {
                in.setAtIndex(ValueLayout.JAVA_DOUBLE, i, 1.0);
            }
            warmUp(world, buf, in, out, what);
            if (!what.equals("allreduce")) {
                for (long n = 1; n <= max; n *= 4) {
                    Buffer b = Buffer.of(buf.asSlice(0, n), Datatype.BYTE);
                    Runnable pingPong = () -> {
                        if (world.rank() == 0) {
                            world.send(b, 1, 0);
                            world.recv(b, 1, 0);
                        } else if (world.rank() == 1) {
                            world.recv(b, 0, 0);
                            world.send(b, 0, 0);
                        }
                    };
                    if (n == 1) {
                        median(world, itersFor(n), pingPong); // the timing loop itself compiled before the first size
                    }
                    double t = median(world, itersFor(n), pingPong) / 2;
                    if (world.rank() == 0) {
                        System.out.printf("pingpong %d %.3f %.1f%n", n, t * 1e6, n / t / 1e6);
                    }
                }
            }
            if (!what.equals("pingpong")) {
                for (long n = 8; n <= max; n *= 4) {
                    Buffer s = Buffer.of(in.asSlice(0, n), Datatype.DOUBLE);
                    Buffer r = Buffer.of(out.asSlice(0, n), Datatype.DOUBLE);
                    double t = median(world, itersFor(n), () -> world.allreduce(s, r, Op.SUM));
                    if (world.rank() == 0) {
                        System.out.printf("allreduce %d %.3f%n", n, t * 1e6);
                    }
                }
            }
        }
    }

    /**
     * Two seconds of small operations first, so that the timed part runs compiled code (the C
     * side needs none). The ping-pong cycles through 1 B, 64 B, 4 KiB and 64 KiB: warmed with
     * one size only, the first timed sizes (1 B, 4 B) ran 30-60 % slower than the same sizes
     * measured again later in the run, and without a size above the devices' 16 KiB eager
     * limit the first large size (64 KiB) ran on code still being compiled (1.9 x C where
     * 16 KiB and 256 KiB were 1.4 x and 1.07 x).
     */
    private static void warmUp(Comm world, MemorySegment buf, MemorySegment in, MemorySegment out, String what) {
        Buffer[] sizes = {Buffer.of(buf.asSlice(0, 1), Datatype.BYTE), Buffer.of(buf.asSlice(0, 64), Datatype.BYTE),
                Buffer.of(buf.asSlice(0, Math.min(4096, buf.byteSize())), Datatype.BYTE),
                Buffer.of(buf.asSlice(0, Math.min(65536, buf.byteSize())), Datatype.BYTE)};
        Buffer s = Buffer.of(in.asSlice(0, 64), Datatype.DOUBLE);
        Buffer r = Buffer.of(out.asSlice(0, 64), Datatype.DOUBLE);
        long end = System.nanoTime() + 2_000_000_000L;
        int[] go = {1};
        while (go[0] != 0) {
            for (int i = 0; i < 1000; i++) {
                Buffer b = sizes[i % sizes.length];
                if (!what.equals("allreduce")) {
                    if (world.rank() == 0) {
                        world.send(b, 1, 0);
                        world.recv(b, 1, 0);
                    } else if (world.rank() == 1) {
                        world.recv(b, 0, 0);
                        world.send(b, 0, 0);
                    }
                } else {
                    world.allreduce(s, r, Op.SUM);
                }
            }
            go[0] = world.rank() == 0 && System.nanoTime() < end ? 1 : 0;
            world.bcast(Buffer.of(go), 0);
        }
    }

    /** Seconds per operation: median of 5 timed repeats of {@code iters} operations, after one warm-up repeat. */
    private static double median(Comm world, int iters, Runnable op) {
        double[] t = new double[5];
        for (int rep = -1; rep < 5; rep++) {
            world.barrier();
            long start = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                op.run();
            }
            if (rep >= 0) {
                t[rep] = (System.nanoTime() - start) / 1e9 / iters;
            }
        }
        Arrays.sort(t);
        return t[2];
    }
}
