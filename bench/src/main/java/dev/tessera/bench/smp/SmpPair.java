package dev.tessera.bench.smp;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.CollectiveTuning;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import dev.tessera.comm.Status;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.device.smp.SmpFabric;

/**
 * Two smp ranks for benchmarks: rank 0 is driven by the benchmark thread, rank 1 is a
 * partner thread that either echoes every message (ping-pong) or receives windows of
 * messages and acknowledges each window (streaming bandwidth, as osu_bw does).
 */
final class SmpPair implements AutoCloseable {

    static final int DATA = 1;
    static final int ACK = 2;
    static final int STOP = 3;

    enum Mode { ECHO, STREAM }

    final Comm rank0;
    private final Thread partner;

    SmpPair(Mode mode, int bytes, int window) {
        SmpFabric fabric = new SmpFabric(2);
        this.rank0 = dev.tessera.internal.CommAccess.get().createWorld(fabric.device(0), ThreadLevel.MULTIPLE, new CollectiveTuning(), "localhost");
        Comm rank1 = dev.tessera.internal.CommAccess.get().createWorld(fabric.device(1), ThreadLevel.MULTIPLE, new CollectiveTuning(), "localhost");
        this.partner = new Thread(() -> {
            if (mode == Mode.ECHO) {
                echo(rank1, bytes);
            } else {
                stream(rank1, bytes, window);
            }
        }, "smp-bench-rank1");
        partner.setDaemon(true);
        partner.start();
    }

    private static void echo(Comm c, int bytes) {
        byte[] buf = new byte[bytes];
        Buffer b = Buffer.of(buf);
        while (true) {
            Status s = c.recv(b, 0, Comm.ANY_TAG);
            if (s.tag() == STOP) {
                return;
            }
            c.send(b, 0, DATA);
        }
    }

    private static void stream(Comm c, int bytes, int window) {
        byte[][] bufs = new byte[window][bytes];
        Request[] rs = new Request[window];
        Buffer ack = Buffer.of(new byte[1]);
        while (true) {
            for (int i = 0; i < window; i++) {
                rs[i] = c.irecv(Buffer.of(bufs[i]), 0, Comm.ANY_TAG);
            }
            Status[] st = Request.waitAll(rs);
            if (st[0].tag() == STOP) {
                return;
            }
            c.send(ack, 0, ACK);
        }
    }

    /** Stops the partner: one STOP message per receive it may have posted. */
    @Override
    public void close() throws InterruptedException {
        for (int i = 0; i < 64 && partner.isAlive(); i++) {
            rank0.isend(Buffer.of(new byte[0]), 1, STOP);
            partner.join(10);
        }
    }
}
