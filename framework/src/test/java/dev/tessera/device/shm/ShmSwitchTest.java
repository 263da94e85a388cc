package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.conformance.ProcessJobRunner;
import dev.tessera.device.JobFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shm device's copy-path switches (tessera.shm.singleCopy, tessera.shm.heapSingleCopy and their
 * variables): the accepted spellings, and a misspelt value refused with the setting, the value
 * and the rank named before the device maps its file, in one process and in a real job.
 */
@Timeout(120)
class ShmSwitchTest {

    @Test
    void everyAcceptedSpellingReadsAsOnOrOff() {
        for (String on : List.of("on", "ON", "true", "True", "yes", "1", " on ")) {
            assertTrue(ShmSwitch.parse("s", on), on);
        }
        for (String off : List.of("off", "Off", "false", "FALSE", "no", "0", "off\n")) {
            assertFalse(ShmSwitch.parse("s", off), off);
        }
    }

    @Test
    void aMisspeltValueIsRefusedWithTheSettingAndTheValue() {
        for (String bad : List.of("yse", "", "2", "enabled")) {
            TesseraException e = assertThrows(TesseraException.class, () -> ShmSwitch.parse("tessera.shm.singleCopy", bad));
            assertEquals(ErrorClass.ARG, e.errorClass());
            assertTrue(e.getMessage().contains("tessera.shm.singleCopy: unknown value '" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void thePropertyWinsAndItsAbsenceGivesTheDefault() {
        String name = "tessera.shm.test.switch";
        System.clearProperty(name);
        assertTrue(ShmSwitch.read(name, "TESSERA_SHM_TEST_SWITCH_UNSET", true));
        assertFalse(ShmSwitch.read(name, "TESSERA_SHM_TEST_SWITCH_UNSET", false));
        try {
            System.setProperty(name, "off");
            assertFalse(ShmSwitch.read(name, "TESSERA_SHM_TEST_SWITCH_UNSET", true));
            System.setProperty(name, "maybe");
            assertThrows(TesseraException.class, () -> ShmSwitch.read(name, "TESSERA_SHM_TEST_SWITCH_UNSET", true));
        } finally {
            System.clearProperty(name);
        }
    }

    @Test
    void theCellCopySettingTakesItsThreeValuesAndRefusesOthers() {
        String name = "tessera.shm.cellCopy";
        String before = System.getProperty(name);
        try {
            System.clearProperty(name);
            assertEquals(1, ShmSwitch.cellCopy());   // memcpy unless asked
            String[] values = {"auto", "MEMCPY", " stream "};
            for (int i = 0; i < values.length; i++) {
                System.setProperty(name, values[i]);
                assertEquals(i, ShmSwitch.cellCopy(), values[i]);
            }
            System.setProperty(name, "nt");
            TesseraException e = assertThrows(TesseraException.class, ShmSwitch::cellCopy);
            assertEquals(ErrorClass.ARG, e.errorClass());
            assertEquals("tessera.shm.cellCopy: unknown value 'nt' (valid: auto, memcpy, stream)", e.getMessage());
            e = assertThrows(TesseraException.class, () -> ShmSwitch.check(3));
            assertEquals("rank 3: shm device: tessera.shm.cellCopy: unknown value 'nt' (valid: auto, memcpy, stream)",
                    e.getMessage());
        } finally {
            if (before == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, before);
            }
        }
    }

    @Test
    void joiningWithAMisspeltHeapSwitchFailsAtOnceNamingTheRank(@TempDir Path dir) {
        String before = System.getProperty("tessera.shm.heapSingleCopy");
        System.setProperty("tessera.shm.heapSingleCopy", "yse");
        try {
            Path file = dir.resolve("job.shm");
            TesseraException e = assertThrows(TesseraException.class,
                    () -> ShmFile.join(file, 1, 2, Duration.ofSeconds(10), new JobFailure()));
            assertEquals(ErrorClass.ARG, e.errorClass());
            assertEquals("rank 1: shm device: tessera.shm.heapSingleCopy: unknown value 'yse' "
                    + "(valid: on, off, true, false, yes, no, 1, 0)", e.getMessage());
            assertFalse(Files.exists(file), "the file was created before the setting was checked");
        } finally {
            if (before == null) {
                System.clearProperty("tessera.shm.heapSingleCopy");
            } else {
                System.setProperty("tessera.shm.heapSingleCopy", before);
            }
        }
    }

    @Test
    void aJobWithAMisspeltSingleCopySwitchEndsWithTheErrorInsteadOfRunningWithoutIt() {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(90), 0,
                List.of("-Dtessera.shm.singleCopy=of")).launch(2, world -> world.barrier(), List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("shm device: tessera.shm.singleCopy: unknown value 'of'"), r.output());
    }
}
