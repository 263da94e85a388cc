package dev.tessera.io.cache;

/** Which cached chunk leaves first when a tier is over its byte budget. */
public enum EvictionPolicy {
    /** Least recently used: a hit moves the chunk to the back of the line. */
    LRU,
    /** First in, first out: hits do not change the order. */
    FIFO
}
