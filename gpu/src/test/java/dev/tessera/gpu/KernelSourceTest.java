package dev.tessera.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** User kernels: one source for every backend through the prelude, and compile errors that show the compiler log. */
@Timeout(60)
class KernelSourceTest {

    private static final String SCALE = """
            KERNEL scale_double(GLOBAL double* RESTRICT a, double s, long n) {
                long i = GLOBAL_ID(0);
                if (i < n) {
                    a[i] *= s;
                }
            }
            KERNEL iota_int(GLOBAL int* a, int n, int m) {
                long i = GLOBAL_ID(0);
                long j = GLOBAL_ID(1);
                if (i < n && j < m) {
                    a[j * n + i] = (int) (j * 100 + i);
                }
            }
            """;

    private static KernelSource scaleSource() {
        return KernelSource.of("scale.cl", SCALE)
                .withCpu("scale_double", l -> {
                    double[] a = l.doubles(0);
                    double s = l.doubleArg(1);
                    int n = (int) l.longArg(2);
                    l.parallelFor(0, n, 1, (from, to) -> {
                        for (int i = from; i < to; i++) {
                            a[i] *= s;
                        }
                    });
                })
                .withCpu("iota_int", l -> {
                    int[] a = l.ints(0);
                    int n = l.intArg(1);
                    int m = l.intArg(2);
                    for (int j = 0; j < m; j++) {
                        for (int i = 0; i < n; i++) {
                            a[j * n + i] = j * 100 + i;
                        }
                    }
                });
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void oneSourceRunsOnEveryBackend(Backend backend) {
        try (Accelerator acc = TestBackends.openOrSkip(backend)) {
            Program p = acc.compile(scaleSource());
            Queue q = acc.defaultQueue();
            DeviceBuffer a = acc.copyOf(new double[] {1, 2, 3, 4, 5});
            q.launch(p.kernel("scale_double"), WorkSize.of(5), a, 2.5, 5L);
            double[] out = new double[5];
            q.read(a, out);
            assertArrayEquals(new double[] {2.5, 5, 7.5, 10, 12.5}, out);

            DeviceBuffer grid = acc.allocate(ElementType.INT, 6 * 3);
            q.launch(p.kernel("iota_int"), WorkSize.of(6, 3), grid, 6, 3);
            int[] g = new int[18];
            q.read(grid, g);
            assertEquals(205, g[2 * 6 + 5]);
            assertEquals(3, g[3]);
        }
    }

    @Test
    void aBadKernelSourceGivesTheCompilerLogInTheException() {
        try (Accelerator acc = TestBackends.openOrSkip(Backend.OPENCL)) {
            KernelSource bad = KernelSource.of("bad.cl", """
                    KERNEL broken(GLOBAL double* a) {
                        a[0] = undefined_variable + 1.0;
                    }
                    """);
            KernelCompileException e = assertThrows(KernelCompileException.class, () -> acc.compile(bad));
            assertTrue(e.getMessage().contains("clBuildProgram"), e.getMessage());
            assertTrue(e.getMessage().contains("CL_BUILD_PROGRAM_FAILURE"), e.getMessage());
            assertTrue(e.log().contains("undefined_variable"), e.log());
            // Line numbers count from the user's source, not from the prelude.
            assertTrue(e.log().contains("bad.cl:2"), e.log());
        }
    }

    @Test
    void anUnknownKernelNameNamesTheNativeErrorAndTheCall() {
        try (Accelerator acc = TestBackends.openOrSkip(Backend.OPENCL)) {
            Program p = acc.compile(scaleSource());
            AcceleratorException e = assertThrows(AcceleratorException.class, () -> p.kernel("no_such_kernel"));
            assertEquals("CL_INVALID_KERNEL_NAME", e.nativeError());
            assertTrue(e.getMessage().startsWith("opencl clCreateKernel(no_such_kernel)"), e.getMessage());
        }
    }

    @Test
    void theCpuBackendNamesAKernelWithoutAJavaBody() {
        try (Accelerator acc = TestBackends.openOrSkip(Backend.CPU)) {
            Program p = acc.compile(KernelSource.of("x.cl", SCALE));
            AcceleratorException e = assertThrows(AcceleratorException.class, () -> p.kernel("scale_double"));
            assertTrue(e.getMessage().contains("withCpu"), e.getMessage());
        }
    }

    @Test
    void aWrongArgumentCountIsRefusedBeforeTheLaunch() {
        try (Accelerator acc = TestBackends.openOrSkip(Backend.OPENCL)) {
            Program p = acc.compile(scaleSource());
            DeviceBuffer a = acc.allocate(ElementType.DOUBLE, 4);
            var e = assertThrows(IllegalArgumentException.class,
                    () -> acc.defaultQueue().launch(p.kernel("scale_double"), WorkSize.of(4), a, 2.0));
            assertTrue(e.getMessage().contains("takes 3 arguments, got 2"), e.getMessage());
        }
    }
}
