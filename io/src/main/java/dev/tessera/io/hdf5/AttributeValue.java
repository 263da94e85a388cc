package dev.tessera.io.hdf5;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * An attribute's value as HDF5 stores it: a datatype, a dataspace and the raw bytes. Made
 * from a boxed number (a scalar), a String (a fixed-length UTF-8 string) or a primitive
 * array (a 1-d array).
 */
record AttributeValue(MetadataBuffer datatype, MetadataBuffer dataspace, byte[] raw) {

    static AttributeValue of(String attribute, Object value) {
        if (value instanceof String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            byte[] raw = b.length == 0 ? new byte[1] : b;
            return new AttributeValue(ObjectHeader.stringDatatype(raw.length), ObjectHeader.dataspace(new long[0]), raw);
        }
        Object array = switch (value) {
            case Double d -> new double[] {d};
            case Float f -> new float[] {f};
            case Long l -> new long[] {l};
            case Integer i -> new int[] {i};
            case Short s -> new short[] {s};
            case Byte b -> new byte[] {b};
            case null -> throw new IllegalArgumentException("attribute " + attribute + ": value is null");
            default -> value;
        };
        Hdf5Type type;
        try {
            type = Hdf5Type.ofArray(array);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("attribute " + attribute + ": unsupported value type "
                    + value.getClass().getSimpleName() + " (use a number, a String or a primitive array)");
        }
        int n = Hdf5Type.arrayLength(array);
        long[] dims = value == array ? new long[] {n} : new long[0];
        byte[] raw = new byte[n * type.size()];
        MemorySegment.copy(Hdf5Type.segmentOf(array), type.hostLayout(), 0,
                MemorySegment.ofArray(raw), type.fileLayout(), 0, n);
        return new AttributeValue(ObjectHeader.datatype(type), ObjectHeader.dataspace(dims), raw);
    }

    MetadataBuffer message(String name) {
        return ObjectHeader.attribute(name, datatype, dataspace, raw);
    }
}
