package dev.tessera.task;

/** Folds iteration {@code i} into an accumulated value (for {@link Team#reduce} of any type). */
@FunctionalInterface
public interface Accumulator<A> {
    A add(A accumulated, int i);
}
