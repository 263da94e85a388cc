package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.DeviceRequest;
import java.lang.foreign.MemorySegment;
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
 * group whose leader has the lower world rank).
 *
 * <p>Collectives on the intercommunicator are MPI-2's intercommunicator collectives, over
 * both groups: {@link #barrier}, {@link #allreduce} (each group gets the reduction of the
 * other group's contributions), {@link #allgather} (each group gets the other group's blocks,
 * in remote rank order), {@link #alltoall} (block j of {@code send} goes to remote rank j;
 * block j of {@code recv} comes from remote rank j), and the rooted {@link #bcast},
 * {@link #reduce}, {@link #gather} and {@link #scatter}, in which data flows between the
 * root and the other group: the root passes {@link Comm#ROOT}, the rest of its group
 * {@link Comm#PROC_NULL} (they take no part), and every member of the other group the
 * root's rank in the root's group. Buffers of remote-group size hold remote-size blocks
 * (gather and scatter at the root, allgather and alltoall everywhere). They run over the
 * local groups' intracommunicators and the leaders' messages on the internal context. The
 * other collectives (the v-variants, scans, the nonblocking and object collectives) are
 * not provided: they fail with a COMM error; merge first.
 */
public final class InterComm extends Comm {

    /** Tag of the leaders' internal messages, on the internal context (context + 1). */
    private static final int LEADER_TAG = 0;
    /** Tags of the collectives' messages across the groups, on the internal context. */
    private static final int BARRIER_TAG = 1, BCAST_TAG = 2, REDUCE_TAG = 3, ALLREDUCE_TAG = 4, GATHER_TAG = 5,
            SCATTER_TAG = 6, ALLGATHER_TAG = 7, ALLTOALL_TAG = 8;

    private final Group remote;
    /** The local group's private intracommunicator (context + 2). */
    private final Comm local;
    /** Point-to-point to the remote group on the internal context (context + 1): the collectives' messages. */
    private final Comm link;

    private InterComm(RankEnvironment env, Group localGroup, Group remote, int context) {
        super(env, localGroup, context);
        this.remote = remote;
        this.local = new Comm(env, localGroup, context + 2);
        this.link = new Link(env, localGroup, remote, context + 1);
    }

    /** The local group talking to the remote group on the internal context (only its point-to-point is used). */
    private static final class Link extends Comm {
        private final Group remote;

        Link(RankEnvironment env, Group localGroup, Group remote, int context) {
            super(env, localGroup, context);
            this.remote = remote;
        }

        @Override
        Group peers() {
            return remote;
        }
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

    // ------------------------------------------------------------------ intercommunicator collectives

    /** Returns once every rank of both groups has called barrier. */
    @Override
    public void barrier() {
        checkCall("InterComm.barrier");
        local.barrier();
        if (local.rank() == 0) {
            link.sendrecv(Buffer.empty(Datatype.BYTE), 0, BARRIER_TAG, Buffer.empty(Datatype.BYTE), 0, BARRIER_TAG);
        }
        local.barrier();
    }

    /** The root's ({@link Comm#ROOT}) buffer goes to every rank of the other group, which names the root's rank. */
    @Override
    public void bcast(Buffer buffer, int root) {
        String call = "InterComm.bcast";
        checkCall(call);
        checkInterRoot(call, root);
        if (root == PROC_NULL) {
            return;
        }
        if (root == ROOT) {
            checkBuffer(call, buffer, false);
            link.send(buffer, 0, BCAST_TAG);
            return;
        }
        checkBuffer(call, buffer, true);
        if (local.rank() == 0) {
            link.recv(buffer, root, BCAST_TAG);
        }
        local.bcast(buffer, 0);
    }

    /** The root ({@link Comm#ROOT}) gets in {@code recv} the reduction of the other group's {@code send}. */
    @Override
    public void reduce(Buffer send, Buffer recv, Op op, int root) {
        String call = "InterComm.reduce";
        checkCall(call);
        checkInterRoot(call, root);
        if (root == PROC_NULL) {
            return;
        }
        if (root == ROOT) {
            checkBuffer(call, recv, true);
            link.recv(recv, 0, REDUCE_TAG);
            return;
        }
        checkBuffer(call, send, false);
        Buffer partial = local.rank() == 0 ? scratch(send.type(), send.count()) : null;
        local.reduce(send, partial, op, 0);
        if (partial != null) {
            link.send(partial, root, REDUCE_TAG);
        }
    }

    /** Every rank gets in {@code recv} the reduction of the other group's {@code send} buffers. */
    @Override
    public void allreduce(Buffer send, Buffer recv, Op op) {
        String call = "InterComm.allreduce";
        checkCall(call);
        checkBuffer(call, send, false);
        checkBuffer(call, recv, true);
        Buffer partial = local.rank() == 0 ? scratch(send.type(), send.count()) : null;
        local.reduce(send, partial, op, 0);
        if (partial != null) {
            link.sendrecv(partial, 0, ALLREDUCE_TAG, recv, 0, ALLREDUCE_TAG);
        }
        local.bcast(recv, 0);
    }

    /** {@code inout} is this rank's contribution, then the reduction of the other group's (MPI has no in-place form here; this copies). */
    @Override
    public void allreduce(Buffer inout, Op op) {
        String call = "InterComm.allreduce";
        checkCall(call);
        checkBuffer(call, inout, true);
        allreduce(copyOf(inout), inout, op);
    }

    /** The root ({@link Comm#ROOT}) gets in block i of {@code recv} the {@code send} of the other group's rank i. */
    @Override
    public void gather(Buffer send, Buffer recv, int root) {
        String call = "InterComm.gather";
        checkCall(call);
        checkInterRoot(call, root);
        if (root == PROC_NULL) {
            return;
        }
        if (root == ROOT) {
            checkBuffer(call, recv, true);
            link.recv(recv, 0, GATHER_TAG);
            return;
        }
        checkBuffer(call, send, false);
        Buffer all = local.rank() == 0 ? scratch(send.type(), Math.multiplyExact(send.count(), size())) : null;
        local.gather(send, all, 0);
        if (all != null) {
            link.send(all, root, GATHER_TAG);
        }
    }

    /** Block i of the root's ({@link Comm#ROOT}) {@code send} goes to {@code recv} of the other group's rank i. */
    @Override
    public void scatter(Buffer send, Buffer recv, int root) {
        String call = "InterComm.scatter";
        checkCall(call);
        checkInterRoot(call, root);
        if (root == PROC_NULL) {
            return;
        }
        if (root == ROOT) {
            checkBuffer(call, send, false);
            link.send(send, 0, SCATTER_TAG);
            return;
        }
        checkBuffer(call, recv, true);
        Buffer all = local.rank() == 0 ? scratch(recv.type(), Math.multiplyExact(recv.count(), size())) : null;
        if (all != null) {
            link.recv(all, root, SCATTER_TAG);
        }
        local.scatter(all, recv, 0);
    }

    /** Every rank gets in block i of {@code recv} the {@code send} of remote rank i. */
    @Override
    public void allgather(Buffer send, Buffer recv) {
        String call = "InterComm.allgather";
        checkCall(call);
        checkBuffer(call, send, false);
        checkBuffer(call, recv, true);
        Buffer all = local.rank() == 0 ? scratch(send.type(), Math.multiplyExact(send.count(), size())) : null;
        local.gather(send, all, 0);
        if (all != null) {
            link.sendrecv(all, 0, ALLGATHER_TAG, recv, 0, ALLGATHER_TAG);
        }
        local.bcast(recv, 0);
    }

    /** Block j of {@code send} goes to remote rank j; block j of {@code recv} comes from remote rank j. */
    @Override
    public void alltoall(Buffer send, Buffer recv) {
        String call = "InterComm.alltoall";
        checkCall(call);
        checkBuffer(call, send, false);
        checkBuffer(call, recv, true);
        int r = remote.size();
        if (send.count() % r != 0 || recv.count() % r != 0) {
            throw new TesseraException(ErrorClass.COUNT, where(call) + ": send (" + send.count() + ") and receive ("
                    + recv.count() + ") element counts must be multiples of the remote group size " + r);
        }
        int sc = send.count() / r;
        int rc = recv.count() / r;
        Request[] requests = new Request[2 * r];
        for (int j = 0; j < r; j++) {
            requests[j] = link.irecv(recv.slice(j * rc, rc), j, ALLTOALL_TAG);
        }
        for (int j = 0; j < r; j++) {
            requests[r + j] = link.isend(send.slice(j * sc, sc), j, ALLTOALL_TAG);
        }
        for (Request q : requests) {
            q.await();
        }
    }

    private void checkInterRoot(String call, int root) {
        if (root != ROOT && root != PROC_NULL && (root < 0 || root >= remote.size())) {
            throw new TesseraException(ErrorClass.ROOT, where(call) + ": invalid root " + root + " (on an "
                    + "intercommunicator: Comm.ROOT at the root, Comm.PROC_NULL in the rest of its group, the root's rank "
                    + "0.." + (remote.size() - 1) + " in the other group)");
        }
    }

    /** A zeroed buffer of {@code count} elements (8-byte aligned). */
    private static Buffer scratch(Datatype type, int count) {
        long bytes = (long) count * type.byteSize();
        return Buffer.raw(MemorySegment.ofArray(new long[Math.toIntExact((bytes + 7) / 8)]).asSlice(0, bytes), type);
    }

    private static Buffer copyOf(Buffer b) {
        Buffer c = scratch(b.type(), b.count());
        MemorySegment.copy(b.sendSegment(), 0, c.receiveSegment(), 0, b.byteSize());
        return c;
    }

    /** The collectives that are not provided on an intercommunicator (see the class comment). */
    @Override
    synchronized Collectives collectives() {
        throw new TesseraException(ErrorClass.COMM, where("InterComm") + ": this collective operation is not provided on "
                + "an intercommunicator (barrier, bcast, reduce, allreduce, gather, scatter, allgather and alltoall are); "
                + "use merge(high) for an intracommunicator of both groups");
    }

    @Override
    public String toString() {
        return "InterComm[rank " + rank() + " of " + size() + ", remote size " + remote.size() + ", context " + context
                + ", " + env.device.name() + "]";
    }
}
