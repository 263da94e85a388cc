package mpjbuf;

/**
 * The element type of a section of an {@link Buffer}, as in MPJ Express: the eight
 * primitive types and {@link #OBJECT} (serialized objects), and a {@code *_DYNAMIC} form of
 * each primitive type whose elements go to the buffer's dynamic part instead of its static
 * one.
 */
public final class Type {

    public static final Type BYTE = new Type(0, "BYTE", 1);
    public static final Type CHAR = new Type(1, "CHAR", 2);
    public static final Type SHORT = new Type(2, "SHORT", 2);
    public static final Type BOOLEAN = new Type(3, "BOOLEAN", 1);
    public static final Type INT = new Type(4, "INT", 4);
    public static final Type LONG = new Type(5, "LONG", 8);
    public static final Type FLOAT = new Type(6, "FLOAT", 4);
    public static final Type DOUBLE = new Type(7, "DOUBLE", 8);
    public static final Type OBJECT = new Type(8, "OBJECT", 0);
    public static final Type BYTE_DYNAMIC = new Type(9, "BYTE_DYNAMIC", 0);
    public static final Type CHAR_DYNAMIC = new Type(10, "CHAR_DYNAMIC", 0);
    public static final Type SHORT_DYNAMIC = new Type(11, "SHORT_DYNAMIC", 0);
    public static final Type BOOLEAN_DYNAMIC = new Type(12, "BOOLEAN_DYNAMIC", 0);
    public static final Type INT_DYNAMIC = new Type(13, "INT_DYNAMIC", 0);
    public static final Type LONG_DYNAMIC = new Type(14, "LONG_DYNAMIC", 0);
    public static final Type FLOAT_DYNAMIC = new Type(15, "FLOAT_DYNAMIC", 0);
    public static final Type DOUBLE_DYNAMIC = new Type(16, "DOUBLE_DYNAMIC", 0);
    public static final Type UNDEFINED = new Type(17, "UNDEFINED", 0);

    private static final Type[] ALL = {BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE, OBJECT, BYTE_DYNAMIC,
        CHAR_DYNAMIC, SHORT_DYNAMIC, BOOLEAN_DYNAMIC, INT_DYNAMIC, LONG_DYNAMIC, FLOAT_DYNAMIC, DOUBLE_DYNAMIC, UNDEFINED};

    private final int code;
    private final String name;
    /** Bytes per element in the static part; 0 for dynamic sections. */
    final int staticSize;

    private Type(int code, String name, int staticSize) {
        this.code = code;
        this.name = name;
        this.staticSize = staticSize;
    }

    /** The type's code (0-17, in the order of the constants above). */
    public int getCode() {
        return code;
    }

    /** The type with {@code code}; {@link #UNDEFINED} for an unknown code. */
    public static Type getType(int code) {
        return code >= 0 && code < ALL.length ? ALL[code] : UNDEFINED;
    }

    /** True for OBJECT and the {@code *_DYNAMIC} types, whose elements live in the dynamic part. */
    boolean isDynamic() {
        return code >= OBJECT.code && code < UNDEFINED.code;
    }

    /** The primitive type of the elements: INT for INT and INT_DYNAMIC, OBJECT for OBJECT. */
    Type element() {
        return code > OBJECT.code && code < UNDEFINED.code ? ALL[code - OBJECT.code - 1] : this;
    }

    @Override
    public String toString() {
        return "mpjbuf.Type." + name;
    }
}
