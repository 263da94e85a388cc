package dev.tessera.task;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.DoubleBinaryOperator;
import java.util.function.IntConsumer;
import java.util.function.IntToDoubleFunction;
import java.util.function.IntToLongFunction;
import java.util.function.LongBinaryOperator;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * The threads of one rank: the calling thread plus {@code size - 1} persistent workers,
 * for OpenMP-style parallel loops, reductions and SPMD regions, and a ForkJoinPool for
 * irregular task trees.
 *
 * <p>Algorithm. A parallel construct is a <em>job</em>. The calling thread (member 0)
 * publishes the job in a plain field, then increments the volatile {@code epoch}; each
 * worker waits for the epoch to change (spinning, then parked after
 * announcing so in its volatile {@code parked} flag, which the dispatcher checks after
 * writing the epoch and answers with an unpark), runs the job as its member, and
 * decrements {@code pending}. Member 0 runs its own share, then waits for {@code pending}
 * to reach zero (the last worker unparks it if it had to park). The volatile epoch write
 * and the pending decrement order the job's memory effects: everything a member wrote
 * is visible to the caller after the construct, as after an OpenMP join.
 *
 * <p>Invariants: one job at a time (constructs from different threads are serialized by
 * the dispatch lock); every member runs every job exactly once; a failure in any member
 * breaks the job's barrier, so no member waits for a failed one, and is rethrown by the
 * caller after the join (first failure, others suppressed); the team is usable again
 * afterwards. A construct started from inside a running job of the same team (nesting)
 * runs serially on the calling thread, as OpenMP does with nested parallelism off.
 */
public final class Team implements AutoCloseable {

    private final int size;
    private final Worker[] workers;
    private final TeamContext[] members;
    private final double[] partials;
    private final ReentrantLock dispatch = new ReentrantLock();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong loopCounter = new AtomicLong();
    private final AtomicInteger singleClaims = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile long epoch;
    private volatile Thread waitingCaller;
    private volatile Thread runningCaller;
    private volatile boolean closed;
    private TeamBarrier barrier;
    private Consumer<TeamContext> job;
    private ForkJoinPool pool;

    private Team(int size) {
        this.size = size;
        this.members = new TeamContext[size];
        this.partials = new double[size];
        for (int m = 0; m < size; m++) {
            members[m] = new TeamContext(this, m);
        }
        this.barrier = new TeamBarrier(size);
        this.workers = new Worker[size - 1];
        for (int w = 0; w < size - 1; w++) {
            workers[w] = new Worker(w + 1);
            workers[w].start();
        }
    }

