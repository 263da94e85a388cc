package dev.tessera.comm;

import dev.tessera.TesseraException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The object receives of one communicator that have been posted and not yet matched. An
 * object message's size is known only once it has arrived, so an object receive cannot be
 * handed to the device up front; instead it waits here and is matched against arrived
 * messages whenever any of these receives is tested or waited for.
 *
 * <p>Matching keeps MPI's rule: a message goes to the earliest posted receive that matches
 * it, and each receive gets the first message (per source) that matches it. Messages may
 * arrive between two probes of one pass, so a hit found for one receive is first offered to
 * the receives posted before it, and the owner's own first match (possibly an earlier
 * message from the same source) is taken before the hit.
 */
final class ObjectReceiveQueue {

    private final Comm comm;
    private final List<ObjectRequest<?>> pending = new ArrayList<>();

    ObjectReceiveQueue(Comm comm) {
        this.comm = comm;
    }

    synchronized void add(ObjectRequest<?> r) {
        pending.add(r);
    }

    synchronized boolean hasPending() {
        return !pending.isEmpty();
    }

    synchronized boolean remove(ObjectRequest<?> r) {
        return pending.remove(r);
    }

    /** Matches pending receives against arrived messages, as far as they go. */
    synchronized void match() {
        for (int i = 0; i < pending.size(); ) {
            ObjectRequest<?> r = pending.get(i);
            Optional<Status> hit = comm.iprobe(r.source, r.tag);
            if (hit.isEmpty()) {
                i++;
                continue;
            }
            Status m = hit.get();
            ObjectRequest<?> owner = earliestMatching(m);
            while (true) {
                Optional<Status> first = comm.iprobe(owner.source, owner.tag);
                if (first.isEmpty() || (first.get().source() == m.source() && first.get().tag() == m.tag())) {
                    break;
                }
                m = first.get();
                owner = earliestMatching(m);
            }
            pending.remove(owner);
            try {
                owner.deliver(comm.receiveObjectNow(m.source(), m.tag(), "Comm.irecvObject"));
            } catch (TesseraException e) {
                owner.fail(e);
            }
            i = 0;
        }
    }

    private ObjectRequest<?> earliestMatching(Status m) {
        for (ObjectRequest<?> r : pending) {
            if ((r.source == Comm.ANY_SOURCE || r.source == m.source()) && (r.tag == Comm.ANY_TAG || r.tag == m.tag())) {
                return r;
            }
        }
        throw new IllegalStateException("no pending object receive matches " + m);
    }
}
