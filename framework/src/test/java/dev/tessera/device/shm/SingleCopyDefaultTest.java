package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** When the shm device sends native memory by single copy. */
@Timeout(30)
class SingleCopyDefaultTest {

    private static boolean requestedWith(String property) {
        String before = System.getProperty("tessera.shm.singleCopy");
        try {
            if (property == null) {
                System.clearProperty("tessera.shm.singleCopy");
            } else {
                System.setProperty("tessera.shm.singleCopy", property);
            }
            return SingleCopy.requested();
        } finally {
            if (before == null) {
                System.clearProperty("tessera.shm.singleCopy");
            } else {
                System.setProperty("tessera.shm.singleCopy", before);
            }
        }
    }

    @Test
    void thePropertyTurnsItOnOrOffOnAnyProcessor() {
        assertTrue(requestedWith("true"));
        assertFalse(requestedWith("false"));
    }

    @Test
    void withoutPropertyOrVariableItIsOnExactlyOnIntelProcessors() {
        if (System.getenv("TESSERA_SHM_SINGLE_COPY") == null) {
            assertEquals(SingleCopy.intelProcessor(), requestedWith(null));
        }
    }

    @Test
    void intelProcessorsAreRecognisedFromProcCpuinfo() throws Exception {
        java.nio.file.Path cpuinfo = java.nio.file.Path.of("/proc/cpuinfo");
        if (java.nio.file.Files.isReadable(cpuinfo)) {
            boolean intel = java.nio.file.Files.readAllLines(cpuinfo).stream()
                    .filter(l -> l.startsWith("vendor_id")).findFirst().map(l -> l.contains("GenuineIntel")).orElse(false);
            assertEquals(intel, SingleCopy.intelProcessor());
        }
    }
}