    /** A team of {@code threads} members (the caller and threads - 1 workers). */
    public static Team create(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("a team needs at least 1 thread, got " + threads);
        }
        return new Team(threads);
    }

    /** Number of members, the calling thread included. */
    public int size() {
        return size;
    }

    // ------------------------------------------------------------------ loops

    /** Runs {@code body(i)} for every i in [lo, hi), split statically over the members. */
    public void parallelFor(int lo, int hi, IntConsumer body) {
        parallelFor(lo, hi, Schedule.STATIC, body);
    }

    /** Runs {@code body(i)} for every i in [lo, hi) with the given schedule. */
    public void parallelFor(int lo, int hi, Schedule schedule, IntConsumer body) {
        parallelForRange(lo, hi, schedule, eachIndex(body));
    }

    /** Runs {@code body(from, to)} over chunks that together cover [lo, hi) exactly once. */
    public void parallelForRange(int lo, int hi, Schedule schedule, RangeBody body) {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(body, "body");
        checkRange(lo, hi);
        Team t = effective();
        t.run(ctx -> t.share(ctx.id(), lo, hi, schedule, body));
    }

    static RangeBody eachIndex(IntConsumer body) {
        Objects.requireNonNull(body, "body");
        return (from, to) -> {
            for (int i = from; i < to; i++) {
                body.accept(i);
            }
        };
    }

    private static void checkRange(int lo, int hi) {
        if (hi < lo) {
            throw new IllegalArgumentException("loop range [" + lo + ", " + hi + ") has hi < lo");
        }
    }

    /** Member {@code id}'s part of a worksharing loop. */
    void share(int id, int lo, int hi, Schedule schedule, RangeBody body) {
        long n = (long) hi - lo;
        if (n <= 0) {
            return;
        }
        switch (schedule.kind()) {
            case STATIC -> {
                int from = blockStart(lo, hi, id);
                int to = blockStart(lo, hi, id + 1);
                if (from < to) {
                    body.run(from, to);
                }
            }
            case STATIC_CHUNK -> {
                long c = schedule.chunk();
                for (long start = (long) id * c; start < n; start += c * size) {
                    body.run((int) (lo + start), (int) (lo + Math.min(start + c, n)));
                }
            }
            case DYNAMIC -> {
                long c = schedule.chunk();
                long start;
                while ((start = loopCounter.getAndAdd(c)) < n) {
                    body.run((int) (lo + start), (int) (lo + Math.min(start + c, n)));
                }
            }
            case GUIDED -> {
                while (true) {
                    long start = loopCounter.get();
                    if (start >= n) {
                        break;
                    }
                    long c = Math.max(schedule.chunk(), (n - start) / (2L * size));
                    if (loopCounter.compareAndSet(start, start + c)) {
                        body.run((int) (lo + start), (int) (lo + Math.min(start + c, n)));
                    }
                }
            }
        }
    }

    /** First index of member {@code id}'s static block of [lo, hi); id = size gives hi. */
    int blockStart(int lo, int hi, int id) {
        return (int) (lo + ((long) hi - lo) * id / size);
    }

    // ------------------------------------------------------------------ reductions

    /** Reduces f(i) over [lo, hi) with {@code combine}; static schedule, partials combined in member order (reproducible). */
    public double reduceDouble(int lo, int hi, double identity, IntToDoubleFunction f, DoubleBinaryOperator combine) {
        checkRange(lo, hi);
        Team t = effective();
        double[] results = new double[t.size];
        t.run(ctx -> {
            double acc = identity;
            for (int i = t.blockStart(lo, hi, ctx.id()), to = t.blockStart(lo, hi, ctx.id() + 1); i < to; i++) {
                acc = combine.applyAsDouble(acc, f.applyAsDouble(i));
            }
            results[ctx.id()] = acc;
        });
        double result = results[0];
        for (int m = 1; m < results.length; m++) {
            result = combine.applyAsDouble(result, results[m]);
        }
        return result;
    }

    /** Sum of f(i) over [lo, hi). */
    public double sum(int lo, int hi, IntToDoubleFunction f) {
        return reduceDouble(lo, hi, 0.0, f, Double::sum);
    }

    /** Reduces f(i) over [lo, hi) in longs; static schedule, combined in member order. */
    public long reduceLong(int lo, int hi, long identity, IntToLongFunction f, LongBinaryOperator combine) {
        checkRange(lo, hi);
        Team t = effective();
        long[] results = new long[t.size];
        t.run(ctx -> {
            long acc = identity;
            for (int i = t.blockStart(lo, hi, ctx.id()), to = t.blockStart(lo, hi, ctx.id() + 1); i < to; i++) {
                acc = combine.applyAsLong(acc, f.applyAsLong(i));
            }
            results[ctx.id()] = acc;
        });
        long result = results[0];
        for (int m = 1; m < results.length; m++) {
            result = combine.applyAsLong(result, results[m]);
        }
        return result;
    }

    /**
     * General reduction: each member folds its static share of [lo, hi) into a fresh
     * {@code identity.get()} with {@code accumulate}; the members' results are combined in
     * member order with {@code combine}, which must be associative.
     */
    public <A> A reduce(int lo, int hi, Supplier<A> identity, Accumulator<A> accumulate, BinaryOperator<A> combine) {
        checkRange(lo, hi);
        Team t = effective();
        Object[] results = new Object[t.size];
        t.run(ctx -> {
            A acc = identity.get();
            for (int i = t.blockStart(lo, hi, ctx.id()), to = t.blockStart(lo, hi, ctx.id() + 1); i < to; i++) {
                acc = accumulate.add(acc, i);
            }
            results[ctx.id()] = acc;
        });
        @SuppressWarnings("unchecked")
        A result = (A) results[0];
        for (int m = 1; m < results.length; m++) {
            @SuppressWarnings("unchecked")
            A next = (A) results[m];
            result = combine.apply(result, next);
        }
        return result;
    }

    // ------------------------------------------------------------------ regions

    /** Runs {@code body} on every member at once (an OpenMP parallel region); returns when all have finished. */
    public void region(Consumer<TeamContext> body) {
        Objects.requireNonNull(body, "body");
        effective().run(body);
    }

    // ------------------------------------------------------------------ fork/join

    /** Submits a task to the team's ForkJoinPool (created on first use, parallelism = team size). */
    public <T> ForkJoinTask<T> fork(Callable<T> task) {
        return pool().submit(task);
    }

    /** Runs a fork/join task tree on the team's pool and returns its result. */
    public <T> T invoke(ForkJoinTask<T> task) {
        return pool().invoke(task);
    }

    private synchronized ForkJoinPool pool() {
        if (closed) {
            throw new IllegalStateException("team is closed");
        }
        if (pool == null) {
            pool = new ForkJoinPool(size);
        }
        return pool;
    }

    // ------------------------------------------------------------------ dispatch

    TeamBarrier barrier() {
        return barrier;
    }

    double[] partials() {
        return partials;
    }

    void resetLoopCounter() {
        loopCounter.set(0);
    }

    boolean claimSingle(int construct) {
        return singleClaims.compareAndSet(construct, construct + 1);
    }

    private boolean insideThisTeam() {
        Thread t = Thread.currentThread();
        return t == runningCaller || (t instanceof Worker w && w.team() == this);
    }

    /**
     * The team that runs a construct started on this thread: this one, or for a nested
     * construct (started inside one of this team's jobs) a fresh team of one, so that the
     * construct runs serially on the calling member.
     */
    private Team effective() {
        return insideThisTeam() ? new Team(1) : this;
    }

    private void run(Consumer<TeamContext> body) {
        if (closed) {
            throw new IllegalStateException("team is closed");
        }
        dispatch.lock();
        try {
            prepare(body);
            runningCaller = Thread.currentThread();
            epoch = epoch + 1;
            for (Worker w : workers) {
                if (w.parked) {
                    LockSupport.unpark(w);
                }
            }
            runMember(0);
            awaitWorkers();
        } finally {
            runningCaller = null;
            job = null;
            dispatch.unlock();
        }
        rethrowFailure();
    }

    private void prepare(Consumer<TeamContext> body) {
        if (barrier.isBroken()) {
            barrier = new TeamBarrier(size);
        }
        for (TeamContext m : members) {
            m.reset();
        }
        loopCounter.set(0);
        singleClaims.set(0);
        failure.set(null);
        pending.set(size - 1);
        job = body;
    }


    private void runMember(int id) {
        try {
            job.accept(members[id]);
        } catch (TeamBarrier.Broken broken) {
            // released because another member failed; that failure is the one reported
        } catch (Throwable t) {
            if (!failure.compareAndSet(null, t)) {
                failure.get().addSuppressed(t);
            }
            barrier.breakBarrier();
        }
    }

    private void awaitWorkers() {
        int idle = 0;
        while (pending.get() != 0) {
            if (TeamIdle.parks(idle)) {
                waitingCaller = Thread.currentThread();
                if (pending.get() != 0) {
                    LockSupport.parkNanos(this, 1_000_000);
                }
                waitingCaller = null;
            } else {
                idle = TeamIdle.idle(idle);
            }
        }
    }

    private void rethrowFailure() {
        Throwable t = failure.getAndSet(null);
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new IllegalStateException(t);
        }
    }

    /** Stops the workers and the fork/join pool. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        for (Worker w : workers) {
            LockSupport.unpark(w);
        }
    }

    /** A persistent team thread: waits for the next epoch, runs the job as member {@code id}. */
    private final class Worker extends Thread {
        private final int id;
        volatile boolean parked;

        Worker(int id) {
            super("tessera-team-" + id);
            this.id = id;
            setDaemon(true);
        }

        Team team() {
            return Team.this;
        }

        @Override
        public void run() {
            long seen = 0;
            while (true) {
                int idle = 0;
                while (epoch == seen) {
                    if (closed) {
                        return;
                    }
                    if (TeamIdle.parks(idle)) {
                        parked = true;
                        if (epoch == seen && !closed) {
                            LockSupport.park(this);
                        }
                        parked = false;
                    } else {
                        idle = TeamIdle.idle(idle);
                    }
                }
                seen = epoch;
                runMember(id);
                if (pending.decrementAndGet() == 0) {
                    Thread caller = waitingCaller;
                    if (caller != null) {
                        LockSupport.unpark(caller);
                    }
                }
            }
        }
    }
}
