package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.device.Device;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.ReceiveRequest;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The packed small-message lane beside the cells ({@link ShmLane}): every message of a pair
 * has its entry in the lane, so the receiver matches in send order whichever path carries the
 * payload (lane inline, one cell, several cells, single copy, synchronous), over many laps of
 * the lane and with entries running into its overflow area; a payload word of an earlier lap
 * never passes for a new entry. Three ranks' devices share one mapped segment in this process;
 * the test drives their progress.
 */
@Timeout(120)
class ShmLaneTest {

    static final int CELL_BYTES = 4096;
    static final int CELLS = 8;
    static final int CAPACITY = CELL_BYTES - ShmLayout.CELL_HEADER;

    private InProcessShmRanks job;
    private MemorySegment file;
    private ShmDevice[] ranks;

    @BeforeEach
    void threeRanks() {
        job = new InProcessShmRanks(3, CELL_BYTES, CELLS);
        file = job.file;
        ranks = new ShmDevice[] {job.rank(0), job.rank(1), job.rank(2)};
    }

    @AfterEach
    void release() {
        job.close();
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            int x = (seed + 1) * 0x9E3779B1 + i * 0x85EBCA6B;
            b[i] = (byte) ((x ^ (x >>> 15) ^ (x >>> 24)) | 1);
        }
        return b;
    }

    private void untilComplete(DeviceRequest... requests) {
        job.untilComplete(requests);
    }

    /** Sizes on both sides of every path's limit: lane (inline), one cell, several cells. */
    private static int size(int i) {
        int[] sizes = {0, 8, 1, 32, 33, 96, 97, 500, ShmLayout.LANE_MAX, ShmLayout.LANE_MAX + 1, 2000, CAPACITY,
            CAPACITY + 1, 3 * CAPACITY + 7, 8, 8, 64, 24};
        return sizes[i % sizes.length] + (i / sizes.length) % 3;
    }

    @Test
    void messagesOfEveryPathArriveInSendOrderOverManyLaps() {
        // all sent before the receives (unexpected), some synchronous: the receiver must match them in
        // the sender's order with ANY_TAG, whichever path each took; several laps of the lane and cells
        int count = 3 * ShmLayout.LANE_LINES + 100;
        List<DeviceRequest> sends = new ArrayList<>();
        int received = 0;
        for (int i = 0; i < count; i++) {
            sends.add(ranks[0].isend(MemorySegment.ofArray(bytes(size(i), i)), 1, i % 7, 0, 0, i % 23 == 5));
            ranks[0].progress();
            ranks[1].progress();
            if (i % 50 == 49) {
                // receive in bursts so the lane and the cells fill and wrap
                for (; received < i - 20; received++) {
                    receiveAndCheck(received, Device.ANY_TAG);
                }
            }
        }
        for (; received < count; received++) {
            receiveAndCheck(received, Device.ANY_TAG);
        }
        untilComplete(sends.toArray(DeviceRequest[]::new));
        assertFalse(ranks[1].progress(), "nothing left to read after the last message");
    }

    private void receiveAndCheck(int i, int tag) {
        int n = size(i);
        ReceiveRequest r = ranks[1].irecv(MemorySegment.ofArray(new byte[n + 16]), 0, tag, 0, 0);
        untilComplete(r);
        assertNull(r.error(), () -> "message " + i + ": " + r.error());
        assertEquals(n, r.byteCount(), "message " + i + " in the sender's order");
        assertEquals(i % 7, r.tag(), "message " + i);
        assertArrayEquals(bytes(n, i), r.buffer().asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), "message " + i);
    }

    @Test
    void postedReceivesTakeMessagesInOrderAcrossLaneAndCells() {
        // receives posted first, one per message: for tag 3 where message i has tag 3, else for any tag
        // from any source; then a burst of mixed sizes. Message i matches receive i (the receives before
        // it are taken by the messages before it), whichever path it took
        int count = 400;
        List<ReceiveRequest> recvs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            recvs.add(i % 5 == 3
                    ? ranks[1].irecv(MemorySegment.ofArray(new byte[4 * CAPACITY]), 0, 3, 0, 0)
                    : ranks[1].irecv(MemorySegment.ofArray(new byte[4 * CAPACITY]), Device.ANY_SOURCE, Device.ANY_TAG, 0, 0));
        }
        List<DeviceRequest> sends = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sends.add(ranks[0].isend(MemorySegment.ofArray(bytes(size(i), i)), 1, i % 5 == 3 ? 3 : 1, 0, 0, i % 11 == 4));
            ranks[0].progress();
        }
        untilComplete(sends.toArray(DeviceRequest[]::new));
        untilComplete(recvs.toArray(DeviceRequest[]::new));
        for (int i = 0; i < count; i++) {
            ReceiveRequest r = recvs.get(i);
            int n = size(i);
            assertNull(r.error());
            assertEquals(n, r.byteCount(), "message " + i);
            assertEquals(i % 5 == 3 ? 3 : 1, r.tag(), "message " + i);
            assertArrayEquals(bytes(n, i), r.buffer().asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), "message " + i);
        }
    }

    @Test
    void anySourceReceivesKeepEachSendersOrderWithSeveralSendingThreads() throws Exception {
        // ranks 0 and 2 send to rank 1, rank 0 from two threads (thread level MULTIPLE), each stream of
        // mixed sizes through lane and cells; rank 1 receives from ANY_SOURCE with ANY_TAG and checks
        // that each stream's messages come in order and whole
        int perStream = 3000;
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> senders = new ArrayList<>();
        int[][] streams = {{0, 40}, {0, 41}, {2, 42}};
        for (int[] s : streams) {
            senders.add(Thread.ofPlatform().start(() -> {
                try {
                    List<DeviceRequest> pending = new ArrayList<>();
                    for (int i = 0; i < perStream; i++) {
                        byte[] data = bytes(size(i), s[1] * 100_000 + i);
                        System.arraycopy(new byte[] {(byte) s[1]}, 0, data, 0, Math.min(1, data.length));
                        pending.add(ranks[s[0]].isend(MemorySegment.ofArray(data), 1, s[1], 0, 0, i % 31 == 7));
                        if (pending.size() > 64) {
                            DeviceRequest d = pending.removeFirst();
                            while (!d.isComplete()) {
                                ranks[s[0]].progress();
                            }
                        }
                    }
                    for (DeviceRequest d : pending) {
                        while (!d.isComplete()) {
                            ranks[s[0]].progress();
                        }
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            }));
        }
        int[] next = new int[3];
        for (int k = 0; k < 3 * perStream; k++) {
            ReceiveRequest r = ranks[1].irecv(MemorySegment.ofArray(new byte[4 * CAPACITY]), Device.ANY_SOURCE,
                    Device.ANY_TAG, 0, 0);
            while (!r.isComplete()) {
                ranks[1].progress();
                assertNull(failed.get());
            }
            assertNull(r.error());
            int stream = r.tag() - 40;
            assertEquals(stream == 2 ? 2 : 0, r.source(), "source of a message of stream " + stream);
            int i = next[stream]++;
            int n = size(i);
            assertEquals(n, r.byteCount(), "stream " + stream + " message " + i);
            byte[] data = bytes(n, r.tag() * 100_000 + i);
            System.arraycopy(new byte[] {(byte) r.tag()}, 0, data, 0, Math.min(1, data.length));
            assertArrayEquals(data, r.buffer().asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), "stream " + stream
                    + " message " + i);
        }
        for (Thread t : senders) {
            t.join();
        }
        assertNull(failed.get());
        assertArrayEquals(new int[] {perStream, perStream, perStream}, next);
    }

    @Test
    void aPayloadWordOfAnEarlierLapNeverPassesForTheNextEntry() {
        // lap 1: a message of two lines at line 0 whose second line's bytes look like a whole entry with the
        // sequence number line 1 will expect on lap 2 (LANE_LINES + 2); then one-line messages up to line
        // LANE_LINES (line 0 of lap 2; with the lane's rewind, the exchange gets there sooner and goes on in
        // lap 2's first lines). The receiver then polls line 1: it must not take the old payload for an
        // entry (the sender clears that word when it publishes the entry before it)
        int lines = ShmLayout.LANE_LINES;
        byte[] forged = bytes(64, 1);
        MemorySegment f = MemorySegment.ofArray(forged);
        ValueLayout.OfInt i32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.nativeOrder());
        f.set(i32, 64 - ShmLayout.L_PAYLOAD + ShmLayout.L_KIND, ShmLayout.L_MSG);
        f.set(i32, 64 - ShmLayout.L_PAYLOAD + ShmLayout.L_TAG, 77);
        f.set(i32, 64 - ShmLayout.L_PAYLOAD + ShmLayout.L_CONTEXT, 0);
        f.set(i32, 64 - ShmLayout.L_PAYLOAD + ShmLayout.L_TYPE, 0);
        f.set(i32, 64 - ShmLayout.L_PAYLOAD + ShmLayout.L_LENGTH, 0);
        f.set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.nativeOrder()), 64 - ShmLayout.L_PAYLOAD + ShmLayout.L_SEQ,
                lines + 2L);
        assertEquals(2, ShmLane.linesFor(forged.length));
        sendAndReceive(forged, 1);
        for (int line = 2; line <= lines; line++) {
            sendAndReceive(bytes(8, line), 2);
        }
        ReceiveRequest phantom = ranks[1].irecv(MemorySegment.ofArray(new byte[8]), 0, Device.ANY_TAG, 0, 0);
        for (int i = 0; i < 1000; i++) {
            ranks[1].progress();
        }
        assertFalse(phantom.isComplete(), "the receiver took an earlier lap's payload for a message (tag "
                + (phantom.isComplete() ? phantom.tag() : -1) + ")");
        ranks[0].isend(MemorySegment.ofArray(bytes(8, 5)), 1, 3, 0, 0, false);
        untilComplete(phantom);
        assertEquals(3, phantom.tag());
        assertArrayEquals(bytes(8, 5), phantom.buffer().toArray(ValueLayout.JAVA_BYTE));
    }

    private void sendAndReceive(byte[] data, int tag) {
        ReceiveRequest r = ranks[1].irecv(MemorySegment.ofArray(new byte[data.length]), 0, tag, 0, 0);
        DeviceRequest s = ranks[0].isend(MemorySegment.ofArray(data), 1, tag, 0, 0, false);
        untilComplete(s, r);
        assertArrayEquals(data, r.buffer().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void aFullLaneQueuesSmallSendsAndKeepsTheirOrder() {
        // more small messages than the lane holds, none received: the later ones queue behind the full
        // lane (not complete yet) and go in as the receiver frees lines, in order
        int count = 2 * ShmLayout.LANE_LINES;
        List<DeviceRequest> sends = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sends.add(ranks[0].isend(MemorySegment.ofArray(bytes(8, i)), 1, 9, 0, 0, false));
        }
        assertTrue(sends.getFirst().isComplete(), "the first small send went straight into the lane");
        assertFalse(sends.getLast().isComplete(), "the lane took more than it holds");
        for (int i = 0; i < count; i++) {
            ReceiveRequest r = ranks[1].irecv(MemorySegment.ofArray(new byte[8]), 0, 9, 0, 0);
            untilComplete(r);
            assertArrayEquals(bytes(8, i), r.buffer().toArray(ValueLayout.JAVA_BYTE), "message " + i);
        }
        untilComplete(sends.toArray(DeviceRequest[]::new));
    }
}
