package dev.tessera.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every built-in kernel computes what a plain Java loop written here computes, bit for bit
 * (contraction is off in the prelude, and these devices are IEEE 754).
 */
@Timeout(60)
class GridKernelsTest {

    private static final int[] PADDED = {7, 9, 11};
    private static final int CELLS = 7 * 9 * 11;

    private static double[] random(long seed, int n) {
        Random r = new Random(seed);
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.nextDouble() * 2 - 1;
        }
        return a;
    }

    private static int at(int i, int j, int k) {
        return (i * PADDED[1] + j) * PADDED[2] + k;
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void fillAndAxpy(Backend backend) {
        try (Accelerator acc = TestBackends.openOrSkip(backend)) {
            Queue q = acc.defaultQueue();
            double[] x = random(1, 1000);
            DeviceBuffer y = acc.allocate(ElementType.DOUBLE, 1000);
            DeviceBuffer dx = acc.copyOf(x);
            acc.gridKernels().fill(q, y, 0.25);
            acc.gridKernels().axpy(q, y, -1.5, dx);
            double[] got = new double[1000];
            q.read(y, got);
            double[] want = new double[1000];
            for (int i = 0; i < 1000; i++) {
                want[i] = 0.25 + -1.5 * x[i];
            }
            assertArrayEquals(want, got, 0.0);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void packAndUnpackMoveExactlyTheBox(Backend backend) {
        try (Accelerator acc = TestBackends.openOrSkip(backend)) {
            Queue q = acc.defaultQueue();
            double[] field = random(2, CELLS);
            IndexBox box = IndexBox.of(1, 6, 2, 5, 3, 10);
            DeviceBuffer f = acc.copyOf(field);
            DeviceBuffer packed = acc.allocate(ElementType.DOUBLE, box.cells() + 3);
            acc.gridKernels().fill(q, packed, -7);
            acc.gridKernels().pack(q, f, PADDED, box, packed, 3);
            double[] got = new double[(int) box.cells() + 3];
            q.read(packed, got);
            double[] want = new double[got.length];
            want[0] = want[1] = want[2] = -7;
            int n = 3;
            for (int i = 1; i < 6; i++) {
                for (int j = 2; j < 5; j++) {
                    for (int k = 3; k < 10; k++) {
                        want[n++] = field[at(i, j, k)];
                    }
                }
            }
            assertArrayEquals(want, got, 0.0);

            // Unpack the packed values into another box of a zero field: only that box changes.
            DeviceBuffer g = acc.allocate(ElementType.DOUBLE, CELLS);
            acc.gridKernels().fill(q, g, 0);
            IndexBox target = IndexBox.of(2, 7, 0, 3, 4, 11);
            acc.gridKernels().unpack(q, packed, 3, g, PADDED, target);
            double[] out = new double[CELLS];
            q.read(g, out);
            double[] expect = new double[CELLS];
            n = 3;
            for (int i = 2; i < 7; i++) {
                for (int j = 0; j < 3; j++) {
                    for (int k = 4; k < 11; k++) {
                        expect[at(i, j, k)] = want[n++];
                    }
                }
            }
            assertArrayEquals(expect, out, 0.0);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void laplaceStepMatchesTheJavaLoopBitForBit(Backend backend) {
        try (Accelerator acc = TestBackends.openOrSkip(backend)) {
            Queue q = acc.defaultQueue();
            double[] in = random(3, CELLS);
            double[] out0 = random(4, CELLS);
            DeviceBuffer din = acc.copyOf(in);
            DeviceBuffer dout = acc.copyOf(out0);
            IndexBox box = IndexBox.of(1, 6, 2, 8, 1, 10);
            double r = 0.125;
            acc.gridKernels().laplaceStep(q, din, dout, r, PADDED, box);
            double[] got = new double[CELLS];
            q.read(dout, got);
            double[] want = out0.clone();
            int si = PADDED[1] * PADDED[2];
            int sj = PADDED[2];
            for (int i = 1; i < 6; i++) {
                for (int j = 2; j < 8; j++) {
                    for (int k = 1; k < 10; k++) {
                        int c = at(i, j, k);
                        want[c] = in[c] + r * (in[c - si] + in[c + si] + in[c - sj] + in[c + sj] + in[c - 1] + in[c + 1]
                                - 6.0 * in[c]);
                    }
                }
            }
            assertArrayEquals(want, got, 0.0);
            // A box touching the padded edge would read outside the block.
            assertThrows(IndexOutOfBoundsException.class,
                    () -> acc.gridKernels().laplaceStep(q, din, dout, r, PADDED, IndexBox.of(0, 3, 1, 2, 1, 2)));
        }
    }
}
