package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;

/**
 * An ordered set of processes, as in mpiJava 1.2. Groups are immutable; the set operations
 * ({@link #Union}, {@link #Intersection}, {@link #Difference}) are static and follow MPI's
 * ordering rules.
 */
public class Group {

    final dev.tessera.comm.Group inner;

    Group(dev.tessera.comm.Group inner) {
        this.inner = inner;
    }

    /** Number of processes in the group. */
    public int Size() throws MPIException {
        return inner.size();
    }

    /** The calling process's rank in the group, or {@link MPI#UNDEFINED} if it is not a member. */
    public int Rank() throws MPIException {
        int r = inner.rankOf(MPI.worldRank());
        return r == dev.tessera.comm.Group.UNDEFINED ? MPI.UNDEFINED : r;
    }

    /** For each rank of {@code group1} in {@code ranks1}, its rank in {@code group2} or {@link MPI#UNDEFINED}. */
    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) throws MPIException {
        return MPI.call(() -> {
            int[] out = group1.inner.translateRanks(ranks1, group2.inner);
            for (int i = 0; i < out.length; i++) {
                if (out[i] == dev.tessera.comm.Group.UNDEFINED) {
                    out[i] = MPI.UNDEFINED;
                }
            }
            return out;
        });
    }

    /** {@link MPI#IDENT} (same members, same order), {@link MPI#SIMILAR} (same members) or {@link MPI#UNEQUAL}. */
    public static int Compare(Group group1, Group group2) throws MPIException {
        return compare(group1.inner, group2.inner);
    }

    static int compare(dev.tessera.comm.Group a, dev.tessera.comm.Group b) {
        if (a.equals(b)) {
            return MPI.IDENT;
        }
        return a.size() == b.size() && a.intersection(b).size() == a.size() ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** Members of {@code group1}, then the members of {@code group2} not in {@code group1}. */
    public static Group Union(Group group1, Group group2) throws MPIException {
        return MPI.call(() -> new Group(group1.inner.union(group2.inner)));
    }

    /** Members of {@code group1} that are also in {@code group2}, in {@code group1}'s order. */
    public static Group Intersection(Group group1, Group group2) throws MPIException {
        return MPI.call(() -> new Group(group1.inner.intersection(group2.inner)));
    }

    /** Members of {@code group1} that are not in {@code group2}, in {@code group1}'s order. */
    public static Group Difference(Group group1, Group group2) throws MPIException {
        return MPI.call(() -> new Group(group1.inner.difference(group2.inner)));
    }

    /** The members at {@code ranks}, in that order. */
    public Group Incl(int[] ranks) throws MPIException {
        return MPI.call(() -> new Group(inner.incl(ranks)));
    }

    /** This group without the members at {@code ranks}. */
    public Group Excl(int[] ranks) throws MPIException {
        return MPI.call(() -> new Group(inner.excl(ranks)));
    }

    /** The members in the ranges {@code {first, last, stride}}, in order. */
    public Group Range_incl(int[][] ranges) throws MPIException {
        return MPI.call(() -> new Group(inner.incl(expand("Group.Range_incl", ranges))));
    }

    /** This group without the members in the ranges {@code {first, last, stride}}. */
    public Group Range_excl(int[][] ranges) throws MPIException {
        return MPI.call(() -> new Group(inner.excl(expand("Group.Range_excl", ranges))));
    }

    private static int[] expand(String call, int[][] ranges) {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int[] r : ranges) {
            if (r == null || r.length != 3 || r[2] == 0) {
                throw new TesseraException(ErrorClass.ARG, MPI.where(call) + ": each range must be {first, last, stride != 0}");
            }
            for (int i = r[0]; r[2] > 0 ? i <= r[1] : i >= r[1]; i += r[2]) {
                out.add(i);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Releases the group (nothing to release: groups are immutable values). */
    public void Free() throws MPIException {
    }

    @Override
    public String toString() {
        return inner.toString();
    }
}
