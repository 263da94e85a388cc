package dev.tessera.io.hdf5;

import java.lang.foreign.ValueLayout;

/**
 * The element types a Tessera dataset or numeric attribute holds, each with its HDF5
 * datatype message (version 1, little endian, IEEE floats, two's complement signed
 * integers) and the Java array that carries its values.
 */
public enum Hdf5Type {
    DOUBLE(8, double[].class, ValueLayout.JAVA_DOUBLE_UNALIGNED),
    FLOAT(4, float[].class, ValueLayout.JAVA_FLOAT_UNALIGNED),
    LONG(8, long[].class, ValueLayout.JAVA_LONG_UNALIGNED),
    INT(4, int[].class, ValueLayout.JAVA_INT_UNALIGNED),
    SHORT(2, short[].class, ValueLayout.JAVA_SHORT_UNALIGNED),
    BYTE(1, byte[].class, ValueLayout.JAVA_BYTE);

    private final int size;
    private final Class<?> arrayClass;
    private final ValueLayout layout;

    Hdf5Type(int size, Class<?> arrayClass, ValueLayout layout) {
        this.size = size;
        this.arrayClass = arrayClass;
        this.layout = layout;
    }

    /** Bytes per element. */
    public int size() {
        return size;
    }

    /** The primitive array class that carries values of this type ({@code double[]}, ...). */
    public Class<?> arrayClass() {
        return arrayClass;
    }

    /** The element layout in the host's byte order (what a Java array holds). */
    ValueLayout hostLayout() {
        return layout;
    }

    /** The element layout in a file: little endian. */
    ValueLayout fileLayout() {
        return layout.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    boolean isFloatingPoint() {
        return this == DOUBLE || this == FLOAT;
    }

    /** The type whose Java array class is {@code array}'s, or an exception naming what it got. */
    public static Hdf5Type ofArray(Object array) {
        if (array != null) {
            for (Hdf5Type t : values()) {
                if (t.arrayClass == array.getClass()) {
                    return t;
                }
            }
        }
        throw new IllegalArgumentException("expected a double[], float[], long[], int[], short[] or byte[], got "
                + (array == null ? "null" : array.getClass().getSimpleName()));
    }

    /** A new zeroed array of this type holding {@code n} elements. */
    public Object newArray(int n) {
        return switch (this) {
            case DOUBLE -> new double[n];
            case FLOAT -> new float[n];
            case LONG -> new long[n];
            case INT -> new int[n];
            case SHORT -> new short[n];
            case BYTE -> new byte[n];
        };
    }

    /** A heap segment over a primitive array of any of these types. */
    static java.lang.foreign.MemorySegment segmentOf(Object array) {
        return switch (array) {
            case double[] a -> java.lang.foreign.MemorySegment.ofArray(a);
            case float[] a -> java.lang.foreign.MemorySegment.ofArray(a);
            case long[] a -> java.lang.foreign.MemorySegment.ofArray(a);
            case int[] a -> java.lang.foreign.MemorySegment.ofArray(a);
            case short[] a -> java.lang.foreign.MemorySegment.ofArray(a);
            case byte[] a -> java.lang.foreign.MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("not a supported primitive array: " + array.getClass());
        };
    }

    static int arrayLength(Object array) {
        return java.lang.reflect.Array.getLength(array);
    }

    /** The datatype message (type 0x0003) body for this type. */
    void encodeDatatype(MetadataBuffer out) {
        if (isFloatingPoint()) {
            out.u8(0x11); // version 1, class 1 (floating point)
            out.u8(0x20); // little endian, zero padding, mantissa normalized with implied msb
            out.u8(size * 8 - 1); // sign bit position
            out.u8(0);
            out.u32(size);
            out.u16(0); // bit offset
            out.u16(size * 8); // precision
            if (this == DOUBLE) {
                out.u8(52); out.u8(11); out.u8(0); out.u8(52); out.u32(1023);
            } else {
                out.u8(23); out.u8(8); out.u8(0); out.u8(23); out.u32(127);
            }
        } else {
            out.u8(0x10); // version 1, class 0 (fixed point)
            out.u8(0x08); // little endian, zero padding, signed
            out.u8(0);
            out.u8(0);
            out.u32(size);
            out.u16(0);
            out.u16(size * 8);
        }
    }

    /** Decodes a fixed or floating point datatype message that this enum can represent. */
    static Hdf5Type decode(int typeClass, int bitField0, int size) {
        boolean bigEndian = (bitField0 & 1) != 0;
        if (bigEndian) {
            return null;
        }
        if (typeClass == 1) {
            return size == 8 ? DOUBLE : size == 4 ? FLOAT : null;
        }
        if (typeClass == 0 && (bitField0 & 0x08) != 0) {
            return switch (size) {
                case 8 -> LONG;
                case 4 -> INT;
                case 2 -> SHORT;
                case 1 -> BYTE;
                default -> null;
            };
        }
        return null;
    }
}
