package dev.tessera.task;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class TeamTest {

    static final List<Schedule> SCHEDULES = List.of(Schedule.STATIC, Schedule.staticChunk(1), Schedule.staticChunk(7),
            Schedule.dynamic(1), Schedule.dynamic(5), Schedule.guided(1), Schedule.guided(3), Schedule.staticChunk(1000));

    static Stream<Arguments> sizesAndSchedules() {
        return Stream.of(1, 2, 3, 4).flatMap(t -> SCHEDULES.stream().map(s -> Arguments.of(t, s)));
    }

    @ParameterizedTest(name = "{0} threads, {1}")
    @MethodSource("sizesAndSchedules")
    void everyScheduleCoversEachIndexExactlyOnce(int threads, Schedule schedule) {
        try (Team team = Team.create(threads)) {
            for (int[] range : new int[][] {{0, 0}, {5, 5}, {0, 1}, {0, 2}, {3, 6}, {-10, 990}, {0, 10_001}}) {
                int lo = range[0];
                int hi = range[1];
                AtomicIntegerArray hits = new AtomicIntegerArray(Math.max(1, hi - lo));
                team.parallelFor(lo, hi, schedule, i -> hits.incrementAndGet(i - lo));
                for (int i = 0; i < hi - lo; i++) {
                    assertEquals(1, hits.get(i), "index " + (lo + i) + " of [" + lo + "," + hi + ")");
                }
                AtomicIntegerArray chunks = new AtomicIntegerArray(Math.max(1, hi - lo));
                team.parallelForRange(lo, hi, schedule, (from, to) -> {
                    assertTrue(lo <= from && from < to && to <= hi, "chunk [" + from + "," + to + ")");
                    for (int i = from; i < to; i++) {
                        chunks.incrementAndGet(i - lo);
                    }
                });
                for (int i = 0; i < hi - lo; i++) {
                    assertEquals(1, chunks.get(i));
                }
            }
        }
    }

    @Test
    void reversedRangesAreRejected() {
        try (Team team = Team.create(2)) {
            assertThrows(IllegalArgumentException.class, () -> team.parallelFor(5, 4, i -> { }));
            assertThrows(IllegalArgumentException.class, () -> Schedule.dynamic(0));
            assertThrows(IllegalArgumentException.class, () -> Team.create(0));
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 3, 4})
    void reductionsEqualTheSequentialResult(int threads) {
        try (Team team = Team.create(threads)) {
            int n = 100_003;
            double expected = 0;
            for (int i = 0; i < n; i++) {
                expected += 1.0 / (i + 1);
            }
            double parallel = team.sum(0, n, i -> 1.0 / (i + 1));
            assertEquals(expected, parallel, 1e-12);
            assertEquals(parallel, team.sum(0, n, i -> 1.0 / (i + 1)), "reproducible");
            assertEquals((long) n * (n - 1) / 2, team.reduceLong(0, n, 0L, i -> i, Long::sum));
            assertEquals(n - 1, team.reduceLong(0, n, Long.MIN_VALUE, i -> i, Math::max));
            assertEquals(0.0, team.sum(3, 3, i -> 1.0));
            String joined = team.reduce(0, 10, StringBuilder::new, (sb, i) -> sb.append(i),
                    (a, b) -> a.append(b)).toString();
            assertEquals("0123456789", joined, "general reduction combines in order");
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 3, 4})
    void noMemberPassesABarrierBeforeAllArrive(int threads) {
        try (Team team = Team.create(threads)) {
            AtomicInteger arrived = new AtomicInteger();
            AtomicInteger violations = new AtomicInteger();
            int rounds = 2000;
            team.region(ctx -> {
                for (int r = 0; r < rounds; r++) {
                    arrived.incrementAndGet();
                    ctx.barrier();
                    if (arrived.get() < (r + 1) * ctx.size()) {
                        violations.incrementAndGet();
                    }
                    ctx.barrier();
                }
            });
            assertEquals(0, violations.get());
            assertEquals(rounds * threads, arrived.get());
        }
    }

    /**
     * Regression: a region with an odd number of barriers left the barrier's sense flipped,
     * and members starting the next region from a fresh sense passed its first barrier at once.
     * Member 1 holds back from the second region's barrier until member 0 is through it (or
     * 2 s pass): through means member 0 did not wait.
     */
    @ParameterizedTest(name = "{0} barriers in the first region")
    @ValueSource(ints = {1, 2, 3})
    void aBarrierWaitsWhateverTheBarrierCountOfEarlierRegions(int barriers) throws Exception {
        try (Team team = Team.create(2)) {
            team.region(ctx -> {
                for (int b = 0; b < barriers; b++) {
                    ctx.barrier();
                }
            });
            java.util.concurrent.CountDownLatch memberZeroThrough = new java.util.concurrent.CountDownLatch(1);
            AtomicInteger early = new AtomicInteger();
            team.region(ctx -> {
                if (ctx.id() == 1) {
                    try {
                        if (memberZeroThrough.await(2, java.util.concurrent.TimeUnit.SECONDS)) {
                            early.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                ctx.barrier();
                if (ctx.id() == 0) {
                    memberZeroThrough.countDown();
                }
            });
            assertEquals(0, early.get(), "member 0 passed the barrier before member 1 arrived");
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 3, 4})
    void regionConstructsBehaveAsInOpenMp(int threads) {
        try (Team team = Team.create(threads)) {
            AtomicInteger singles = new AtomicInteger();
            AtomicInteger masters = new AtomicInteger();
            int[] ids = new int[threads];
            double[] sums = new double[threads];
            Thread caller = Thread.currentThread();
            AtomicIntegerArray hits = new AtomicIntegerArray(1000);
            team.region(ctx -> {
                ids[ctx.id()] = ctx.size();
                for (int k = 0; k < 10; k++) {
                    ctx.single(singles::incrementAndGet);
                }
                ctx.master(() -> {
                    assertSame(caller, Thread.currentThread(), "master is the calling thread");
                    masters.incrementAndGet();
                });
                ctx.parallelFor(0, 1000, Schedule.dynamic(3), hits::incrementAndGet);
                ctx.parallelFor(0, 1000, Schedule.guided(2), hits::incrementAndGet);
                sums[ctx.id()] = ctx.reduce(ctx.id() + 1, Double::sum);
            });
            assertEquals(10, singles.get(), "each single runs once");
            assertEquals(1, masters.get());
            for (int i = 0; i < threads; i++) {
                assertEquals(threads, ids[i]);
                assertEquals(threads * (threads + 1) / 2.0, sums[i]);
            }
            for (int i = 0; i < 1000; i++) {
                assertEquals(2, hits.get(i));
            }
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 4})
    void exceptionsReachTheCallerAndTheTeamStaysUsable(int threads) {
        try (Team team = Team.create(threads)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> team.parallelFor(0, 100, i -> {
                        if (i == 57) {
                            throw new IllegalStateException("bad index 57");
                        }
                    }));
            assertEquals("bad index 57", e.getMessage());
            // A member failing before a barrier must not leave the others waiting there.
            assertThrows(ArithmeticException.class, () -> team.region(ctx -> {
                if (ctx.id() == ctx.size() - 1) {
                    throw new ArithmeticException("member failed");
                }
                ctx.barrier();
                ctx.barrier();
            }));
            assertEquals(4950L, team.reduceLong(0, 100, 0L, i -> i, Long::sum));
            team.region(TeamContext::barrier);
        }
    }

    @Test
    void nestedConstructsRunSeriallyOnTheCallingMember() {
        try (Team team = Team.create(3)) {
            AtomicIntegerArray hits = new AtomicIntegerArray(30);
            team.parallelFor(0, 3, outer -> team.parallelFor(0, 10, inner -> hits.incrementAndGet(outer * 10 + inner)));
            for (int i = 0; i < 30; i++) {
                assertEquals(1, hits.get(i));
            }
            AtomicInteger singles = new AtomicInteger();
            team.region(ctx -> team.region(inner -> {
                assertEquals(1, inner.size());
                inner.single(singles::incrementAndGet);
                inner.single(singles::incrementAndGet);
            }));
            assertEquals(6, singles.get());
        }
    }

    @Test
    void forkJoinRunsRecursiveTasks() throws Exception {
        try (Team team = Team.create(2)) {
            assertEquals(832_040L, team.invoke(new Fibonacci(30)));
            assertEquals(42, team.fork(() -> 42).get());
        }
    }

    private static final class Fibonacci extends RecursiveTask<Long> {
        private final int n;

        Fibonacci(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n < 15) {
                long a = 0;
                long b = 1;
                for (int i = 0; i < n; i++) {
                    long t = a + b;
                    a = b;
                    b = t;
                }
                return a;
            }
            Fibonacci left = new Fibonacci(n - 1);
            left.fork();
            return new Fibonacci(n - 2).compute() + left.join();
        }
    }

    @Test
    void closedTeamRejectsWork() {
        Team team = Team.create(2);
        team.close();
        assertThrows(IllegalStateException.class, () -> team.parallelFor(0, 1, i -> { }));
        team.close();
    }

    @Test
    void staticScheduleGivesContiguousBlocksInMemberOrder() {
        try (Team team = Team.create(4)) {
            int[] owner = new int[10];
            team.region(ctx -> ctx.parallelForRange(0, 10, Schedule.STATIC, (from, to) -> {
                for (int i = from; i < to; i++) {
                    owner[i] = ctx.id();
                }
            }));
            assertArrayEquals(new int[] {0, 0, 1, 1, 1, 2, 2, 3, 3, 3}, owner);
        }
    }
}
