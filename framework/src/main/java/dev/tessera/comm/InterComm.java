package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.DeviceRequest;
import java.util.Arrays;

/**
 * An intercommunicator: two disjoint groups, the local one (this rank's) and the remote one,
 * joined by a private context. Point-to-point ranks name members of the remote group: a
 * send to rank r goes to remote rank r, a received status names the sender's rank in the
 * remote group. {@link #rank()}, {@link #size()} and {@link #group()} are the local group's.
 *
 * <p>Made by {@link Comm#createIntercomm} (MPI_Intercomm_create). Every member of both groups
 * calls it on its own group's communicator: the ranks of each group agree (allreduce MAX
 * over their communicator) on the next context id free on all of them, the two leaders
 * swap that id and their groups' world ranks over the peer communicator with the user's
 * tag, each leader broadcasts the larger id and the remote ranks to its group. The id is
 * then free on every member of both groups; the intercommunicator takes it (point-to-point)
 * and the next one (its internal messages), and the two after those go to a private
 * intracommunicator of the local group, with which {@link #merge} agrees among the local ranks.
 *
 * <p>{@link #merge} (MPI_Intercomm_merge) makes the intracommunicator of both groups: the
 * group whose ranks passed {@code high == false} comes first (if both passed the same, the
 * group whose leader has the lower world rank). Collective operations on the
 * intercommunicator itself (MPI's intercommunicator collectives) are not provided: they
 * fail with a COMM error; merge first.
 */
public final class InterComm extends Comm {

    /** Tag of the leaders' internal messages, on the internal context (context + 1). */
    private static final int LEADER_TAG = 0;

    private final Group remote;
    /** The local group's private intracommunicator (context + 2). */
    private final Comm local;

    private InterComm(RankEnvironment env, Group localGroup, Group remote, int context) {
        super(env, localGroup, context);
        this.remote = remote;
        this.local = new Comm(env, localGroup, context + 2);
    }

    static InterComm create(Comm localComm, int localLeader, Comm peer, int remoteLeader, int tag) {
        String call = "Comm.createIntercomm";
        if (localLeader < 0 || localLeader >= localComm.size()) {
            throw new TesseraException(ErrorClass.RANK, localComm.where(call) + ": invalid local leader " + localLeader
                    + " (communicator size " + localComm.size() + ")");
        }
        RankEnvironment env = localComm.env;
        env.contextLock.lock();
        try {
            int[] next = {env.nextContext()};
            localComm.collectives().reductions().allreduce(null, Buffer.of(next), Op.MAX);
            int[] mine = localComm.group.worldRanks();
            // message to the group: [error?, context, remote world ranks...]
            int[] agreed;
            if (localComm.rank() == localLeader) {
                agreed = leaderExchange(localComm, peer, remoteLeader, tag, next[0], mine);
            } else {
                agreed = null;
            }
            agreed = localComm.bcastObject(agreed, localLeader);
            if (agreed[0] != 0) {
                throw new TesseraException(ErrorClass.COMM, localComm.where(call)
                        + ": the local and remote groups overlap (they must be disjoint); remote world ranks "
                        + Arrays.toString(Arrays.copyOfRange(agreed, 2, agreed.length)));
            }
            int context = agreed[1];
            env.contextTaken(context + 2);          // context, context + 1: the intercommunicator; + 2, + 3: its local comm
            Group remote = new Group(Arrays.copyOfRange(agreed, 2, agreed.length));
            env.device.contextCreated(context + 2, mine);
            return new InterComm(env, localComm.group, remote, context);
        } finally {
            env.contextLock.unlock();
        }
    }

    /** The leaders swap their group's agreed context and world ranks over {@code peer}; the group's message. */
    private static int[] leaderExchange(Comm localComm, Comm peer, int remoteLeader, int tag, int next, int[] mine) {
        String call = "Comm.createIntercomm";
        if (peer == null) {
            throw new TesseraException(ErrorClass.COMM, localComm.where(call) + ": the local leader needs a peer communicator");
        }
        if (remoteLeader < 0 || remoteLeader >= peer.size() || remoteLeader == peer.rank()) {
            throw new TesseraException(ErrorClass.RANK, localComm.where(call) + ": invalid remote leader " + remoteLeader
                    + " (peer communicator size " + peer.size() + ", this leader is rank " + peer.rank() + " there)");
        }
        int[] sizes = new int[2];
        peer.sendrecv(Buffer.of(new int[] {next, mine.length}), remoteLeader, tag, Buffer.of(sizes), remoteLeader, tag);
        int[] theirs = new int[sizes[1]];
        peer.sendrecv(Buffer.of(mine), remoteLeader, tag, Buffer.of(theirs), remoteLeader, tag);
        int[] out = new int[2 + theirs.length];
        Group mineGroup = new Group(mine);
        for (int w : theirs) {
            if (mineGroup.rankOf(w) != Group.UNDEFINED) {
                out[0] = 1;
            }
        }
        out[1] = Math.max(next, sizes[0]);
        System.arraycopy(theirs, 0, out, 2, theirs.length);
        return out;
    }

