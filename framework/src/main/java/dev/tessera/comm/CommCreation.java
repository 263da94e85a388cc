package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How new communicators come to be. Each creation is collective over the parent and
 * agrees on a fresh context id with an allreduce(MAX) of every member's next free id:
 * the result is unused on every member, and afterwards every member's next free id is
 * above it, so two communicators that share a rank never share a context. Disjoint
 * communicators (different colors of one split) may share an id: no message can pass
 * between them, since each rank sends only to members of its own communicator.
 * Creations on one rank are serialized by the rank's context lock.
 */
final class CommCreation {

    private CommCreation() {
    }

    static int agreeOnContext(Comm parent) {
        RankEnvironment env = parent.env;
        env.contextLock.lock();
        try {
            int[] next = {env.nextContext()};
            parent.collectives().reductions().allreduce(null, Buffer.of(next), Op.MAX);
            env.contextTaken(next[0]);
            return next[0];
        } finally {
            env.contextLock.unlock();
        }
    }

    /** Tells the device about a new communicator (called by its members only, in creation order). */
    private static void created(Comm parent, int context, Group group) {
        parent.env.device.contextCreated(context, group.worldRanks());
    }

    static Comm dup(Comm parent) {
        int context = agreeOnContext(parent);
        created(parent, context, parent.group);
        if (parent instanceof CartComm cart) {
            return new CartComm(parent.env, parent.group, context, cart.dims(), cart.periods());
        }
        return new Comm(parent.env, parent.group, context);
    }

    static Comm split(Comm parent, int color, int key) {
        if (color < 0 && color != Comm.UNDEFINED) {
            throw new TesseraException(ErrorClass.ARG, parent.where("Comm.split") + ": invalid color " + color
                    + " (must be >= 0 or Comm.UNDEFINED)");
        }
        int p = parent.size();
        int[] all = new int[2 * p];
        parent.collectives().allgather(Buffer.of(new int[] {color, key}), Buffer.of(all));
        int context = agreeOnContext(parent);
        if (color == Comm.UNDEFINED) {
            return null;
        }
        List<Integer> members = new ArrayList<>();
        for (int r = 0; r < p; r++) {
            if (all[2 * r] == color) {
                members.add(r);
            }
        }
        members.sort(Comparator.<Integer>comparingInt(r -> all[2 * r + 1]).thenComparingInt(r -> r));
        int[] world = members.stream().mapToInt(parent.group::worldRank).toArray();
        Group group = new Group(world);
        created(parent, context, group);
        return new Comm(parent.env, group, context);
    }

    static Comm create(Comm parent, Group subgroup) {
        if (subgroup == null) {
            throw new TesseraException(ErrorClass.GROUP, parent.where("Comm.create") + ": group is null");
        }
        for (int w : subgroup.worldRanks()) {
            if (parent.group.rankOf(w) == Group.UNDEFINED) {
                throw new TesseraException(ErrorClass.GROUP, parent.where("Comm.create")
                        + ": group member (world rank " + w + ") is not in the communicator");
            }
        }
        int context = agreeOnContext(parent);
        if (subgroup.rankOf(parent.env.device.rank()) == Group.UNDEFINED) {
            return null;
        }
        created(parent, context, subgroup);
        return new Comm(parent.env, subgroup, context);
    }

    static CartComm cart(Comm parent, int[] dims, boolean[] periods) {
        String call = "Comm.createCart";
        if (dims == null || periods == null || dims.length != periods.length) {
            throw new TesseraException(ErrorClass.DIMS, parent.where(call) + ": dims and periods must be non-null and of equal length");
        }
        long n = 1;
        for (int d : dims) {
            if (d <= 0) {
                throw new TesseraException(ErrorClass.DIMS, parent.where(call) + ": dimension " + d + " must be positive");
            }
            n *= d;
        }
        if (n > parent.size()) {
            throw new TesseraException(ErrorClass.DIMS, parent.where(call) + ": grid of " + n
                    + " ranks is larger than the communicator (" + parent.size() + ")");
        }
        int context = agreeOnContext(parent);
        if (parent.rank() >= n) {
            return null;
        }
        int[] world = new int[(int) n];
        for (int r = 0; r < n; r++) {
            world[r] = parent.group.worldRank(r);
        }
        Group group = new Group(world);
        created(parent, context, group);
        return new CartComm(parent.env, group, context, dims.clone(), periods.clone());
    }

    /** The sub-grid communicator keeping the dimensions where {@code remain} is true. */
    static CartComm sub(CartComm parent, boolean[] remain) {
        int[] dims = parent.dims();
        if (remain == null || remain.length != dims.length) {
            throw new TesseraException(ErrorClass.DIMS, parent.where("CartComm.sub") + ": remain must have "
                    + dims.length + " entries");
        }
        int[] me = parent.coords();
        int color = 0;
        int key = 0;
        List<Integer> keptDims = new ArrayList<>();
        for (int d = 0; d < dims.length; d++) {
            if (remain[d]) {
                key = key * dims[d] + me[d];
                keptDims.add(d);
            } else {
                color = color * dims[d] + me[d];
            }
        }
        Comm flat = split(parent, color, key);
        int[] subDims = keptDims.stream().mapToInt(d -> dims[d]).toArray();
        boolean[] subPeriods = new boolean[subDims.length];
        for (int i = 0; i < subDims.length; i++) {
            subPeriods[i] = parent.periods()[keptDims.get(i)];
        }
        return new CartComm(flat.env, flat.group, flat.context, subDims, subPeriods);
    }
}
