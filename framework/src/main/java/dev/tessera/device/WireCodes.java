package dev.tessera.device;

/**
 * The numbers by which element types and built-in reduction operations travel below the
 * communicator layer: in message envelopes (so a receive into a buffer of another type is an
 * error, not a reinterpretation of bytes) and into native libraries (the mpi device's
 * collectives, whose C shim {@code tessera_mpi.c} defines the same numbers as
 * {@code TESSERA_TYPE_*} and {@code TESSERA_OP_*}; a test keeps the two in agreement).
 * The device SPI owns them: {@code dev.tessera.comm.Datatype} and {@code Op} map to them
 * explicitly, so reordering either enum changes nothing here.
 */
public final class WireCodes {

    public static final int TYPE_BYTE = 0;
    public static final int TYPE_BOOLEAN = 1;
    public static final int TYPE_CHAR = 2;
    public static final int TYPE_SHORT = 3;
    public static final int TYPE_INT = 4;
    public static final int TYPE_LONG = 5;
    public static final int TYPE_FLOAT = 6;
    public static final int TYPE_DOUBLE = 7;
    /** Serialized Java objects (never handed to a native library). */
    public static final int TYPE_OBJECT = 8;

    public static final int OP_SUM = 0;
    public static final int OP_PROD = 1;
    public static final int OP_MIN = 2;
    public static final int OP_MAX = 3;
    public static final int OP_LAND = 4;
    public static final int OP_LOR = 5;
    public static final int OP_LXOR = 6;
    public static final int OP_BAND = 7;
    public static final int OP_BOR = 8;
    public static final int OP_BXOR = 9;
    /** No built-in operation: MINLOC, MAXLOC and user operations (Tessera reduces them itself). */
    public static final int OP_NONE = -1;

    private static final int[] ELEMENT_BYTES = {1, 1, 2, 2, 4, 8, 4, 8, 1};

    private WireCodes() {
    }

    /** Bytes per element of type {@code code}, or -1 for an unknown code. */
    public static int elementBytes(int code) {
        return code >= 0 && code < ELEMENT_BYTES.length ? ELEMENT_BYTES[code] : -1;
    }

    /** Whether type {@code code} holds floating-point numbers (no logical or bitwise operations). */
    public static boolean isFloating(int code) {
        return code == TYPE_FLOAT || code == TYPE_DOUBLE;
    }

    /** Whether a native library can reduce elements of type {@code typeCode} with operation {@code opCode}. */
    public static boolean nativeReducible(int typeCode, int opCode) {
        if (typeCode < 0 || typeCode >= TYPE_OBJECT) {
            return false;
        }
        boolean bool = typeCode == TYPE_BOOLEAN;
        boolean floating = isFloating(typeCode);
        return switch (opCode) {
            case OP_NONE -> true;
            case OP_SUM, OP_PROD, OP_MIN, OP_MAX -> !bool;           // numbers
            case OP_LAND, OP_LOR, OP_LXOR -> !floating;              // logical: integers and booleans
            case OP_BAND, OP_BOR, OP_BXOR -> !floating && !bool;     // bitwise: integers
            default -> false;
        };
    }
}
