package dev.tessera.conformance;

import dev.tessera.runtime.Session;

/** The session of the rank running a {@link RankCase} on this thread (for cases that need more than the world communicator). */
public final class RankSessions {

    private static final InheritableThreadLocal<Session> CURRENT = new InheritableThreadLocal<>();

    private RankSessions() {
    }

    static void bind(Session s) {
        CURRENT.set(s);
    }

    public static Session current() {
        Session s = CURRENT.get();
        if (s == null) {
            throw new IllegalStateException("no rank session on thread " + Thread.currentThread().getName());
        }
        return s;
    }
}
