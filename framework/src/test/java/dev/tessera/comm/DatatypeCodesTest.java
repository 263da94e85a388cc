package dev.tessera.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.tessera.device.WireCodes;
import org.junit.jupiter.api.Test;

/** Element types and built-in operations carry the device SPI's codes, and the codes lead back to them. */
class DatatypeCodesTest {

    @Test
    void everyDatatypeCarriesItsWireCodeAndSize() {
        assertEquals(WireCodes.TYPE_DOUBLE, Datatype.DOUBLE.code());
        assertEquals(WireCodes.TYPE_FLOAT, Datatype.FLOAT.code());
        assertEquals(WireCodes.TYPE_OBJECT, Datatype.OBJECT.code());
        for (Datatype t : Datatype.values()) {
            assertSame(t, Datatype.ofCode(t.code()));
            assertEquals(WireCodes.elementBytes(t.code()), t.byteSize(), t.name());
        }
    }

    @Test
    void builtInOperationsCarryTheirWireCodes() {
        assertEquals(WireCodes.OP_SUM, Op.SUM.nativeCode());
        assertEquals(WireCodes.OP_MAX, Op.MAX.nativeCode());
        assertEquals(WireCodes.OP_BXOR, Op.BXOR.nativeCode());
        assertEquals(WireCodes.OP_NONE, Op.MINLOC.nativeCode());
    }
}
