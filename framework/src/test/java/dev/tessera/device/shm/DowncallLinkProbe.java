package dev.tessera.device.shm;

import java.lang.foreign.MemorySegment;

/**
 * Run in a JVM of its own by {@link DowncallLinkTest}: links the shm device's downcalls as a
 * device does at start ({@link CellCopy#link}, {@link Futex#link}, {@link HeapCopy#link} where the
 * helper works), prints {@code LINKED}, then makes many more cell copies by memcpy, futex wakes
 * and helper calls and prints {@code DONE}.
 */
final class DowncallLinkProbe {

    private DowncallLinkProbe() {
    }

    public static void main(String[] args) {
        CellCopy.link();
        Futex.link();
        boolean heap = HeapCopy.available();
        if (heap) {
            HeapCopy.link();
        }
        System.out.println("LINKED");
        System.out.flush();
        int n = (int) CellCopy.MIN_BYTES;
        MemorySegment from = MemorySegment.ofArray(new byte[n]);
        MemorySegment to = MemorySegment.ofArray(new byte[n]);
        MemorySegment word = java.lang.foreign.Arena.global().allocate(4, 4);
        for (int i = 0; i < 400; i++) {
            from.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i % n, (byte) i);
            CellCopy.copy(from, 0, to, 0, n);
            if (to.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i % n) != (byte) i) {
                throw new IllegalStateException("copy " + i + " lost its byte");
            }
            Futex.wakeAll(word, 0);
            if (heap) {
                // an offer through an idle slot answers at once; a read of 8 bytes of this process
                MemorySegment slot = java.lang.foreign.Arena.ofAuto().allocate(64, 64);
                if (HeapCopy.offer(slot, from, 0, false, ProcessHandle.current().pid(), 0, MemorySegment.NULL, 0,
                        MemorySegment.NULL, 0) != HeapCopy.R_NOT_READY
                        || !HeapCopy.read(ProcessHandle.current().pid(), word.address(), to, 4)) {
                    throw new IllegalStateException("heap single copy call " + i + " failed");
                }
            }
        }
        System.out.println("DONE");
        System.out.flush();
    }
}
