package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An ordered set of processes, named by their world ranks. Immutable; set operations
 * follow MPI's ordering rules (union: this group's order, then the other's new members;
 * intersection and difference: this group's order).
 */
public final class Group {

    /** Returned by {@link #translateRanks} for a process that is not in the other group. */
    public static final int UNDEFINED = -32766;

    /** The group with no members. */
    public static final Group EMPTY = new Group(new int[0]);

    private final int[] worldRanks;
    /** Inverse of worldRanks: group rank by world rank, UNDEFINED for non-members. */
    private final int[] rankOfWorld;

    Group(int[] worldRanks) {
        this.worldRanks = worldRanks;
        int max = Arrays.stream(worldRanks).max().orElse(-1);
        this.rankOfWorld = new int[max + 1];
        Arrays.fill(rankOfWorld, UNDEFINED);
        for (int i = 0; i < worldRanks.length; i++) {
            if (worldRanks[i] < 0) {
                throw new TesseraException(ErrorClass.GROUP, "invalid process " + worldRanks[i] + " in a group");
            }
            if (rankOfWorld[worldRanks[i]] != UNDEFINED) {
                throw new TesseraException(ErrorClass.GROUP, "process " + worldRanks[i] + " appears twice in a group");
            }
            rankOfWorld[worldRanks[i]] = i;
        }
    }

    private boolean contains(int worldRank) {
        return worldRank >= 0 && worldRank < rankOfWorld.length && rankOfWorld[worldRank] != UNDEFINED;
    }

    static Group range(int size) {
        int[] ranks = new int[size];
        Arrays.setAll(ranks, i -> i);
        return new Group(ranks);
    }

    public int size() {
        return worldRanks.length;
    }

    /** World rank of group rank {@code rank}. */
    int worldRank(int rank) {
        return worldRanks[rank];
    }

    /** Group rank of a world rank, or {@link #UNDEFINED}. */
    int rankOfWorld(int worldRank) {
        return contains(worldRank) ? rankOfWorld[worldRank] : UNDEFINED;
    }

    int[] worldRanks() {
        return worldRanks.clone();
    }

    /** A group of the members at {@code ranks}, in that order. */
    public Group incl(int... ranks) {
        int[] w = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            w[i] = worldRanks[checkRank("Group.incl", ranks[i])];
        }
        return new Group(w);
    }

    /** This group without the members at {@code ranks}. */
    public Group excl(int... ranks) {
        boolean[] drop = new boolean[size()];
        for (int r : ranks) {
            int checked = checkRank("Group.excl", r);
            if (drop[checked]) {
                throw new TesseraException(ErrorClass.RANK, "Group.excl: rank " + r + " listed twice");
            }
            drop[checked] = true;
        }
        return new Group(Arrays.stream(indices()).filter(i -> !drop[i]).map(i -> worldRanks[i]).toArray());
    }

    /** Members of this group, then members of {@code other} not in this group. */
    public Group union(Group other) {
        Set<Integer> all = new LinkedHashSet<>();
        for (int w : worldRanks) {
            all.add(w);
        }
        for (int w : other.worldRanks) {
            all.add(w);
        }
        return new Group(all.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Members of this group that are also in {@code other}, in this group's order. */
    public Group intersection(Group other) {
        return new Group(Arrays.stream(worldRanks).filter(w -> other.contains(w)).toArray());
    }

    /** Members of this group that are not in {@code other}, in this group's order. */
    public Group difference(Group other) {
        return new Group(Arrays.stream(worldRanks).filter(w -> !other.contains(w)).toArray());
    }

    /** For each rank of this group in {@code ranks}, its rank in {@code other} or {@link #UNDEFINED}. */
    public int[] translateRanks(int[] ranks, Group other) {
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = ranks[i] == Comm.PROC_NULL ? Comm.PROC_NULL
                    : other.rankOfWorld(worldRanks[checkRank("Group.translateRanks", ranks[i])]);
        }
        return out;
    }

    /** Rank of the process with world rank {@code worldRank} in this group, or {@link #UNDEFINED}. */
    public int rankOf(int worldRank) {
        return rankOfWorld(worldRank);
    }

    private int[] indices() {
        int[] idx = new int[size()];
        Arrays.setAll(idx, i -> i);
        return idx;
    }

    private int checkRank(String call, int rank) {
        if (rank < 0 || rank >= worldRanks.length) {
            throw new TesseraException(ErrorClass.RANK, call + ": rank " + rank + " outside group of size " + worldRanks.length);
        }
        return rank;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Group g && Arrays.equals(worldRanks, g.worldRanks);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(worldRanks);
    }

    @Override
    public String toString() {
        return "Group" + Arrays.toString(worldRanks);
    }
}
