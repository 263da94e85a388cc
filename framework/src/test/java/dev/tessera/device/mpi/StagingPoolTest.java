package dev.tessera.device.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class StagingPoolTest {

    @Test
    void buffersArePowersOfTwoAndReusedWithinTheirClass() {
        StagingPool pool = new StagingPool();
        MemorySegment a = pool.take(100_000);
        assertTrue(a.isNative());
        assertEquals(131_072, a.byteSize());
        assertEquals(4096, pool.take(1).byteSize(), "the smallest class is 4 KiB");
        pool.give(a);
        assertSame(a, pool.take(70_000), "same class: the buffer comes back");
        assertNotSame(a, pool.take(70_000), "taken: a new one");
        assertEquals(1 << 20, pool.take(1 << 20).byteSize(), "exact powers of two are not rounded up");
    }

    @Test
    void keepsAtMostItsCapAndLetsTheRestGo() {
        StagingPool pool = new StagingPool();
        MemorySegment big1 = pool.take(48L << 20);   // 64 MiB class
        MemorySegment big2 = pool.take(48L << 20);
        pool.give(big1);
        pool.give(big2);                              // over the cap: freed at once
        assertSame(big1, pool.take(40L << 20));
        assertNotSame(big2, pool.take(40L << 20));
    }

    @Test
    void clearFreesWhatThePoolKeeps() {
        StagingPool pool = new StagingPool();
        MemorySegment a = pool.take(8192);
        a.fill((byte) 7);                              // malloc'ed memory is usable over its whole size
        pool.give(a);
        pool.clear();
        assertNotSame(a, pool.take(8192), "cleared: a new buffer");
    }
}
