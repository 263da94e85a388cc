package dev.tessera.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The processor kind read from /proc/cpuinfo, and the single-copy default it gives. */
class CpuKindTest {

    private static String cpuinfo(String vendor, String family) {
        return "processor\t: 0\nvendor_id\t: " + vendor + "\ncpu family\t: " + family + "\nmodel\t\t: 1\n"
                + "model name\t: some processor\n\nprocessor\t: 1\nvendor_id\t: other\ncpu family\t: 99\n";
    }

    @Test
    void theFirstProcessorsVendorAndFamilyAreRead() {
        assertEquals(new CpuKind("AuthenticAMD", 25), CpuKind.parse(cpuinfo("AuthenticAMD", "25")));
        assertEquals(new CpuKind("GenuineIntel", 6), CpuKind.parse(cpuinfo("GenuineIntel", "6")));
        assertEquals(new CpuKind("AuthenticAMD", -1), CpuKind.parse(cpuinfo("AuthenticAMD", "?")));
        assertEquals(new CpuKind("", -1), CpuKind.parse("processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n"));
    }

    @Test
    void singleCopyIsOnForIntelAndForAmdBeforeFamily26() {
        assertTrue(CpuKind.parse(cpuinfo("GenuineIntel", "6")).singleCopyByDefault(), "Intel");
        assertTrue(CpuKind.parse(cpuinfo("AuthenticAMD", "23")).singleCopyByDefault(), "AMD Zen 1-2");
        assertTrue(CpuKind.parse(cpuinfo("AuthenticAMD", "25")).singleCopyByDefault(), "AMD Zen 3-4");
        assertFalse(CpuKind.parse(cpuinfo("AuthenticAMD", "26")).singleCopyByDefault(), "AMD Zen 5");
        assertFalse(CpuKind.parse(cpuinfo("AuthenticAMD", "x")).singleCopyByDefault(), "AMD, unreadable family");
        assertFalse(CpuKind.parse(cpuinfo("HygonGenuine", "24")).singleCopyByDefault(), "another vendor");
        assertFalse(CpuKind.parse("").singleCopyByDefault(), "nothing read");
    }

    @Test
    void thisMachinesKindIsItsProcCpuinfos() throws Exception {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            assertEquals(CpuKind.parse(Files.readString(cpuinfo)), CpuKind.THIS);
        }
    }
}
