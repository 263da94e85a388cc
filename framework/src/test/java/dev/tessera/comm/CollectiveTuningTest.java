package dev.tessera.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Forced collective settings: set, cleared, case-insensitive, and read without a lock while another thread changes them. */
class CollectiveTuningTest {

    @Test
    void forcedEntriesAreSetClearedAndCaseInsensitive() {
        CollectiveTuning t = new CollectiveTuning();
        assertNull(t.forced("allreduce"));
        assertEquals("auto", t.toString());

        t.force("AllReduce", "Ring").force("check", "off");
        assertEquals("ring", t.forced("allreduce"));
        assertEquals("off", t.forced("check"));
        assertEquals("off", t.checkMode());
        assertNull(t.forced("bcast"));
        assertEquals("{allreduce=ring, check=off}", t.toString());

        t.force("allreduce", "auto");
        assertNull(t.forced("allreduce"));
        assertEquals("off", t.forced("check"));
        assertEquals("{check=off}", t.toString());
        t.force("CHECK", null);
        assertNull(t.forced("check"));
        assertNull(t.checkMode());
        assertEquals("auto", t.toString());
        t.force("check", "Always");
        assertEquals("always", t.checkMode());
        assertNull(t.forced("allreduce"));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void readersSeeWholeSettingsWhileAnotherThreadForces() throws Exception {
        CollectiveTuning t = new CollectiveTuning().force("bcast", "binomial");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            while (!stop.get()) {
                String b = t.forced("bcast");
                String a = t.forced("allreduce");
                if (!"binomial".equals(b)) {
                    wrong.compareAndSet(null, "bcast read as " + b);
                }
                if (a != null && !a.equals("ring") && !a.equals("rabenseifner")) {
                    wrong.compareAndSet(null, "allreduce read as " + a);
                }
            }
        });
        reader.start();
        for (int i = 0; i < 20_000; i++) {
            t.force("allreduce", i % 3 == 0 ? null : i % 3 == 1 ? "ring" : "rabenseifner");
        }
        stop.set(true);
        reader.join();
        assertNull(wrong.get(), () -> wrong.get());
        assertTrue(t.toString().startsWith("{"), t.toString());
    }
}
