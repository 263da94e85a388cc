package dev.tessera.task;

/** A loop body that receives a whole chunk of iterations {@code [from, to)}: one call per chunk, no per-index lambda. */
@FunctionalInterface
public interface RangeBody {
    void run(int from, int to);
}
