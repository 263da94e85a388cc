package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/** Rank 0 sends one message of every buffer kind; rank 1 receives each into the same kind and checks it. */
final class BufferKindCases {

    private BufferKindCases() {
    }

    static void roundTripAllKinds(Comm world) {
        int n = 37;
        boolean send = world.rank() == 0;
        // primitive arrays, as slices with an offset
        double[] d = new double[n + 3];
        float[] f = new float[n + 3];
        long[] l = new long[n + 3];
        int[] i = new int[n + 3];
        short[] s = new short[n + 3];
        char[] c = new char[n + 3];
        byte[] b = new byte[n + 3];
        boolean[] z = new boolean[n + 3];
        if (send) {
            for (int k = 0; k < n + 3; k++) {
                d[k] = k * 0.5;
                f[k] = k * 0.25f;
                l[k] = k * 1_000_000_007L;
                i[k] = -k;
                s[k] = (short) (k * 3);
                c[k] = (char) ('a' + k % 26);
                b[k] = (byte) k;
                z[k] = k % 3 == 0;
            }
        }
        Buffer[] buffers = {Buffer.of(d, 2, n), Buffer.of(f, 2, n), Buffer.of(l, 2, n), Buffer.of(i, 2, n),
            Buffer.of(s, 2, n), Buffer.of(c, 2, n), Buffer.of(b, 2, n), Buffer.of(z, 2, n)};
        for (Buffer buf : buffers) {
            if (send) {
                world.send(buf, 1, 0);
            } else {
                assertEquals(n, world.recv(buf, 0, 0).count(), buf.toString());
            }
        }
        if (!send) {
            for (int k = 2; k < n + 2; k++) {
                assertEquals(k * 0.5, d[k]);
                assertEquals(k * 0.25f, f[k]);
                assertEquals(k * 1_000_000_007L, l[k]);
                assertEquals(-k, i[k]);
                assertEquals((short) (k * 3), s[k]);
                assertEquals((char) ('a' + k % 26), c[k]);
                assertEquals((byte) k, b[k]);
                assertEquals(k % 3 == 0, z[k]);
            }
            assertEquals(0.0, d[0]);
            assertEquals(0.0, d[n + 2]);
        }
        // memory segments: native and heap
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(8L * n, 8);
            MemorySegment heap = MemorySegment.ofArray(new long[n]);
            if (send) {
                for (int k = 0; k < n; k++) {
                    nat.setAtIndex(ValueLayout.JAVA_LONG, k, k + 100);
                    heap.setAtIndex(ValueLayout.JAVA_LONG, k, k + 200);
                }
                world.send(Buffer.of(nat, Datatype.LONG), 1, 1);
                world.send(Buffer.of(heap, Datatype.LONG), 1, 1);
            } else {
                world.recv(Buffer.of(heap, Datatype.LONG), 0, 1);
                world.recv(Buffer.of(nat, Datatype.LONG), 0, 1);
                for (int k = 0; k < n; k++) {
                    assertEquals(k + 100, heap.getAtIndex(ValueLayout.JAVA_LONG, k));
                    assertEquals(k + 200, nat.getAtIndex(ValueLayout.JAVA_LONG, k));
                }
            }
        }
        // byte buffers: heap and direct, position..limit
        ByteBuffer heapBuf = ByteBuffer.allocate(64);
        ByteBuffer direct = ByteBuffer.allocateDirect(64);
        if (send) {
            for (int k = 0; k < 64; k++) {
                heapBuf.put(k, (byte) k);
                direct.put(k, (byte) (2 * k));
            }
            world.send(Buffer.of(heapBuf.position(8).limit(40)), 1, 2);
            world.send(Buffer.of(direct), 1, 2);
        } else {
            byte[] expected = new byte[32];
            for (int k = 0; k < 32; k++) {
                expected[k] = (byte) (k + 8);
            }
            world.recv(Buffer.of(direct.limit(32)), 0, 2);
            world.recv(Buffer.of(heapBuf), 0, 2);
            byte[] got = new byte[32];
            direct.get(0, got);
            assertArrayEquals(expected, got);
            for (int k = 0; k < 64; k++) {
                assertEquals((byte) (2 * k), heapBuf.get(k));
            }
        }
    }
}
