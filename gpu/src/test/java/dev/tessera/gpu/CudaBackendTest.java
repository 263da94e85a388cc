package dev.tessera.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CUDA specifics. Where no CUDA device is present these are reported skipped with the
 * reason (the probe's one line), except the check of that line itself.
 */
@Timeout(120)
class CudaBackendTest {

    @Test
    void theProbeAnswersWithDevicesOrOneLineOfReason() {
        BackendStatus s = Accelerators.probe(Backend.CUDA);
        if (s.isAvailable()) {
            assertTrue(s.devices().get(0).globalMemoryBytes() > 0);
        } else {
            assertFalse(s.unavailableReason().isBlank());
            assertFalse(s.unavailableReason().contains("\n"), s.unavailableReason());
            assertFalse(s.unavailableReason().contains("UnsatisfiedLinkError"), s.unavailableReason());
        }
    }

    @Test
    void pinnedHostMemoryIsPageLocked() {
        try (Accelerator acc = TestBackends.openOrSkip(Backend.CUDA);
             HostBuffer h = acc.allocateHost(1 << 20)) {
            assertTrue(h.pinned());
        }
    }

    @Test
    void nvrtcReportsItsLogForABadKernel() {
        try (Accelerator acc = TestBackends.openOrSkip(Backend.CUDA)) {
            KernelCompileException e = assertThrows(KernelCompileException.class,
                    () -> acc.compile(KernelSource.of("bad.cu", "KERNEL broken(GLOBAL double* a) {\n a[0] = nope;\n}\n")));
            assertEquals("nvrtcCompileProgram", e.call());
            assertTrue(e.log().contains("nope"), e.log());
        }
    }
}
