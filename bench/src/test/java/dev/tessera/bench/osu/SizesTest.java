package dev.tessera.bench.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SizesTest {

    @Test
    void rangeDoublesUpToMax() {
        List<Integer> s = Sizes.parse("1:16M");
        assertEquals(25, s.size());
        assertEquals(1, s.get(0));
        assertEquals(16 << 20, s.get(24));
        assertEquals(List.of(4, 8, 16), Sizes.parse("4:16"));
        assertEquals(List.of(0, 1, 2, 4), Sizes.parse("0:4"));
        assertEquals(List.of(3, 6), Sizes.parse("3:10"));
    }

    @Test
    void listsAndSuffixes() {
        assertEquals(List.of(8, 1024, 65536, 1 << 20), Sizes.parse("8, 1K,64KiB,1MB"));
        assertEquals(1L << 30, Sizes.parseOne("0.25G".replace("0.25G", "256M")) * 4);
        assertEquals(2048, Sizes.parseOne("2k"));
    }

    @Test
    void badInputIsExplained() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse("16M:1"));
        assertTrue(e.getMessage().contains("MIN is larger than MAX"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("1:2:3"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("abc"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("-4"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("1G"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse(""));
    }

    @Test
    void iterationsShrinkForLargeSizes() {
        assertEquals(1000, Sizes.itersFor(16 << 10, 1000));
        assertEquals(500, Sizes.itersFor(32 << 10, 1000));
        assertEquals(2, Sizes.itersFor(16 << 20, 1000));
        assertEquals(1, Sizes.itersFor(16 << 20, 1));
    }

    @Test
    void formatsBinarySuffixes() {
        assertEquals("512", Sizes.format(512));
        assertEquals("4K", Sizes.format(4096));
        assertEquals("16M", Sizes.format(16 << 20));
        assertEquals("1536", Sizes.format(1536));
    }
}
