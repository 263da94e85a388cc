package dev.tessera.io.hdf5;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Decodes attribute messages (versions 1-3) whose value {@link Hdf5Reader} can represent:
 * little-endian numbers of {@link Hdf5Type}s as scalars or 1-d arrays, and fixed-length
 * strings. Version 1 pads name, datatype and dataspace to multiples of 8 bytes; versions 2
 * and 3 do not, and version 3 adds the name's character set.
 */
final class AttributeDecoder {

    private AttributeDecoder() {
    }

    static void decode(ByteBuffer b, Map<String, Object> out) {
        int version = b.get(0);
        int nameSize = b.getShort(2) & 0xffff;
        int typeSize = b.getShort(4) & 0xffff;
        int spaceSize = b.getShort(6) & 0xffff;
        int at = version == 3 ? 9 : 8;
        String name = cString(b, at, nameSize);
        at += version == 1 ? pad8(nameSize) : nameSize;
        int typeAt = at;
        at += version == 1 ? pad8(typeSize) : typeSize;
        int spaceAt = at;
        at += version == 1 ? pad8(spaceSize) : spaceSize;
        int dataAt = at;
        int typeClass = b.get(typeAt) & 0x0f;
        int elementSize = b.getInt(typeAt + 4);
        long elements = 1;
        int rank = b.get(spaceAt + 1);
        boolean scalar = rank == 0;
        int dimsAt = spaceAt + (b.get(spaceAt) == 1 ? 8 : 4);
        if (b.get(spaceAt) == 2 && b.get(spaceAt + 3) == 2) {
            return; // null dataspace: no value
        }
        for (int d = 0; d < rank; d++) {
            elements *= b.getLong(dimsAt + 8 * d);
        }
        if (typeClass == 3) {
            if (scalar || elements == 1) {
                out.put(name, cString(b, dataAt, elementSize));
            }
            return;
        }
        Hdf5Type type = typeClass <= 1 ? Hdf5Type.decode(typeClass, b.get(typeAt + 1) & 0xff, elementSize) : null;
        if (type == null || rank > 1 || dataAt + elements * elementSize > b.limit()) {
            return;
        }
        Object array = type.newArray((int) elements);
        byte[] raw = new byte[(int) (elements * elementSize)];
        b.get(dataAt, raw);
        MemorySegment.copy(MemorySegment.ofArray(raw), type.fileLayout(), 0, Hdf5Type.segmentOf(array),
                type.hostLayout(), 0, elements);
        out.put(name, scalar ? java.lang.reflect.Array.get(array, 0) : array);
    }

    private static int pad8(int n) {
        return (n + 7) / 8 * 8;
    }

    private static String cString(ByteBuffer b, int at, int max) {
        int end = at;
        while (end < at + max && end < b.limit() && b.get(end) != 0) {
            end++;
        }
        byte[] s = new byte[end - at];
        b.get(at, s);
        return new String(s, StandardCharsets.UTF_8);
    }
}
