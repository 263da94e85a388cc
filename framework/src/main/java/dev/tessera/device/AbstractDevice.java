package dev.tessera.device;

/**
 * What every device shares: the job-failure state and the wait loop (progress, then the
 * idle strategy, registering as waiter before parking so completers can unpark us).
 */
public abstract class AbstractDevice implements Device {

    protected final JobFailure failure;
    protected final IdleStrategy idle;

    protected AbstractDevice(JobFailure failure, IdleStrategy idle) {
        this.failure = failure;
        this.idle = idle;
    }

    @Override
    public void await(DeviceRequest request) {
        if (request.isComplete()) {
            return;
        }
        BackoffIdleStrategy backoff = idle instanceof BackoffIdleStrategy b ? b : null;
        int idleCount = 0;
        boolean registered = false;
        BlockedCalls.Wait blocked = BlockedCalls.enter(this, request);
        pollingStarted();
        try {
            while (!request.isComplete()) {
                if (progress()) {
                    idleCount = 0;
                    continue;
                }
                if (backoff == null || backoff.parks(idleCount)) {
                    if (!registered) {
                        request.registerWaiter();
                        registered = true;
                        pollingParks();
                        if (request.isComplete()) {
                            break;
                        }
                    }
                    failure.check();
                }
                idle.idle(idleCount++);
            }
        } finally {
            BlockedCalls.exit(blocked);
            pollingEnded(registered);
            if (registered) {
                request.clearWaiter();
            }
        }
    }

    /** A thread starts waiting by polling ({@link #progress()} in a loop). */
    protected void pollingStarted() {
    }

    /** The waiting thread stops polling and is about to park until a completer wakes it (or briefly). */
    protected void pollingParks() {
    }

    /** The wait is over; {@code parked} if {@link #pollingParks()} was called during it. */
    protected void pollingEnded(boolean parked) {
    }

    @Override
    public void checkHealthy() {
        failure.check();
    }

    @Override
    public void abort(int failedRank, Throwable cause) {
        failure.report(failedRank, cause);
    }

    @Override
    public JobFailure.Origin failureOrigin() {
        return failure.origin();
    }
}
