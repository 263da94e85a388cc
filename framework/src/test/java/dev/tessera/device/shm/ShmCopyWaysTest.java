package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shm helper's copies at the distances and sizes where they change course: the sender's copy
 * into a cell (memcpy, 64-byte moves in the page-offset aliasing window, non-temporal stores,
 * and the adaptive choice between the last two ways) and the single-copy read through a bounce
 * buffer (helper and Java), each checked byte for byte, with the bytes around the destination
 * left as they were. Reads go to this process's own memory (process_vm_readv of its own pid), whether
 * single copy is on by default here or not (off on AMD family 26, where the first run of this test
 * failed because the Java read was linked only where single copy was on).
 */
@Timeout(120)
class ShmCopyWaysTest {

    /** Page-offset distances (destination minus source, modulo 4096) around the aliasing window. */
    static final int[] DISTANCES = {0, 1, 8, 15, 16, 24, 64, 2048, 4088, 4095};
    static final int GUARD = 64;

    private Arena arena;
    private MemorySegment source;
    private MemorySegment target;

    @BeforeEach
    void setUp() {
        assertTrue(HeapCopy.copyHandle() != null, "the shm helper did not build here: " + HeapCopy.status());
        assertTrue(SingleCopy.linked(), "process_vm_readv was not linked");
        arena = Arena.ofConfined();
        source = arena.allocate(600 * 1024, 4096);
        target = arena.allocate(600 * 1024, 4096);
        for (long i = 0; i < source.byteSize(); i++) {
            source.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 131 + (i >> 12) * 7 + 3));
        }
    }

    @AfterEach
    void tearDown() {
        HeapCopy.copyMode(CellCopy.MODE);
        arena.close();
    }

    /** Fills the target with 0x5A, so bytes written outside the destination show. */
    private void clearTarget() {
        target.fill((byte) 0x5A);
    }

    /** Asserts that target[at, at + n) holds source[from, from + n) and GUARD bytes either side are untouched. */
    private void assertCopied(long from, long at, long n, String what) {
        byte[] want = source.asSlice(from, n).toArray(ValueLayout.JAVA_BYTE);
        byte[] got = target.asSlice(at, n).toArray(ValueLayout.JAVA_BYTE);
        assertArrayEquals(want, got, what);
        for (long i = Math.max(0, at - GUARD); i < at; i++) {
            assertEquals((byte) 0x5A, target.get(ValueLayout.JAVA_BYTE, i), what + ": byte " + (i - at) + " before it");
        }
        for (long i = at + n; i < Math.min(target.byteSize(), at + n + GUARD); i++) {
            assertEquals((byte) 0x5A, target.get(ValueLayout.JAVA_BYTE, i), what + ": byte " + (i - at - n) + " after it");
        }
    }

    @Test
    void theHelperAndJavaAgreeOnTheAliasingWindow() {
        long src = source.address() + 4096 + 40;
        for (int d = 0; d < 4096; d++) {
            MemorySegment dst = target.asSlice(4096 + 40 + d, 1);
            boolean java = HeapCopy.aliased(dst.address(), src);
            assertEquals(java ? 1 : 0, HeapCopy.helperAliased(dst, src), "distance " + d);
            assertEquals(d >= 1 && d < HeapCopy.ALIAS_WINDOW, java, "distance " + d);
        }
    }

    @Test
    void everyWayCopiesEveryDistanceAndSizeWhole() {
        long[] sizes = {1, 63, 64, 4097, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 32 * 1024 - 64, 100_003};
        String[] names = {"auto", "memcpy", "stream"};
        for (int mode = 0; mode < 3; mode++) {
            int inForce = HeapCopy.copyMode(mode);
            for (int d : DISTANCES) {
                for (long n : sizes) {
                    for (int srcOff : new int[] {0, 8, 40}) {
                        long from = 4096 + srcOff;
                        long at = 8192 + srcOff + d;
                        clearTarget();
                        CellCopy.copy(source, from, target, at, n);
                        String what = names[mode] + ", distance " + d + ", " + n + " bytes from +" + srcOff;
                        assertCopied(from, at, n, what);
                        if (n >= 16 * 1024 && CellCopy.byMemcpy(n) && mode != 0) {
                            assertEquals(inForce == 2 ? 1 : 0, HeapCopy.lastCopyWay(), what + ": way");
                        }
                    }
                }
            }
        }
    }

    @Test
    void theAdaptiveWayTriesBothWaysAndKeepsCopyingWhole() {
        boolean streamable = HeapCopy.copyMode(2) == 2;
        HeapCopy.copyMode(0);   // and this thread's figures forgotten: the first two pieces try each way
        boolean[] seen = new boolean[2];
        long n = 32 * 1024 - 64;
        for (int i = 0; i < 600; i++) {
            long from = (i * 4160L) % (256 * 1024);
            long at = 4096 + (i % 5) * 8 + (i * 32768L) % (512 * 1024);
            clearTarget();
            CellCopy.copy(source, from, target, at, n);
            assertCopied(from, at, n, "piece " + i);
            seen[HeapCopy.lastCopyWay()] = true;
        }
        assertTrue(seen[0], "never copied by memcpy");
        assertEquals(streamable, seen[1], "non-temporal stores tried");
    }

    @Test
    void heapArraysGoWholeEveryWay() {
        byte[] data = InProcessShmRanks.pattern(70_001, 9);
        for (int mode = 0; mode < 3; mode++) {
            HeapCopy.copyMode(mode);
            for (int off = 0; off < 24; off += 8) {
                byte[] into = new byte[70_100];
                CellCopy.copy(MemorySegment.ofArray(data), off, MemorySegment.ofArray(into), off + 3, 60_000);
                for (int i = 0; i < into.length; i++) {
                    byte want = i >= off + 3 && i < off + 3 + 60_000 ? data[i - 3] : 0;
                    assertEquals(want, into[i], "mode " + mode + ", offset " + off + ", index " + i);
                }
            }
        }
    }

    @Test
    void readsOfEveryDistanceArriveWholeThroughTheHelperAndThroughJava() {
        long pid = ProcessHandle.current().pid();
        long[] sizes = {4096, 64 * 1024 - 8, 64 * 1024, 2 * 64 * 1024 + 13, 300_001};
        for (int d : DISTANCES) {
            for (long n : sizes) {
                long from = 4096 + 24;
                long at = 8192 + 24 + d;
                long remote = source.address() + from;
                clearTarget();
                assertTrue(HeapCopy.read(pid, remote, target.asSlice(at, n), n), "helper read failed");
                assertCopied(from, at, n, "helper, distance " + d + ", " + n + " bytes");
                clearTarget();
                assertTrue(SingleCopy.read(pid, remote, target.asSlice(at, n), n), "Java read failed");
                assertCopied(from, at, n, "Java, distance " + d + ", " + n + " bytes");
            }
        }
    }

    @Test
    void readsIntoHeapArraysArriveWhole() {
        long pid = ProcessHandle.current().pid();
        int n = 200_003;
        for (int off = 0; off < 4096; off += 1016) {
            long remote = source.address() + 4096 + off;
            byte[] want = source.asSlice(4096 + off, n).toArray(ValueLayout.JAVA_BYTE);
            byte[] viaHelper = new byte[n];
            assertTrue(HeapCopy.read(pid, remote, MemorySegment.ofArray(viaHelper), n));
            assertArrayEquals(want, viaHelper, "helper, offset " + off);
            byte[] viaJava = new byte[n];
            assertTrue(SingleCopy.read(pid, remote, MemorySegment.ofArray(viaJava), n));
            assertArrayEquals(want, viaJava, "Java, offset " + off);
        }
    }
}
