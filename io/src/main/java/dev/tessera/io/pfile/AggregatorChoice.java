package dev.tessera.io.pfile;

import dev.tessera.comm.Comm;

/**
 * Which ranks aggregate the file I/O of collective calls (ROMIO's cb_nodes): by default
 * one per node, as collective buffering wants (one stream per node's link to the file
 * system, no two aggregators of a node competing for it); on a single node every rank, up
 * to {@link #SINGLE_NODE_MAX}, so that the copies to and from the page cache run in parallel.
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
            int[] leaders = nodeLeaders(comm.nodeMap());
            // all on one node: no link to share, and the page cache copies are the work; every rank
            // (up to SINGLE_NODE_MAX) takes a share (pencil readAll of 1 GiB, 2 ranks: 0.42 -> 0.66 x dd)
            return leaders.length == 1 ? evenly(comm.size(), SINGLE_NODE_MAX) : leaders;
        }
        return evenly(comm.size(), requested);
    }

    /** The most aggregators the default picks when every rank is on one node. */
    static final int SINGLE_NODE_MAX = 8;

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
