package dev.tessera.comm;

import java.lang.foreign.ValueLayout;

/**
 * Element types of message buffers. The code of each constant travels in the message
 * envelope, so a receive into a buffer of another type is reported as an error instead of
 * silently reinterpreting bytes. {@link #BYTE} receives accept any type (raw bytes).
 */
public enum Datatype {
    BYTE(ValueLayout.JAVA_BYTE),
    BOOLEAN(ValueLayout.JAVA_BYTE),
    CHAR(ValueLayout.JAVA_CHAR_UNALIGNED),
    SHORT(ValueLayout.JAVA_SHORT_UNALIGNED),
    INT(ValueLayout.JAVA_INT_UNALIGNED),
    LONG(ValueLayout.JAVA_LONG_UNALIGNED),
    FLOAT(ValueLayout.JAVA_FLOAT_UNALIGNED),
    DOUBLE(ValueLayout.JAVA_DOUBLE_UNALIGNED),
    /** Serialized Java objects. */
    OBJECT(ValueLayout.JAVA_BYTE);

    private static final Datatype[] BY_CODE = values();

    private final ValueLayout layout;

    Datatype(ValueLayout layout) {
        this.layout = layout;
    }

    /** Size of one element in bytes. */
    public int byteSize() {
        return (int) layout.byteSize();
    }

    /** The memory layout of one element (unaligned: heap byte segments carry any type). */
    public ValueLayout layout() {
        return layout;
    }

    /** The code carried in envelopes. */
    int code() {
        return ordinal();
    }

    static Datatype ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