    @Override
    Group peers() {
        return remote;
    }

    /** True. */
    @Override
    public boolean isInter() {
        return true;
    }

    /** Number of ranks in the remote group. */
    public int remoteSize() {
        return remote.size();
    }

    /** The remote group (ranks in it are the point-to-point ranks of this communicator). */
    public Group remoteGroup() {
        return remote;
    }

    /**
     * The intracommunicator of both groups (collective over both): the group whose ranks pass
     * {@code high == false} is ordered first; if both groups pass the same value, the group
     * whose leader has the lower world rank is first.
     */
    public Comm merge(boolean high) {
        String call = "InterComm.merge";
        checkCall(call);
        env.contextLock.lock();
        try {
            int[] decision = agree(call, high ? 1 : 0);      // [their high, agreed context] at every rank
            boolean localFirst = decision[0] != (high ? 1 : 0) ? !high : leaderFirst();
            int merged = decision[1];
            env.contextTaken(merged);
            int[] first = localFirst ? group.worldRanks() : remote.worldRanks();
            int[] second = localFirst ? remote.worldRanks() : group.worldRanks();
            int[] all = Arrays.copyOf(first, first.length + second.length);
            System.arraycopy(second, 0, all, first.length, second.length);
            env.device.contextCreated(merged, all);
            return new Comm(env, new Group(all), merged);
        } finally {
            env.contextLock.unlock();
        }
    }

    /** An intercommunicator with the same groups and a new context (collective over both groups). */
    @Override
    public InterComm dup() {
        String call = "InterComm.dup";
        checkCall(call);
        env.contextLock.lock();
        try {
            int context = agree(call, 0)[1];
            env.contextTaken(context + 2);
            env.device.contextCreated(context + 2, group.worldRanks());
            return new InterComm(env, group, remote, context);
        } finally {
            env.contextLock.unlock();
        }
    }

    /** True if the local group's leader has the lower world rank of the two leaders. */
    private boolean leaderFirst() {
        return group.worldRank(0) < remote.worldRank(0);
    }

    /**
     * Agrees with the remote group (collective over both; the context lock held): the local
     * leader swaps {@code value} and the local next free context with the remote leader;
     * every local rank gets [the remote group's value, the larger of the two contexts].
     */
    private int[] agree(String call, int value) {
        int[] next = {env.nextContext()};
        local.collectives().reductions().allreduce(null, Buffer.of(next), Op.MAX);
        int[] decision = new int[2];
        if (local.rank() == 0) {
            int[] theirs = new int[2];
            int[] mine = {value, next[0]};
            DeviceRequest s = env.device.isend(Buffer.of(mine).sendSegment(), remote.worldRank(0), LEADER_TAG,
                    context + 1, Datatype.INT.code(), false);
            DeviceRequest r = env.device.irecv(Buffer.of(theirs).receiveSegment(), remote.worldRank(0), LEADER_TAG,
                    context + 1, Datatype.INT.code());
            env.device.await(s);
            env.device.await(r);
            if (r.error() != null) {
                throw new TesseraException(ErrorClass.INTERN, where(call) + ": leader exchange failed", r.error());
            }
            decision[0] = theirs[0];
            decision[1] = Math.max(next[0], theirs[1]);
        }
        local.bcast(Buffer.of(decision), 0);
        return decision;
    }

    /** Collectives on the intercommunicator itself are not provided (merge first). */
    @Override
    synchronized Collectives collectives() {
        throw new TesseraException(ErrorClass.COMM, where("InterComm") + ": collective operations on an "
                + "intercommunicator are not provided; use merge(high) for an intracommunicator of both groups");
    }

    @Override
    public String toString() {
        return "InterComm[rank " + rank() + " of " + size() + ", remote size " + remote.size() + ", context " + context
                + ", " + env.device.name() + "]";
    }
}
