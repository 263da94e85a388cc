package dev.tessera.io.pfile;

import dev.tessera.comm.Comm;

/**
 * Which ranks aggregate the file I/O of collective calls (ROMIO's cb_nodes): by default
 * one per node, as collective buffering wants (one stream per node's link to the file
 * system, no two aggregators of a node competing for it).
 */
final class AggregatorChoice {

    private AggregatorChoice() {
    }

    /**
     * Aggregators spread evenly over the ranks: {@code requested} of them, or by default one
     * per node (the lowest rank of each node, from {@link Comm#nodeMap()}). Collective when
     * {@code requested} is 0.
     */
    static int[] choose(Comm comm, int requested) {
        if (requested == 0) {
            return nodeLeaders(comm.nodeMap());
        }
        return evenly(comm.size(), requested);
    }

    static int[] evenly(int size, int requested) {
        int n = Math.min(requested, size);
        int[] ranks = new int[n];
        for (int i = 0; i < n; i++) {
            ranks[i] = (int) ((long) i * size / n);
        }
        return ranks;
    }

    /** The lowest rank of each node, given every rank's node (nodes numbered in order of their lowest rank). */
    static int[] nodeLeaders(int[] nodeOfRank) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        return java.util.stream.IntStream.range(0, nodeOfRank.length).filter(r -> seen.add(nodeOfRank[r])).toArray();
    }
}
