package dev.tessera.npbmz;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import dev.tessera.task.Team;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The boundary exchange between zones before every step: the reference's exch_qbc
 * (NPB3.4-MZ-MPI/SP-MZ/exch_qbc.f), planned once and then run without allocating arrays.
 *
 * <p>Every zone gives each of its four neighbours (periodic in x and y) the face values the
 * neighbour needs ({@link ZoneSolver#packFace}) and receives theirs
 * ({@link ZoneSolver#unpackFace}). One exchange runs in four phases, as the reference's does:
 * <ol>
 *   <li>pack: every outgoing face of every zone of this rank is copied into an out-buffer
 *       before any zone is written, so every zone gives the values of the previous step;</li>
 *   <li>post: one receive and one send per peer rank (nonblocking), carrying all faces
 *       between the two ranks;</li>
 *   <li>copy: faces between two zones of this rank go straight from the out-buffer into the
 *       neighbour, while the messages travel;</li>
 *   <li>finish: wait for the messages and unpack the received faces.</li>
 * </ol>
 *
 * <p>Message layout (both sides derive it from the shared mapping, so nothing is sent about
 * it): the message from rank p to rank q holds, for every zone of p in ascending id and every
 * face in {@link Face} order whose neighbour lives on q, that face's values. The receiver walks
 * the same order and gives each block to the neighbour across the opposite face.
 *
 * <p>Pack and unpack of different faces touch disjoint memory (a face's interior points of
 * distinct zones, or distinct boundary planes of one zone), so they are spread over the team;
 * communication stays on the calling thread (FUNNELED).
 */
public final class BoundaryExchange {

    /** Tag of the exchange messages, on a communicator of the exchange's own. */
    private static final int TAG = 23;

    /** One face copy: from (zone, face) at buffer offset, or into it. */
    private record FaceSlot(ZoneSolver zone, Face face, double[] buffer, int offset) {
    }

    private final Comm comm;
    private final FaceSlot[] packs;
    private final FaceSlot[] localUnpacks;
    private final FaceSlot[] remoteUnpacks;
    private final int[] peers;
    private final double[][] sendBuffers;
    private final double[][] recvBuffers;
    private final Buffer[] sendViews;
    private final Buffer[] recvViews;
    private final Request[] requests;
    private final IntConsumer packOne;
    private final IntConsumer unpackLocalOne;
    private final IntConsumer unpackRemoteOne;
    private long bytesSentPerExchange;

    /**
     * Plans the exchange of this rank.
     *
     * @param comm    the communicator of the job (duplicated for the exchange's messages)
     * @param mapping the zone-to-rank mapping, the same on every rank
     * @param solvers the solver of each zone of this rank, indexed by zone id (null elsewhere)
     */
    public BoundaryExchange(Comm comm, ZoneMapping mapping, ZoneSolver[] solvers) {
        this.comm = comm.size() > 1 ? comm.dup() : comm;
        ZoneLayout layout = mapping.layout();
        int me = comm.rank();
        int ranks = comm.size();
        if (solvers.length != layout.zones()) {
            throw new IllegalArgumentException("rank " + me + ": exch_qbc: " + solvers.length + " solver slots for "
                    + layout.zones() + " zones");
        }
        // Sizes first: how many doubles go to and come from each rank.
        int[] sendSize = new int[ranks];
        int[] recvSize = new int[ranks];
        int localSize = 0;
        for (int z = 0; z < layout.zones(); z++) {
            for (Face f : Face.values()) {
                int nb = layout.neighbour(z, f);
                int from = mapping.rankOf(z);
                int to = mapping.rankOf(nb);
                if (from == me && to == me) {
                    localSize += solver(solvers, z, me).faceLength(f);
                } else if (from == me) {
                    sendSize[to] += solver(solvers, z, me).faceLength(f);
                } else if (to == me) {
                    recvSize[from] += solver(solvers, nb, me).faceLength(ZoneLayout.opposite(f));
                }
            }
        }
        double[] localBuffer = new double[localSize];
        sendBuffers = new double[ranks][];
        recvBuffers = new double[ranks][];
        List<Integer> peerList = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            sendBuffers[r] = new double[sendSize[r]];
            recvBuffers[r] = new double[recvSize[r]];
            if (r != me && (sendSize[r] > 0 || recvSize[r] > 0)) {
                peerList.add(r);
            }
            bytesSentPerExchange += 8L * sendSize[r];
        }
        // Then the slots, in the order both sides agree on.
        List<FaceSlot> packList = new ArrayList<>();
        List<FaceSlot> local = new ArrayList<>();
        List<FaceSlot> remote = new ArrayList<>();
        int localOffset = 0;
        int[] sendOffset = new int[ranks];
        int[] recvOffset = new int[ranks];
        for (int z = 0; z < layout.zones(); z++) {
            for (Face f : Face.values()) {
                int nb = layout.neighbour(z, f);
                int from = mapping.rankOf(z);
                int to = mapping.rankOf(nb);
                Face back = ZoneLayout.opposite(f);
                if (from == me && to == me) {
                    packList.add(new FaceSlot(solvers[z], f, localBuffer, localOffset));
                    local.add(new FaceSlot(solvers[nb], back, localBuffer, localOffset));
                    localOffset += solvers[z].faceLength(f);
                } else if (from == me) {
                    packList.add(new FaceSlot(solvers[z], f, sendBuffers[to], sendOffset[to]));
                    sendOffset[to] += solvers[z].faceLength(f);
                } else if (to == me) {
                    remote.add(new FaceSlot(solvers[nb], back, recvBuffers[from], recvOffset[from]));
                    recvOffset[from] += solvers[nb].faceLength(back);
                }
            }
        }
        packs = packList.toArray(new FaceSlot[0]);
        localUnpacks = local.toArray(new FaceSlot[0]);
        remoteUnpacks = remote.toArray(new FaceSlot[0]);
        peers = peerList.stream().mapToInt(Integer::intValue).toArray();
        sendViews = new Buffer[peers.length];
        recvViews = new Buffer[peers.length];
        for (int p = 0; p < peers.length; p++) {
            sendViews[p] = Buffer.of(sendBuffers[peers[p]]);
            recvViews[p] = Buffer.of(recvBuffers[peers[p]]);
        }
        requests = new Request[2 * peers.length];
        packOne = i -> packs[i].zone().packFace(packs[i].face(), packs[i].buffer(), packs[i].offset());
        unpackLocalOne = i -> localUnpacks[i].zone().unpackFace(localUnpacks[i].face(), localUnpacks[i].buffer(),
                localUnpacks[i].offset());
        unpackRemoteOne = i -> remoteUnpacks[i].zone().unpackFace(remoteUnpacks[i].face(), remoteUnpacks[i].buffer(),
                remoteUnpacks[i].offset());
    }

    private static ZoneSolver solver(ZoneSolver[] solvers, int zone, int me) {
        ZoneSolver s = solvers[zone];
        if (s == null) {
            throw new IllegalArgumentException("rank " + me + ": exch_qbc: no solver for zone " + zone
                    + ", which the mapping gives to this rank");
        }
        return s;
    }

    /** Runs one exchange; pack and unpack are spread over {@code team}, messages go from the calling thread. */
    public void exchange(Team team) {
        forEach(team, packs.length, packOne);
        int n = 0;
        for (int p = 0; p < peers.length; p++) {
            if (recvViews[p].count() > 0) {
                requests[n++] = comm.irecv(recvViews[p], peers[p], TAG);
            }
        }
        for (int p = 0; p < peers.length; p++) {
            if (sendViews[p].count() > 0) {
                requests[n++] = comm.isend(sendViews[p], peers[p], TAG);
            }
        }
        forEach(team, localUnpacks.length, unpackLocalOne);
        for (int i = 0; i < n; i++) {
            requests[i].await();
            requests[i] = null;
        }
        forEach(team, remoteUnpacks.length, unpackRemoteOne);
    }

    private static void forEach(Team team, int n, IntConsumer body) {
        if (team.size() == 1 || n < 2) {
            for (int i = 0; i < n; i++) {
                body.accept(i);
            }
        } else {
            team.parallelFor(0, n, body);
        }
    }

    /** Ranks this rank exchanges messages with. */
    public int[] peers() {
        return peers.clone();
    }

    /** Faces copied between zones of this rank per exchange. */
    public int localCopies() {
        return localUnpacks.length;
    }

    /** Faces received from other ranks per exchange. */
    public int remoteFaces() {
        return remoteUnpacks.length;
    }

    /** Bytes this rank sends per exchange. */
    public long bytesSent() {
        return bytesSentPerExchange;
    }

    /** Releases the exchange's communicator. */
    public void close() {
        if (comm.size() > 1 && !comm.isFreed()) {
            comm.free();
        }
    }

    @Override
    public String toString() {
        return "BoundaryExchange[peers=" + Arrays.toString(peers) + ", local copies=" + localUnpacks.length
                + ", remote faces=" + remoteUnpacks.length + "]";
    }
}
