package dev.tessera.comm;

import dev.tessera.device.WireCodes;
import java.lang.foreign.ValueLayout;

/**
 * Element types of message buffers. The code of each constant travels in the message
 * envelope, so a receive into a buffer of another type is reported as an error instead of
 * silently reinterpreting bytes. {@link #BYTE} receives accept any type (raw bytes).
 */
public enum Datatype {
    BYTE(ValueLayout.JAVA_BYTE, WireCodes.TYPE_BYTE),
    BOOLEAN(ValueLayout.JAVA_BYTE, WireCodes.TYPE_BOOLEAN),
    CHAR(ValueLayout.JAVA_CHAR_UNALIGNED, WireCodes.TYPE_CHAR),
    SHORT(ValueLayout.JAVA_SHORT_UNALIGNED, WireCodes.TYPE_SHORT),
    INT(ValueLayout.JAVA_INT_UNALIGNED, WireCodes.TYPE_INT),
    LONG(ValueLayout.JAVA_LONG_UNALIGNED, WireCodes.TYPE_LONG),
    FLOAT(ValueLayout.JAVA_FLOAT_UNALIGNED, WireCodes.TYPE_FLOAT),
    DOUBLE(ValueLayout.JAVA_DOUBLE_UNALIGNED, WireCodes.TYPE_DOUBLE),
    /** Serialized Java objects. */
    OBJECT(ValueLayout.JAVA_BYTE, WireCodes.TYPE_OBJECT);

    private static final Datatype[] BY_CODE = new Datatype[WireCodes.TYPE_OBJECT + 1];

    static {
        for (Datatype t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final ValueLayout layout;
    private final int code;

    Datatype(ValueLayout layout, int code) {
        this.layout = layout;
        this.code = code;
    }

    /** Size of one element in bytes. */
    public int byteSize() {
        return (int) layout.byteSize();
    }

    /** The memory layout of one element (unaligned: heap byte segments carry any type). */
    public ValueLayout layout() {
        return layout;
    }

    /** The code carried in envelopes and handed to native libraries ({@link WireCodes}). */
    int code() {
        return code;
    }

    static Datatype ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
