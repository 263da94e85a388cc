package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settling rounds after a kernel's warm-up, with the compiler threads' CPU time in task
 * directories of the test's own making (as {@link CompilerQuietTest}) and a clock that moves only
 * when the wait sleeps: each "iteration" decides whether the JIT worked during it.
 */
@Timeout(60)
class JitSettleTest {

    private static final Duration QUIET = Duration.ofMillis(20);
    private static final Duration LIMIT = Duration.ofMillis(200);

    @TempDir
    Path dir;

    @Test
    void roundsGoOnWhileTheCompilersWorkDuringThem() {
        Compilers jit = new Compilers(dir.resolve("jit"));
        int[] calls = {0};
        // the first two iterations each start a 40 ms C2 compilation, the third compiles nothing
        int rounds = settle(6, QUIET, LIMIT, () -> {
            if (++calls[0] <= 2) {
                jit.work(40);
            }
        }, jit.quiet());
        assertEquals(3, rounds, "rounds run");
        assertEquals(3, calls[0], "iterations run");
    }

    @Test
    void smallCompilationsDoNotAskForAnotherRound() throws Exception {
        Compilers jit = new Compilers(dir.resolve("jit"));
        int[] calls = {0};
        // a few C1 compilations (1 ms of compiler time) in every round: below JitSettle.BUSY
        int rounds = settle(6, QUIET, LIMIT, () -> {
            calls[0]++;
            jit.work(1);
        }, jit.quiet());
        assertEquals(1, rounds);
        assertEquals(1, calls[0]);
    }

    @Test
    void compilersThatNeverRestStopTheRoundsAtTheMost() throws Exception {
        Compilers jit = new Compilers(dir.resolve("jit"));
        int[] calls = {0};
        int rounds = settle(4, QUIET, LIMIT, () -> {
            calls[0]++;
            jit.work(100);
        }, jit.quiet());
        assertEquals(4, rounds);
        assertEquals(4, calls[0]);
    }

    @Test
    void compilationsBeforeTheFirstRoundAreNotCounted() throws Exception {
        Compilers jit = new Compilers(dir.resolve("jit"));
        // the warm-up queued compilations that are still running when the rounds start: the first
        // wait lets them end before the first round's count starts
        jit.busyFor(ms(150));
        int[] calls = {0};
        int rounds = settle(6, QUIET, LIMIT, () -> calls[0]++,
                jit.quiet());
        assertEquals(1, rounds);
    }

