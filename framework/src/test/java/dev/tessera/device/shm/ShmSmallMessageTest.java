package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.device.DeviceRequest;
import dev.tessera.device.ReceiveRequest;
import dev.tessera.device.WaitMode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shm ring's cell format as the receiver sees it: a payload of up to
 * {@link ShmLayout#INLINE_BYTES} bytes travels inside the cell's first cache line (header,
 * sequence word and payload), and the receiver finds a cell by its sequence word, so cells
 * reused on later laps of the ring are never taken for new ones. Two ranks' devices share
 * one mapped segment in this process; the test drives both ranks' progress.
 */
@Timeout(60)
class ShmSmallMessageTest extends TwoShmRanks {

    static final int CELL_BYTES = 4096;
    static final int CAPACITY = CELL_BYTES - ShmLayout.CELL_HEADER;

    ShmSmallMessageTest() {
        super(CELL_BYTES);
    }

    private static MemorySegment pattern(int n, int seed) {
        return MemorySegment.ofArray(InProcessShmRanks.pattern(n, seed));
    }

    private void untilComplete(DeviceRequest... requests) {
        job.untilComplete(requests);
    }

    private void sendAndCheck(int n, int seed) {
        MemorySegment data = pattern(n, seed);
        ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, seed, 0, 0);
        DeviceRequest send = rank0.isend(data, 1, seed, 0, 0, false);
        untilComplete(send, recv);
        assertNull(recv.error(), () -> "size " + n + ": " + recv.error());
        assertEquals(n, recv.byteCount(), "size " + n);
        assertArrayEquals(data.toArray(ValueLayout.JAVA_BYTE), recv.buffer().toArray(ValueLayout.JAVA_BYTE),
                "payload of " + n + " bytes");
    }

    @Test
    void aSpinningRankPollsLongBeforeItParksAndABlockingOneDoesNot() {
        // a shm message is seen only by polling: a rank with a core of its own polls ~1-2 ms
        // before parking (a park ends late by the timer slack); a blocking rank sleeps instead
        assertSame(dev.tessera.device.BackoffIdleStrategy.LONG_SPIN, rank0.idleStrategy());
        assertFalse(dev.tessera.device.BackoffIdleStrategy.LONG_SPIN.parks(40_000));
        ShmDevice blocking = job.device(0, WaitMode.BLOCK);
        assertNotSame(dev.tessera.device.BackoffIdleStrategy.LONG_SPIN, blocking.idleStrategy());
    }

    @Test
    void anEightByteMessageIsOneCacheLineOfTheLane() {
        MemorySegment data = pattern(8, 3);
        DeviceRequest send = rank0.isend(data, 1, 5, 0, 0, false);
        assertTrue(send.isComplete(), "a small standard send completes at once");

        MemorySegment lane = job.file.asSlice(ShmLayout.laneOffset(0, 1, 2, CELL_BYTES, CELLS), ShmLayout.laneBytes());
        MemorySegment entry = lane.asSlice(ShmLayout.LANE_LINE, 128);
        assertEquals(1L, entry.get(ValueLayout.JAVA_LONG, ShmLayout.L_SEQ), "the first entry's sequence word");
        assertEquals(ShmLayout.L_MSG, entry.get(ValueLayout.JAVA_INT, ShmLayout.L_KIND));
        assertEquals(8, entry.get(ValueLayout.JAVA_INT, ShmLayout.L_LENGTH));
        assertEquals(5, entry.get(ValueLayout.JAVA_INT, ShmLayout.L_TAG));
        assertArrayEquals(data.toArray(ValueLayout.JAVA_BYTE),
                entry.asSlice(ShmLayout.L_PAYLOAD, 8).toArray(ValueLayout.JAVA_BYTE), "the payload after the header");
        assertArrayEquals(new byte[64], entry.asSlice(64, 64).toArray(ValueLayout.JAVA_BYTE),
                "nothing written past the entry's cache line");
        MemorySegment cell = job.file.asSlice(ShmLayout.ringOffset(0, 1, 2, CELL_BYTES, CELLS) + ShmLayout.RING_CELLS,
                CELL_BYTES);
        assertEquals(0L, cell.get(ValueLayout.JAVA_LONG, ShmLayout.C_SEQ), "no cell used");

        // the next message follows in the next line: consecutive small messages are read sequentially
        DeviceRequest second = rank0.isend(pattern(8, 4), 1, 6, 0, 0, false);
        assertTrue(second.isComplete());
        assertEquals(2L, lane.get(ValueLayout.JAVA_LONG, 2L * ShmLayout.LANE_LINE + ShmLayout.L_SEQ));

        ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[8]), 0, 5, 0, 0);
        untilComplete(recv);
        assertArrayEquals(data.toArray(ValueLayout.JAVA_BYTE), recv.buffer().toArray(ValueLayout.JAVA_BYTE));
        ReceiveRequest recv2 = rank1.irecv(MemorySegment.ofArray(new byte[8]), 0, 6, 0, 0);
        untilComplete(recv2);
        assertArrayEquals(pattern(8, 4).toArray(ValueLayout.JAVA_BYTE), recv2.buffer().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void everySizeAroundTheInlineLimitAndTheCellArrivesWhole() {
        int seed = 0;
        for (int n = 0; n <= 40; n++) {
            sendAndCheck(n, seed++);
        }
        // messages of several cells whose last piece is inline (1 or 16 bytes) or not (17)
        for (int n : new int[] {CAPACITY - 1, CAPACITY, CAPACITY + 1, CAPACITY + 16, CAPACITY + 17, 2 * CAPACITY + 5,
            5 * CAPACITY + 16}) {
            sendAndCheck(n, seed++);
        }
    }

    @Test
    void cellsReusedOnLaterLapsAreReadOnceEach() {
        // unexpected messages: all sent before any receive, several laps of the 8-cell ring,
        // small (inline) and one-cell sizes mixed; the receiver must see each exactly once, in order
        List<MemorySegment> sent = new ArrayList<>();
        List<DeviceRequest> sends = new ArrayList<>();
        for (int i = 0; i < 5 * CELLS; i++) {
            int n = i % 3 == 0 ? 100 + i : i % 17;
            MemorySegment data = pattern(n, i);
            sent.add(data);
            sends.add(rank0.isend(data, 1, 9, 0, 0, false));
            rank1.progress();
            rank0.progress();
        }
        untilComplete(sends.toArray(DeviceRequest[]::new));
        for (int i = 0; i < sent.size(); i++) {
            int n = (int) sent.get(i).byteSize();
            ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, 9, 0, 0);
            untilComplete(recv);
            assertEquals(n, recv.byteCount(), "message " + i);
            assertArrayEquals(sent.get(i).toArray(ValueLayout.JAVA_BYTE), recv.buffer().toArray(ValueLayout.JAVA_BYTE),
                    "message " + i);
        }
        assertFalse(rank1.progress(), "no cell left to read after the last message");
    }

    @Test
    void oneDrainFreesEveryCellItReadForTheSender() {
        // the receiver publishes its head once per few cells (2 of this 8-cell ring) and when a drain
        // stops: after one drain of an odd number of cells, every cell is free again, so the next
        // ring's worth of small sends all go straight into the ring (the shared, already complete
        // request) instead of the queue
        int n = ShmLayout.LANE_MAX + 1000;   // a one-cell message (smaller ones take the lane)
        MemorySegment data = pattern(n, 1);
        DeviceRequest direct = rank0.isend(data, 1, 4, 0, 0, false);
        for (int i = 1; i < CELLS - 1; i++) {
            assertSame(direct, rank0.isend(data, 1, 4, 0, 0, false), "message " + i + " of the first lap");
        }
        assertTrue(rank1.progress(), "the receiver drains the ring");
        for (int i = 0; i < CELLS; i++) {
            assertSame(direct, rank0.isend(data, 1, 4, 0, 0, false), "message " + i + " after one drain: its cell is free");
        }
        for (int i = 0; i < 2 * CELLS - 1; i++) {
            ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, 4, 0, 0);
            untilComplete(recv);
            assertEquals(n, recv.byteCount(), "message " + i);
        }
    }

    /** Bytes of message {@code m}: every byte differs from its neighbours and from the same byte of other messages. */
    private static byte[] distinct(int m, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            int x = (m + 1) * 0x9E3779B1 + i * 0x85EBCA6B;
            b[i] = (byte) ((x ^ (x >>> 15) ^ (x >>> 24)) | 1);   // never 0: a byte left out shows as 0
        }
        return b;
    }

    @Test
    void manySmallUnexpectedMessagesArriveByteForByte() {
        // 16-63 byte messages that arrive before their receives, by the three ways the receiver buffers
        // them: whole in one cell (standard), through the assembly (synchronous: it waits for its ACK),
        // and as the small last piece of a message of several cells. Enough rounds for C2 to compile
        // the receive path; every byte of every message is checked.
        int rounds = 300;
        int perRound = 48;
        for (int round = 0; round < rounds; round++) {
            List<byte[]> sent = new ArrayList<>();
            List<DeviceRequest> sends = new ArrayList<>();
            for (int k = 0; k < perRound; k++) {
                int m = round * perRound + k;
                int small = 16 + k % 48;
                int way = k % 3;
                byte[] data = distinct(m, way == 2 ? CAPACITY + small : small);
                sent.add(data);
                sends.add(rank0.isend(MemorySegment.ofArray(data), 1, 11, 0, 0, way == 1));
                rank1.progress();
                rank0.progress();
            }
            for (int k = 0; k < perRound; k++) {
                byte[] data = sent.get(k);
                byte[] into = new byte[data.length];
                ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(into), 0, 11, 0, 0);
                untilComplete(recv);
                assertNull(recv.error());
                int m = round * perRound + k;
                for (int i = 0; i < data.length; i++) {
                    if (into[i] != data[i]) {
                        assertEquals(data[i], into[i], "message " + m + " of " + data.length + " bytes, byte " + i);
                    }
                }
            }
            untilComplete(sends.toArray(DeviceRequest[]::new));
        }
        assertFalse(rank1.progress(), "no cell left to read after the last message");
    }

    @Test
    void aRunOfSmallMessagesKeepsTheRingsOrderAmongLargerAndSynchronousOnes() {
        // sizes and tags of one sender's messages, sent before the receiver reads any: small ones (a run
        // under one lock), one-cell ones above the run's limit, a synchronous one, one of several cells
        int[] sizes = {8, 8, 8, 1000, ShmDevice.RUN_BYTES, ShmDevice.RUN_BYTES + 1, 2000, 8, CAPACITY + 100, 8, 0, 16, 24};
        int[] tags = {1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3};
        boolean[] sync = new boolean[sizes.length];
        sync[7] = true;
        // three receives wait before anything arrives: one for tag 2, two for any tag
        ReceiveRequest forTag2 = rank1.irecv(MemorySegment.ofArray(new byte[64]), 0, 2, 0, 0);
        ReceiveRequest any0 = rank1.irecv(MemorySegment.ofArray(new byte[64]), dev.tessera.device.Device.ANY_SOURCE,
                dev.tessera.device.Device.ANY_TAG, 0, 0);
        ReceiveRequest any1 = rank1.irecv(MemorySegment.ofArray(new byte[64]), 0, dev.tessera.device.Device.ANY_TAG, 0, 0);
        List<DeviceRequest> sends = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            sends.add(rank0.isend(pattern(sizes[i], 40 + i), 1, tags[i], 0, 0, sync[i]));
        }
        // the posted receives take the oldest messages that fit them: 0 and 1 (any tag), 2 (tag 2)
        untilComplete(forTag2, any0, any1);
        assertMessage(any0, 0, sizes, tags);
        assertMessage(any1, 1, sizes, tags);
        assertMessage(forTag2, 2, sizes, tags);
        for (int i = 3; i < sizes.length; i++) {
            ReceiveRequest r = rank1.irecv(MemorySegment.ofArray(new byte[CAPACITY + 200]), 0,
                    dev.tessera.device.Device.ANY_TAG, 0, 0);
            untilComplete(r);
            assertMessage(r, i, sizes, tags);
        }
        untilComplete(sends.toArray(DeviceRequest[]::new));
        assertFalse(rank1.progress(), "no cell left to read after the last message");
    }

    private static void assertMessage(ReceiveRequest r, int i, int[] sizes, int[] tags) {
        assertNull(r.error(), () -> "message " + i + ": " + r.error());
        assertEquals(sizes[i], r.byteCount(), "message " + i + " in the sender's order");
        assertEquals(tags[i], r.tag(), "message " + i);
        assertArrayEquals(pattern(sizes[i], 40 + i).toArray(ValueLayout.JAVA_BYTE),
                r.buffer().asSlice(0, sizes[i]).toArray(ValueLayout.JAVA_BYTE), "payload of message " + i);
    }

    /**
     * A send queued because it needs more cells than the ring has completes inside the ring's
     * lock (the progress that writes its last cell); a callback of that completion may send
     * again to the same peer: the lock is reentrant, so this neither deadlocks nor reorders.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aCallbackOfACompletedSendMaySendAgainOnTheSameRing() {
        int n = (CELLS + 3) * CAPACITY;
        MemorySegment big = pattern(n, 7);
        MemorySegment small = pattern(8, 8);
        DeviceRequest[] follow = new DeviceRequest[1];
        DeviceRequest send = rank0.isend(big, 1, 21, 0, 0, false);
        assertFalse(send.isComplete(), "the message must outgrow the ring for this test");
        send.whenComplete(() -> follow[0] = rank0.isend(small, 1, 22, 0, 0, false));
        ReceiveRequest bigRecv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, 21, 0, 0);
        ReceiveRequest smallRecv = rank1.irecv(MemorySegment.ofArray(new byte[8]), 0, 22, 0, 0);
        untilComplete(send, bigRecv, smallRecv);
        assertTrue(follow[0] != null && follow[0].isComplete(), "the callback's send did not run");
        assertArrayEquals(big.toArray(ValueLayout.JAVA_BYTE), bigRecv.buffer().toArray(ValueLayout.JAVA_BYTE));
        assertArrayEquals(small.toArray(ValueLayout.JAVA_BYTE), smallRecv.buffer().toArray(ValueLayout.JAVA_BYTE));
    }

    /**
     * Two threads of one rank send to the same peer at once, small messages (straight into the
     * ring) and ones of two cells (through the queue), while a third drives progress: each
     * thread's messages arrive whole and in order (the ring's lock lets one writer at a time).
     */
    @Test
    void twoThreadsSendingOnOneRingAtOnceKeepEachOnesMessagesWholeAndInOrder() throws Exception {
        int count = 8000;
        int[] sizes = {8, 16, 40, 8, 24, CAPACITY + 100};
        List<Thread> senders = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        for (int t = 0; t < 2; t++) {
            int tag = 30 + t;
            senders.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < count; i++) {
                        rank0.isend(pattern(sizes[i % sizes.length], tag * 10_000 + i), 1, tag, 0, 0, false);
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            }));
        }
        for (int i = 0; i < count; i++) {
            int n = sizes[i % sizes.length];
            ReceiveRequest a = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, 30, 0, 0);
            ReceiveRequest b = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, 31, 0, 0);
            untilComplete(a, b);
            assertNull(failed.get());
            assertArrayEquals(pattern(n, 300_000 + i).toArray(ValueLayout.JAVA_BYTE), a.buffer().toArray(ValueLayout.JAVA_BYTE),
                    "thread 0's message " + i);
            assertArrayEquals(pattern(n, 310_000 + i).toArray(ValueLayout.JAVA_BYTE), b.buffer().toArray(ValueLayout.JAVA_BYTE),
                    "thread 1's message " + i);
        }
        for (Thread t : senders) {
            t.join();
        }
        assertNull(failed.get());
    }
}
