package dev.tessera.comm;

/**
 * How a rank's threads may call into Tessera, as in MPI. The level is requested at init
 * and enforced where cheap: under {@link #FUNNELED} a call from a thread other than the
 * one that initialised the rank is rejected with a clear error instead of racing.
 */
public enum ThreadLevel {
    /** One thread per rank. Treated like FUNNELED. */
    SINGLE,
    /** Many threads, but only the thread that called init communicates (the default). */
    FUNNELED,
    /** Any thread may communicate, one at a time (the application serializes calls). */
    SERIALIZED,
    /** Any thread may communicate at any time; Tessera is fully thread-safe. */
    MULTIPLE
}
