package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.DeviceRequest;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A nonblocking collective as a schedule of rounds (in the manner of libNBC and MPICH's
 * schedules): each round posts nonblocking sends and receives on the call's
 * {@link CollectiveChannel}, and once all of them have completed runs its local step
 * (copies, reductions), then the next round is posted. Nothing runs on a thread of its
 * own: the schedule advances whenever its request is tested or waited for, so a rank that
 * starts a collective, computes, and then waits overlaps the first round's transfers with
 * its computation (for alltoall, gather, scatter and allgather, the first round is all of them).
 *
 * <p>Invariants: rounds run in order; a round's local step runs exactly once, after every
 * transfer of the round completed without error; {@link #done} completes once, after the
 * last round's step and the call's agreement check ({@link CollectiveCheck}), or with the first error. {@link #advance} is synchronized: a request
 * tested from two threads (MULTIPLE) advances the schedule from one at a time.
 */
final class CollectiveSchedule {

    /** One round: transfers posted together, and the step run once they are all complete. */
    final class Round {
        private final List<MemorySegment> segments = new ArrayList<>();
        private final List<Integer> peers = new ArrayList<>();
        private final List<Boolean> sends = new ArrayList<>();
        private Runnable step;

        /** Sends {@code data} to communicator rank {@code peer} in this round. */
        Round send(MemorySegment data, int peer) {
            segments.add(data);
            peers.add(peer);
            sends.add(true);
            return this;
        }

        /** Receives into {@code into} from communicator rank {@code peer} in this round. */
        Round recv(MemorySegment into, int peer) {
            segments.add(into);
            peers.add(peer);
            sends.add(false);
            return this;
        }

        /** The local step run once this round's transfers have completed. */
        Round then(Runnable localStep) {
            this.step = localStep;
            return this;
        }
    }

    private final CollectiveChannel channel;
    private final List<Round> rounds = new ArrayList<>();
    /** Completed once, when the schedule ends (or fails): the request's completion. */
    final DeviceRequest done = new DeviceRequest(DeviceRequest.Kind.SEND);
    private int current = -1;
    private DeviceRequest[] inFlight = new DeviceRequest[0];

    CollectiveSchedule(CollectiveChannel channel) {
        this.channel = channel;
    }

    /** Adds a round at the end. */
    Round round() {
        Round r = new Round();
        rounds.add(r);
        return r;
    }

    /** Posts the first round (and runs any rounds that have no transfers); returns the request. */
    Request start(Comm comm, String call) {
        advance();
        Request r = new Request(comm, call, done, null, this::advance);
        r.waitingFor = this::waitingFor;
        return r;
    }

    /**
     * What the schedule waits for now, for hang reports: the communicator ranks of its current
     * round's transfers that have not completed, e.g. "[round 2 of 3: receive from rank 1]".
     */
    synchronized String waitingFor() {
        if (done.isComplete() || current < 0 || current >= rounds.size()) {
            return done.isComplete() ? null : "[waiting for the ranks to agree on the call]";
        }
        Round r = rounds.get(current);
        StringBuilder s = new StringBuilder("[round ").append(current + 1).append(" of ").append(rounds.size()).append(':');
        // post() puts the receives first, then the sends, each in the order the round lists them
        int n = 0;
        for (boolean send : new boolean[] {false, true}) {
            for (int i = 0; i < r.segments.size(); i++) {
                if (r.sends.get(i) == send) {
                    if (n < inFlight.length && !inFlight[n].isComplete()) {
                        s.append(send ? " send to rank " : " receive from rank ").append(r.peers.get(i)).append(',');
                    }
                    n++;
                }
            }
        }
        s.setLength(s.length() - 1);
        return s.append(']').toString();
    }

    /** Advances as far as possible without blocking; true once the schedule has ended. */
    synchronized boolean advance() {
        if (done.isComplete()) {
            return true;
        }
        try {
            while (true) {
                // compare signatures as soon as the neighbour's is in: on a mismatch a round may never complete
                channel.tryFinish();
                for (DeviceRequest r : inFlight) {
                    if (!r.isComplete()) {
                        return false;
                    }
                }
                if (current == rounds.size()) {
                    if (!channel.tryFinish()) {
                        return false; // every round is done; the result counts once the ranks are known to agree
                    }
                    done.completeSend();
                    return true;
                }
                for (DeviceRequest r : inFlight) {
                    channel.check(r);
                }
                if (current >= 0 && rounds.get(current).step != null) {
                    rounds.get(current).step.run();
                }
                current++;
                inFlight = current == rounds.size() ? new DeviceRequest[0] : post(rounds.get(current));
            }
        } catch (RuntimeException e) {
            TesseraException error = e instanceof TesseraException te ? te
                    : new TesseraException(ErrorClass.INTERN, channel.call() + ": " + e, e);
            done.complete(Comm.PROC_NULL, Comm.ANY_TAG, 0, 0, error);
            return true;
        }
    }

    private DeviceRequest[] post(Round r) {
        DeviceRequest[] out = new DeviceRequest[r.segments.size()];
        // receives first, so a peer's eager message finds its receive posted
        int n = 0;
        for (int i = 0; i < out.length; i++) {
            if (!r.sends.get(i)) {
                out[n++] = channel.irecv(r.segments.get(i), r.peers.get(i));
            }
        }
        for (int i = 0; i < out.length; i++) {
            if (r.sends.get(i)) {
                out[n++] = channel.isend(r.segments.get(i), r.peers.get(i));
            }
        }
        return out;
    }
}
