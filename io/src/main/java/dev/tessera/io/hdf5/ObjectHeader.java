package dev.tessera.io.hdf5;

import java.nio.charset.StandardCharsets;

/**
 * Builds one version-2 object header ("OHDR") and encodes the header messages Tessera
 * writes into it. Layout (HDF5 file format specification, IV.A.1.b):
 *
 * <pre>
 *  "OHDR" | version 2 | flags | size of chunk #0 (4 bytes: flags bits 0-1 = 2)
 *  messages: type (1) | size of data (2) | flags (1) | data ...
 *  lookup3 checksum of everything before it (4)
 * </pre>
 *
 * Every message used here is a version libhdf5 1.8 and later read: dataspace v2, datatype
 * v1, fill value v3, layout v3, filter pipeline v2, attribute v3, link v1, link info v0,
 * group info v0. Groups are "new style": a link info message, a group info message and one
 * link message per child (compact storage; a reader takes any number of them, libhdf5 only
 * converts to dense storage when it modifies the group).
 */
final class ObjectHeader {

    static final int MSG_DATASPACE = 0x01;
    static final int MSG_LINK_INFO = 0x02;
    static final int MSG_DATATYPE = 0x03;
    static final int MSG_FILL_VALUE = 0x05;
    static final int MSG_LINK = 0x06;
    static final int MSG_LAYOUT = 0x08;
    static final int MSG_GROUP_INFO = 0x0A;
    static final int MSG_FILTER_PIPELINE = 0x0B;
    static final int MSG_ATTRIBUTE = 0x0C;
    static final int MSG_CONTINUATION = 0x10;
    static final int MSG_ATTRIBUTE_INFO = 0x15;

    private static final int MSG_FLAG_CONSTANT = 0x01;

    private final MetadataBuffer messages = new MetadataBuffer();

    ObjectHeader message(int type, MetadataBuffer body, boolean constant) {
        if (body.size() > 0xffff) {
            throw new IllegalArgumentException("an HDF5 header message holds at most 65535 bytes, this one needs "
                    + body.size() + " (an attribute too large? store large arrays as datasets)");
        }
        messages.u8(type).u16(body.size()).u8(constant ? MSG_FLAG_CONSTANT : 0).bytes(body.array(), 0, body.size());
        return this;
    }

    /** The encoded header with its checksum. */
    byte[] encode() {
        MetadataBuffer out = new MetadataBuffer(messages.size() + 16);
        out.ascii("OHDR").u8(2).u8(0x02).u32(messages.size());
        out.bytes(messages.array(), 0, messages.size());
        out.checksumFrom(0);
        return out.toByteArray();
    }

    // ---- message bodies ----

    static MetadataBuffer dataspace(long[] dims) {
        MetadataBuffer b = new MetadataBuffer();
        b.u8(2).u8(dims.length).u8(0).u8(dims.length == 0 ? 0 : 1);
        for (long d : dims) {
            b.u64(d);
        }
        return b;
    }

    static MetadataBuffer datatype(Hdf5Type type) {
        MetadataBuffer b = new MetadataBuffer();
        type.encodeDatatype(b);
        return b;
    }

    /** A fixed-length UTF-8 string type of {@code length} bytes, null padded. */
    static MetadataBuffer stringDatatype(int length) {
        MetadataBuffer b = new MetadataBuffer();
        b.u8(0x13).u8(0x11).u8(0).u8(0).u32(length); // class 3; null pad, UTF-8
        return b;
    }

    /** Fill value v3, no value given (readers fill with zeros); allocation late or incremental. */
    static MetadataBuffer fillValue(boolean chunked) {
        int allocTime = chunked ? 3 : 2;
        int fillTime = 2; // "if set": never written since none is set
        return new MetadataBuffer().u8(3).u8(allocTime | fillTime << 2);
    }

    static MetadataBuffer contiguousLayout(long address, long size) {
        return new MetadataBuffer().u8(3).u8(1).u64(address).u64(size);
    }

    static MetadataBuffer chunkedLayout(long btreeAddress, int[] chunk, int elementSize) {
        MetadataBuffer b = new MetadataBuffer().u8(3).u8(2).u8(chunk.length + 1).u64(btreeAddress);
        for (int c : chunk) {
            b.u32(c);
        }
        return b.u32(elementSize);
    }

    static MetadataBuffer deflatePipeline(int level) {
        // version 2, one filter: id 1 (deflate), flags 0 (mandatory), one client value: the level
        return new MetadataBuffer().u8(2).u8(1).u16(1).u16(0).u16(1).u32(level);
    }

    static MetadataBuffer linkInfo() {
        return new MetadataBuffer().u8(0).u8(0).u64(MetadataBuffer.UNDEFINED_ADDRESS).u64(MetadataBuffer.UNDEFINED_ADDRESS);
    }

    /**
     * Attribute info, version 0: no creation order, compact storage (no fractal heap, no name
     * index). libhdf5 counts a version-2 header's attributes from this message
     * (H5Oget_info's num_attrs, h5py's len(attrs)): without it they count as none.
     */
    static MetadataBuffer attributeInfo() {
        return new MetadataBuffer().u8(0).u8(0).u64(MetadataBuffer.UNDEFINED_ADDRESS).u64(MetadataBuffer.UNDEFINED_ADDRESS);
    }

    static MetadataBuffer groupInfo() {
        return new MetadataBuffer().u8(0).u8(0);
    }

    /** A hard link named {@code name} (UTF-8) to the object header at {@code address}. */
    static MetadataBuffer hardLink(String name, long address) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        MetadataBuffer b = new MetadataBuffer();
        int lengthSize = n.length < 256 ? 0 : 1;
        b.u8(1).u8(lengthSize | 0x10).u8(1); // version 1; charset present; UTF-8
        if (lengthSize == 0) {
            b.u8(n.length);
        } else {
            b.u16(n.length);
        }
        return b.bytes(n).u64(address);
    }

    /** Attribute message v3 from an already encoded datatype, dataspace and raw value. */
    static MetadataBuffer attribute(String name, MetadataBuffer datatype, MetadataBuffer dataspace, byte[] value) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        MetadataBuffer b = new MetadataBuffer();
        b.u8(3).u8(0).u16(n.length + 1).u16(datatype.size()).u16(dataspace.size()).u8(1); // UTF-8 name
        b.bytes(n).u8(0);
        b.bytes(datatype.array(), 0, datatype.size());
        b.bytes(dataspace.array(), 0, dataspace.size());
        return b.bytes(value);
    }
}
