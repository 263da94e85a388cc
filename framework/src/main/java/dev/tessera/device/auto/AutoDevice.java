package dev.tessera.device.auto;

import dev.tessera.device.DeviceRequest;
import dev.tessera.device.Envelope;
import dev.tessera.device.IdleStrategy;
import dev.tessera.device.JobFailure;
import dev.tessera.device.MatchingDevice;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.shm.ShmDevice;
import dev.tessera.device.tcp.TcpDevice;
import java.lang.foreign.MemorySegment;

/**
 * Shared memory between ranks on the same node, TCP between nodes, in one job. Both
 * transports deliver into this rank's one {@link MatchingEngine}, so receives, probes and
 * wildcards see every message; each sender reaches a given peer through exactly one
 * transport, so per-sender order (MPI non-overtaking) holds.
 */
public final class AutoDevice extends MatchingDevice {

    private final int rank;
    private final int size;
    private final TcpDevice tcp;
    private final ShmDevice shm;

    /** Ties the transports together; {@code shm} may be null when this rank is alone on its node. */
    public AutoDevice(MatchingEngine engine, JobFailure failure, TcpDevice tcp, ShmDevice shm) {
        super(engine, failure, IdleStrategy.backoff());
        this.rank = tcp.rank();
        this.size = tcp.size();
        this.tcp = tcp;
        this.shm = shm;
        tcp.pollOnly(java.util.stream.IntStream.range(0, size).filter(r -> r != rank && (shm == null || !shm.reaches(r)))
                .toArray());
    }

    @Override
    public String name() {
        return "auto";
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long eagerLimit() {
        return tcp.eagerLimit();
    }

    /** The transport used to reach a rank: "self", "shm" or "tcp". */
    public String transportTo(int dest) {
        return dest == rank ? "self" : shm != null && shm.reaches(dest) ? "shm" : "tcp";
    }

    @Override
    public DeviceRequest isend(MemorySegment buffer, int dest, int tag, int context, int typeCode, boolean synchronous) {
        failure.check();
        if (dest == rank) {
            return deliverLocally(engine, buffer, new Envelope(rank, tag, context, buffer.byteSize(), typeCode),
                    !synchronous && buffer.byteSize() <= eagerLimit(), new DeviceRequest(DeviceRequest.Kind.SEND));
        }
        if (shm != null && shm.reaches(dest)) {
            return shm.isend(buffer, dest, tag, context, typeCode, synchronous);
        }
        return tcp.isend(buffer, dest, tag, context, typeCode, synchronous);
    }

    @Override
    public boolean progress() {
        boolean local = shm != null && shm.progress();
        return tcp.progress() | local;
    }

    @Override
    protected void pollingStarted() {
        tcp.beginPolling();
    }

    @Override
    protected void pollingParks() {
        tcp.pollerParks();
    }

    @Override
    protected void pollingEnded(boolean parked) {
        tcp.endPolling(parked);
    }

    @Override
    public void checkHealthy() {
        if (shm != null) {
            shm.checkHealthy();
        }
        super.checkHealthy();
    }

    @Override
    public void abort(int failedRank, Throwable cause) {
        super.abort(failedRank, cause);
        if (shm != null) {
            shm.abort(failedRank, cause);
        }
        tcp.abort(failedRank, cause);
    }

    @Override
    public void close() {
        if (shm != null) {
            shm.close();
        }
        tcp.close();
    }
}
