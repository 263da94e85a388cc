package dev.tessera.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.conformance.ProcessJobRunner;
import dev.tessera.conformance.SmpJobRunner;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Misuse that must be an error naming the rank and the call (issue #28, item 11). */
@Timeout(120)
class MisuseErrorsTest {

    @Test
    void freeingACommunicatorTwiceIsAnError() {
        new SmpJobRunner().run(2, world -> {
            Comm dup = world.dup();
            dup.free();
            TesseraException e = assertThrows(TesseraException.class, dup::free);
            assertEquals(ErrorClass.COMM, e.errorClass());
            assertTrue(e.getMessage().startsWith("rank " + world.rank() + ": Comm.free") && e.getMessage().contains("freed twice"),
                    e.getMessage());
        });
    }

    @Test
    void badBufferSlicesNameTheRankAndTheCallOnSmp() {
        new SmpJobRunner().run(3, world -> {
            TesseraException e = assertThrows(TesseraException.class, () -> Buffer.of(new int[5], 3, 10));
            assertEquals(ErrorClass.BUFFER, e.errorClass());
            assertTrue(e.getMessage().startsWith("rank " + world.rank() + ": Buffer.of(int[], offset 3, count 10)")
                    && e.getMessage().contains("outside array of length 5"), e.getMessage());
            e = assertThrows(TesseraException.class, () -> Buffer.of(new double[4]).slice(2, 5));
            assertTrue(e.getMessage().startsWith("rank " + world.rank() + ": Buffer.slice(offset 2, count 5)")
                    && e.getMessage().endsWith("outside a buffer of 4 elements"), e.getMessage());
            e = assertThrows(TesseraException.class, () -> Buffer.of(new double[4], 1, -1));
            assertEquals(ErrorClass.COUNT, e.errorClass(), "a negative count");
            NullPointerException n = assertThrows(NullPointerException.class, () -> Buffer.of((long[]) null));
            assertTrue(n.getMessage().startsWith("rank " + world.rank() + ": Buffer.of(long[])"), n.getMessage());
        });
    }

    @Test
    void badBufferSlicesNameTheRankInAProcessRank() {
        ProcessJobRunner.Result r = new ProcessJobRunner("tcp").launch(2, world -> {
            try {
                Buffer.of(new byte[2], -1, 1);
                throw new AssertionError("accepted a negative offset");
            } catch (TesseraException e) {
                if (!e.getMessage().startsWith("rank " + world.rank() + ": Buffer.of(byte[], offset -1, count 1)")) {
                    throw new AssertionError("message: " + e.getMessage());
                }
            }
            world.barrier();
        }, List.of());
        assertEquals(0, r.status(), r.output());
    }
}
