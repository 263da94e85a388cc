package dev.tessera.conformance;

import dev.tessera.comm.ThreadLevel;
import dev.tessera.launch.SmpJob;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.util.concurrent.TimeUnit;

/** Runs test jobs on the smp device: ranks are threads of the test JVM. */
public final class SmpJobRunner implements JobRunner {

    private final long timeoutSeconds;
    private final ThreadLevel level;

    public SmpJobRunner() {
        this(120, ThreadLevel.FUNNELED);
    }

    public SmpJobRunner(long timeoutSeconds, ThreadLevel level) {
        this.timeoutSeconds = timeoutSeconds;
        this.level = level;
    }

    @Override
    public SmpJobRunner withTimeLimitTimes(int times) {
        return new SmpJobRunner(timeoutSeconds * times, level);
    }

    @Override
    public String device() {
        return "smp";
    }

    @Override
    public void run(int ranks, ThreadLevel level, RankCase body) {
        new SmpJobRunner(timeoutSeconds, level).run(ranks, body);
    }

    @Override
    public void run(int ranks, RankCase body) {
        SmpJob job = new SmpJob(ranks);
        job.start(rank -> () -> {
            try (Session rt = Tessera.init(new String[0], level)) {
                RankSessions.bind(rt);
                body.run(rt.world());
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, null, 4 << 20);
        boolean finished;
        try {
            finished = job.join(timeoutSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the smp job", e);
        }
        SmpJob.RankOutcome failure = job.rootFailure();
        if (!finished) {
            AssertionError e = new AssertionError("smp job of " + ranks + " ranks did not finish within "
                    + timeoutSeconds + " s (a hang)");
            if (failure != null) {
                e.addSuppressed(failure.failure());
            }
            throw e;
        }
        if (failure != null) {
            Throwable t = failure.failure();
            if (t instanceof AssertionError ae) {
                throw ae;
            }
            throw new AssertionError("rank " + failure.rank() + " failed: " + t, t);
        }
    }

    @Override
    public String toString() {
        return device();
    }
}
