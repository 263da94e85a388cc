package dev.tessera.comm;

/**
 * Which barrier algorithm runs, kept apart from the algorithms (as Open MPI's
 * coll_tuned_decision_fixed.c). Overridden by TESSERA_COLL_BARRIER (see {@link CollectiveTuning}).
 */
final class BarrierDecision {

    private BarrierDecision() {
    }

    /** Dissemination: ceil(log2 p) rounds whatever p, no power-of-two fix-up step. */
    static String choose(int ranks) {
        return "dissemination";
    }
}
