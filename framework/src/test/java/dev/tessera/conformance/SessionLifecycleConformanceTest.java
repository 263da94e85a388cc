package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.runtime.Tessera;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A rank's session lifecycle (issue #28, item 7), on every device: communication after
 * {@code Session.close()} (which returned normally before) is a clear error, and a second
 * {@code Tessera.init} in a rank (a second runtime on smp and shm, a 60 s hang on tcp before)
 * is an error, as a second MPI_Init is.
 */
@Timeout(180)
class SessionLifecycleConformanceTest {

    static Stream<Arguments> runners() {
        return Runners.all().stream().filter(r -> r.runs(3)).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void callsAfterCloseFail(JobRunner runner) {
        runner.run(3, world -> {
            Comm sub = world.dup();
            world.barrier();
            RankSessions.current().close();
            for (Runnable call : new Runnable[] {
                    () -> world.allreduce(Buffer.of(new int[1]), Op.SUM),
                    world::barrier,
                    () -> world.bcast(Buffer.of(new int[1]), 0),
                    () -> world.send(Buffer.of(new int[1]), (world.rank() + 1) % world.size(), 0),
                    () -> sub.allreduce(1, Op.SUM)}) {
                TesseraException e = assertThrows(TesseraException.class, call::run);
                assertTrue(e.getMessage().contains("rank " + world.rank() + ": Comm.")
                        && e.getMessage().contains("after the rank's Session was closed"), e.getMessage());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void aSecondInitInARankIsAnError(JobRunner runner) {
        runner.run(3, world -> {
            TesseraException e = assertThrows(TesseraException.class, () -> Tessera.init(new String[0]));
            assertTrue(e.getMessage().contains("rank " + world.rank() + ": Tessera.init called a second time"), e.getMessage());
            assertEquals(world.size(), world.allreduce(1, Op.SUM)); // the first session is unharmed
        });
    }
}
