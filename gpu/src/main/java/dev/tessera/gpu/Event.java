package dev.tessera.gpu;

/**
 * The completion of one enqueued command (a copy, a launch, a marker). Commands of one
 * queue complete in order; {@link Queue#waitFor} makes a queue wait for events of others.
 */
public abstract class Event {

    private static final Event DONE = new Event() {
        @Override
        public void await() {
        }

        @Override
        public boolean isComplete() {
            return true;
        }
    };

    /** Blocks until the command completed; throws an {@link AcceleratorException} if it failed. */
    public abstract void await();

    /** True once the command completed (successfully or not); never blocks. */
    public abstract boolean isComplete();

    /** An event that is already complete (for commands with nothing to do). */
    public static Event completed() {
        return DONE;
    }

    /** Awaits every event in order. */
    public static void awaitAll(Event... events) {
        for (Event e : events) {
            e.await();
        }
    }
}
