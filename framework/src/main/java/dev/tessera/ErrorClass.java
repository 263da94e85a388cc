package dev.tessera;

/** The MPI error classes a Tessera call can fail with; carried by {@link TesseraException}. */
public enum ErrorClass {
    /** Invalid buffer (null, read-only where written, wrong element type for the call). */
    BUFFER,
    /** Invalid count (negative, or larger than the buffer). */
    COUNT,
    /** Invalid element type, or a message whose element type differs from the receive's. */
    TYPE,
    /** Invalid tag. */
    TAG,
    /** Invalid communicator, or a communicator used after free. */
    COMM,
    /** Invalid rank. */
    RANK,
    /** Invalid root of a collective. */
    ROOT,
    /** Invalid group. */
    GROUP,
    /** Invalid reduction operation for the element type. */
    OP,
    /** Invalid topology, or a topology call on a communicator without one. */
    TOPOLOGY,
    /** Invalid dimension argument. */
    DIMS,
    /** Any other invalid argument. */
    ARG,
    /** Message larger than the receive buffer. */
    TRUNCATE,
    /** Invalid request (freed, or not started). */
    REQUEST,
    /** Another rank of the job failed; the job is being torn down. */
    PROC_FAILED,
    /** The operation is not allowed at this thread level or in this state. */
    OTHER,
    /** A bug in Tessera: please report it. */
    INTERN
}