    @Test
    void everyRankRunsAsManyRoundsAsTheBusiestAsks() {
        int[] rounds = new int[2];
        int[] calls = new int[2];
        // rank 0's JIT works through its first three iterations, rank 1's never: both run four
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(30), session -> {
            int me = session.world().rank();
            Compilers jit = new Compilers(dir.resolve("jit-" + me));
            try {
                rounds[me] = JitSettle.rounds(session.world(), 6, QUIET, LIMIT, () -> {
                    if (++calls[me] <= 3 && me == 0) {
                        jit.work(30);
                    }
                    session.world().barrier();   // an iteration communicates
                }, jit.quiet());
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertArrayEquals(new int[] {4, 4}, rounds, "rounds per rank");
        assertArrayEquals(new int[] {4, 4}, calls, "iterations per rank");
    }

    @Test
    void aCompilationStartedDuringTheLastAgreementEndsBeforeTheRoundsReturn() throws Exception {
        // rank 0's round compiles nothing and its wait ends at once; rank 1's round ends later, so
        // rank 0 polls in the allreduce meanwhile, and a compilation starts there (the poll loop's
        // own, on shm): when the rounds return on rank 0, that compilation has ended
        Compilers jit0 = new Compilers(dir.resolve("jit-0"));
        java.util.concurrent.CountDownLatch roundDone = new java.util.concurrent.CountDownLatch(1);
        int[] rounds = new int[2];
        boolean[] idleAtReturn = new boolean[1];
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(30), session -> {
            int me = session.world().rank();
            Compilers jit = me == 0 ? jit0 : new Compilers(dir.resolve("jit-1"));
            try {
                rounds[me] = JitSettle.rounds(session.world(), 6, QUIET, LIMIT, () -> {
                    if (me == 0) {
                        roundDone.countDown();
                        return;
                    }
                    try {
                        roundDone.await();
                        Thread.sleep(100);   // rank 0 is in the allreduce by now (else its round counts it: still idle at the end)
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    jit0.busyFor(ms(80));
                }, jit.quiet());
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            if (me == 0) {
                idleAtReturn[0] = jit0.idle();
            }
        });
        assertTrue(idleAtReturn[0], "rank 0's compilation still running when the rounds returned");
        assertEquals(rounds[0], rounds[1], "rounds per rank");
    }

    @Test
    void aCompilationStartedInTheQuietBarriersFirstWaitEndsBeforeItReturns() throws Exception {
        // rank 1 reaches the barrier 100 ms after rank 0, which polls there meanwhile, and a
        // compilation starts on rank 0 (its poll loop's own) just before rank 1 arrives: when the
        // barrier returns on rank 0, that compilation has ended
        Compilers jit0 = new Compilers(dir.resolve("jit-0"));
        boolean[] idleAtReturn = new boolean[1];
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(30), session -> {
            int me = session.world().rank();
            Compilers jit = me == 0 ? jit0 : new Compilers(dir.resolve("jit-1"));
            try {
                if (me == 1) {
                    Thread.sleep(100);
                    jit0.busyFor(ms(80));
                }
                JitSettle.quietBarrier(session.world(), QUIET, LIMIT, jit.quiet());
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            if (me == 0) {
                idleAtReturn[0] = jit0.idle();
            }
        });
        assertTrue(idleAtReturn[0], "rank 0's compilation still running when the barrier returned");
    }

    @Test
    void withoutTheCompilerThreadsOneRoundRuns() throws Exception {
        CompilerQuiet unreadable = new CompilerQuiet(dir.resolve("absent"), CompilerQuiet.SYSTEM);
        int[] calls = {0};
        int rounds = settle(6, QUIET, LIMIT, () -> calls[0]++,
                unreadable);
        assertEquals(1, rounds);
        assertEquals(1, calls[0]);
    }

    @Test
    void noRoundsWhenNoneAreAllowedAndANegativeMostIsRefused() throws Exception {
        Compilers jit = new Compilers(dir.resolve("jit"));
        int[] calls = {0};
        assertEquals(0, settle(0, QUIET, LIMIT, () -> calls[0]++, jit.quiet()));
        assertEquals(0, calls[0]);
        // refused before the communicator is used
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JitSettle.rounds(null, -1, QUIET, LIMIT, () -> calls[0]++, jit.quiet()));
        assertTrue(String.valueOf(e.getMessage()).contains("maxRounds must be >= 0, got -1"), e.getMessage());
    }

    /** {@link JitSettle#rounds} on the world of a one-rank smp job; returns the rounds run. */
    private static int settle(int maxRounds, Duration quiet, Duration limit, Runnable round, CompilerQuiet compilers) {
        int[] rounds = {-1};
        SmpJob.run(1, new String[] {"--threads", "1"}, Duration.ofSeconds(30),
                session -> rounds[0] = JitSettle.rounds(session.world(), maxRounds, quiet, limit, round, compilers));
        return rounds[0];
    }

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /**
     * One "C2 CompilerThre" task whose CPU time the test moves: {@link #work} adds compiler time at
     * once (a compilation that ended within the iteration), {@link #busyFor} makes it grow with the
     * clock for a while (compilations still running when the wait starts).
     */
    private static final class Compilers implements CompilerQuiet.Clock {
        private final Path tasks;
        private volatile long now = ms(5_000);
        private volatile long cpu = 1_000;
        private volatile long busyUntil = -1;

        Compilers(Path tasks) {
            this.tasks = tasks;
            try {
                Path task = Files.createDirectories(tasks.resolve("41"));
                Files.writeString(task.resolve("comm"), "C2 CompilerThre\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            write();
        }

        CompilerQuiet quiet() {
            return new CompilerQuiet(tasks, this);
        }

        void work(long millis) {
            cpu += ms(millis);
            write();
        }

        void busyFor(long nanos) {
            busyUntil = now + nanos;
        }

        /** Whether no compilation runs at the clock's time. */
        boolean idle() {
            return busyUntil <= now;
        }

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleepMillis(long millis) {
            long from = now;
            now += ms(millis);
            if (from < busyUntil) {
                cpu += Math.min(now, busyUntil) - from;
                write();
            }
        }

        private void write() {
            try {
                Path file = tasks.resolve("41").resolve("schedstat");
                Path tmp = file.resolveSibling("schedstat.tmp");
                Files.writeString(tmp, cpu + " 0 0\n");
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
