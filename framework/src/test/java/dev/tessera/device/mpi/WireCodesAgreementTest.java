package dev.tessera.device.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.device.WireCodes;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The mpi device's C shim and the device SPI number element types and operations alike:
 * every WireCodes TYPE_* / OP_* constant has a TESSERA_TYPE_* / TESSERA_OP_* define of the
 * same value in tessera_mpi.c, and the shim defines no other.
 */
class WireCodesAgreementTest {

    private static Map<String, Integer> javaCodes() throws IllegalAccessException {
        Map<String, Integer> codes = new TreeMap<>();
        for (Field f : WireCodes.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class
                    && (f.getName().startsWith("TYPE_") || f.getName().startsWith("OP_")) && !f.getName().equals("OP_NONE")) {
                codes.put(f.getName(), f.getInt(null));
            }
        }
        return codes;
    }

    private static Map<String, Integer> shimCodes() throws IOException {
        String source;
        try (InputStream in = MpiLibrary.class.getResourceAsStream("tessera_mpi.c")) {
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, Integer> codes = new TreeMap<>();
        Matcher m = Pattern.compile("(?m)^#define TESSERA_((?:TYPE|OP)_[A-Z]+) (\\d+)\\s*$").matcher(source);
        while (m.find()) {
            codes.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        return codes;
    }

    @Test
    void theShimDefinesEveryCodeWithTheSameNumber() throws Exception {
        assertEquals(javaCodes(), shimCodes());
    }

    @Test
    void libraryReductionsAreOfferedOnlyWhereMpiDefinesThem() {
        assertEquals(8, WireCodes.elementBytes(WireCodes.TYPE_LONG));
        assertEquals(false, WireCodes.nativeReducible(WireCodes.TYPE_DOUBLE, WireCodes.OP_BAND));
        assertEquals(true, WireCodes.nativeReducible(WireCodes.TYPE_INT, WireCodes.OP_BXOR));
        assertEquals(false, WireCodes.nativeReducible(WireCodes.TYPE_OBJECT, WireCodes.OP_SUM));
    }
}
