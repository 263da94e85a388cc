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
    void withoutPropertyOrVariableItFollowsTheProcessorKind() {
        if (System.getenv("TESSERA_SHM_SINGLE_COPY") == null) {
            assertEquals(dev.tessera.internal.CpuKind.THIS.singleCopyByDefault(), requestedWith(null));
        }
    }
}
