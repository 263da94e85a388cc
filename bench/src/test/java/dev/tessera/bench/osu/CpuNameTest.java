package dev.tessera.bench.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuNameTest {

    @Test
    void givesTheModelNameWithFamilyAndModel(@TempDir Path dir) throws Exception {
        Path info = dir.resolve("cpuinfo");
        Files.writeString(info, "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
                + "model name\t: AMD EPYC\nstepping\t: 1\n\nprocessor\t: 1\ncpu family\t: 26\nmodel\t\t: 2\n");
        assertEquals("AMD EPYC (family 26, model 2)", CpuName.describe(info));
    }

    @Test
    void leavesOutWhatTheFileLacks(@TempDir Path dir) throws Exception {
        Path info = dir.resolve("cpuinfo");
        Files.writeString(info, "model name\t: Some CPU\n");
        assertEquals("Some CPU", CpuName.describe(info));
        Files.writeString(info, "cpu family\t: 6\nmodel\t\t: 167\n");
        assertEquals("unknown CPU (family 6, model 167)", CpuName.describe(info));
        assertEquals("unknown CPU", CpuName.describe(dir.resolve("absent")));
    }
}
