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
     * per node (the lowest rank of each node, from {@code Comm.splitByNode()}). Where the
     * framework has no {@code splitByNode} yet, one per group of {@code availableProcessors}
     * consecutive ranks (ranks are placed by node in blocks, and a node rarely runs more
     * ranks than cores). Collective when {@code requested} is 0.
     */
    static int[] choose(Comm comm, int requested) {
        if (requested == 0) {
            int[] leaders = nodeLeaders(comm);
            if (leaders != null) {
                return leaders;
            }
        }
        return evenly(comm.size(), requested);
    }

    static int[] evenly(int size, int requested) {
        int perNode = Math.max(1, Runtime.getRuntime().availableProcessors());
        int n = requested > 0 ? Math.min(requested, size) : Math.max(1, (size + perNode - 1) / perNode);
        int[] ranks = new int[n];
        for (int i = 0; i < n; i++) {
            ranks[i] = (int) ((long) i * size / n);
        }
        return ranks;
    }

    /** The lowest rank of each node, through Comm.splitByNode() where the framework has it; else null. */
    private static int[] nodeLeaders(Comm comm) {
        java.lang.reflect.Method split;
        try {
            split = Comm.class.getMethod("splitByNode");
        } catch (NoSuchMethodException e) {
            return null; // the same on every rank: all take the fallback together
        }
        Comm node;
        try {
            node = (Comm) split.invoke(comm);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("rank " + comm.rank() + ": Comm.splitByNode failed", e);
        }
        boolean leader = node.rank() == 0;
        node.free();
        java.util.List<Boolean> all = comm.allgatherObject(leader);
        return java.util.stream.IntStream.range(0, all.size()).filter(all::get).toArray();
    }
}
