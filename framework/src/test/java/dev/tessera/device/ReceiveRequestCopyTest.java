package dev.tessera.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The copy of a payload that lies in a device's memory (a ring slot, a lane entry) into a
 * posted receive's buffer, through {@code accept} (the shm lane) and {@code acceptFromRing} (the
 * smp ring, whose 8-byte payloads move as one long), at every alignment of source and
 * destination, with guard bytes around the destination.
 */
@Timeout(60)
class ReceiveRequestCopyTest {

    private static final byte GUARD = (byte) 0xA5;

    @Test
    void everySmallSizeLandsWholeAtEveryAlignment() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(64, 64);
            for (int i = 0; i < 64; i++) {
                source.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            for (int n = 0; n <= 17; n++) {
                for (int from = 0; from < 8; from++) {
                    for (int to = 0; to < 8; to++) {
                        for (int way = 0; way < 4; way++) {
                            boolean heap = way % 2 == 0;
                            boolean ring = way >= 2;
                            byte[] array = new byte[n + 16];
                            java.util.Arrays.fill(array, GUARD);
                            MemorySegment whole = heap ? MemorySegment.ofArray(array) : arena.allocate(n + 16);
                            if (!heap) {
                                whole.fill(GUARD);
                            }
                            MemorySegment buffer = whole.asSlice(to, n);
                            ReceiveRequest r = new ReceiveRequest(buffer, 1, 5, 0, ReceiveRequest.ANY_TYPE);
                            if (ring) {
                                r.acceptFromRing(1, 5, n, 3, source, from);
                            } else {
                                r.accept(1, 5, n, 3, source, from);
                            }
                            String where = n + " bytes from offset " + from + " to offset " + to + (heap ? " (heap" : " (native")
                                    + (ring ? ", ring)" : ")");
                            assertTrue(r.isComplete(), where);
                            assertNull(r.error(), where);
                            assertEquals(n, r.byteCount(), where);
                            for (int i = 0; i < n + 16; i++) {
                                byte expected = i >= to && i < to + n ? (byte) ((from + i - to) * 7 + 1) : GUARD;
                                assertEquals(expected, whole.get(ValueLayout.JAVA_BYTE, i), where + ": byte " + i);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void aScalarIntoASmallerBufferIsTruncatedAndAMismatchedTypeCopiesNothing() {
        MemorySegment source = MemorySegment.ofArray(new long[] {0x0807060504030201L, 0x100F0E0D0C0B0A09L});
        for (int room = 0; room < 8; room++) {
            byte[] array = new byte[room + 4];
            java.util.Arrays.fill(array, GUARD);
            ReceiveRequest r = new ReceiveRequest(MemorySegment.ofArray(array).asSlice(2, room), 0, 0, 0, 3);
            r.acceptFromRing(0, 0, 8, 3, source, 0);
            assertEquals(ErrorClass.TRUNCATE, ((TesseraException) r.error()).errorClass(), "room " + room);
            for (int i = 0; i < array.length; i++) {
                byte expected = i >= 2 && i < 2 + room ? (byte) (i - 1) : GUARD;
                assertEquals(expected, array[i], "room " + room + ": byte " + i);
            }
        }
        for (int n : new int[] {4, 8}) {
            byte[] array = new byte[8];
            java.util.Arrays.fill(array, GUARD);
            ReceiveRequest r = new ReceiveRequest(MemorySegment.ofArray(array), 0, 0, 0, 3);
            r.acceptFromRing(0, 0, n, 4, source, 0);
            assertEquals(ErrorClass.TYPE, ((TesseraException) r.error()).errorClass(), n + " bytes");
            for (byte b : array) {
                assertEquals(GUARD, b, n + " bytes of another type");
            }
        }
    }
}
