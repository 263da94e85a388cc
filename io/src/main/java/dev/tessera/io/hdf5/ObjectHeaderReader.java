package dev.tessera.io.hdf5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the metadata {@link Hdf5Reader} walks: superblocks v0-v3, object headers v1 and
 * v2 (with continuation chunks), and the children of a group in either style: link
 * messages ("new style", what {@link Hdf5Writer} and libhdf5 with the latest format write)
 * or a symbol table (v1 B-tree of symbol nodes plus a local heap: what h5py writes by
 * default). Dense link storage (fractal heaps, groups of many links written by libhdf5 in
 * the new style) is reported as unsupported so that callers can fall back to jHDF.
 */
final class ObjectHeaderReader {

    static final byte[] SIGNATURE = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

    /** One header message: type and body (a little-endian view). */
    record Message(int type, ByteBuffer body) {
    }

    private final Path path;
    private final FileChannel channel;
    private long base;
    private long rootAddress;

    ObjectHeaderReader(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
        readSuperblock();
    }

    long rootAddress() {
        return rootAddress;
    }

    Path path() {
        return path;
    }

    ByteBuffer read(long address, int length) {
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        try {
            long at = base + address;
            while (b.hasRemaining()) {
                int n = channel.read(b, at);
                if (n < 0) {
                    throw new Hdf5FormatException(path + ": truncated file: needed " + length + " bytes at address "
                            + address + ", the file ends at " + channel.size());
                }
                at += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": read failed: " + e, e);
        }
        return b.flip();
    }

    private void readSuperblock() {
        long size;
        try {
            size = channel.size();
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": " + e, e);
        }
        // the signature is at 0 or after a user block of 512, 1024, 2048, ... bytes
        for (long at = 0; at + 48 <= size; at = at == 0 ? 512 : at * 2) {
            ByteBuffer b = read(at, 9);
            boolean match = true;
            for (int i = 0; i < 8; i++) {
                match &= b.get(i) == SIGNATURE[i];
            }
            if (!match) {
                continue;
            }
            int version = b.get(8);
            if (version == 2 || version == 3) {
                ByteBuffer sb = read(at, 48);
                if (sb.get(9) != 8 || sb.get(10) != 8) {
                    throw new Hdf5FormatException(path + ": superblock with " + sb.get(9) + "-byte offsets", true);
                }
                int stored = sb.getInt(44);
                if (stored != Lookup3.hash(sb.array(), 0, 44)) {
                    throw new Hdf5FormatException(path + ": superblock checksum mismatch (damaged file)");
                }
                base = sb.getLong(12);
                rootAddress = sb.getLong(36);
            } else if (version == 0 || version == 1) {
                ByteBuffer sb = read(at, 100);
                if (sb.get(13) != 8 || sb.get(14) != 8) {
                    throw new Hdf5FormatException(path + ": superblock with " + sb.get(13) + "-byte offsets", true);
                }
                int fields = version == 0 ? 24 : 28;
                base = sb.getLong(fields);
                rootAddress = sb.getLong(fields + 32 + 8);
            } else {
                throw new Hdf5FormatException(path + ": superblock version " + version, true);
            }
            return;
        }
        throw new Hdf5FormatException(path + ": not an HDF5 file (no HDF5 signature at byte 0 or after a user block)");
    }

    /** The messages of the object header at {@code address}, continuation chunks included. */
    List<Message> messages(long address) {
        List<Message> out = new ArrayList<>();
        ByteBuffer first = read(address, 16);
        if (first.get(0) == 'O' && first.get(1) == 'H' && first.get(2) == 'D' && first.get(3) == 'R') {
            readV2(address, out);
        } else if (first.get(0) == 1) {
            readV1(address, first, out);
        } else {
            throw new Hdf5FormatException(path + ": no object header at address " + address + " (damaged file)");
        }
        return out;
    }

    private void readV2(long address, List<Message> out) {
        ByteBuffer p = read(address, 32);
        int flags = p.get(5) & 0xff;
        int at = 6;
        if ((flags & 0x20) != 0) {
            at += 16;
        }
        if ((flags & 0x10) != 0) {
            at += 4;
        }
        int sizeBytes = 1 << (flags & 3);
        long chunkSize = readUnsigned(p, at, sizeBytes);
        at += sizeBytes;
        ByteBuffer chunk = read(address, (int) (at + chunkSize + 4));
        checkChecksum(chunk, address);
        List<long[]> continuations = new ArrayList<>();
        parseV2Messages(chunk, at, at + (int) chunkSize, (flags & 0x04) != 0, out, continuations);
        for (int i = 0; i < continuations.size(); i++) {
            long[] c = continuations.get(i);
            ByteBuffer ch = read(c[0], (int) c[1]);
            if (ch.get(0) != 'O' || ch.get(1) != 'C' || ch.get(2) != 'H' || ch.get(3) != 'K') {
                throw new Hdf5FormatException(path + ": bad continuation chunk at " + c[0]);
            }
            checkChecksum(ch, c[0]);
            parseV2Messages(ch, 4, (int) c[1] - 4, (flags & 0x04) != 0, out, continuations);
        }
    }

    private void checkChecksum(ByteBuffer b, long address) {
        int n = b.limit();
        if (b.getInt(n - 4) != Lookup3.hash(b.array(), 0, n - 4)) {
            throw new Hdf5FormatException(path + ": checksum mismatch in the object header at address " + address
                    + " (damaged file)");
        }
    }

    private static void parseV2Messages(ByteBuffer b, int from, int to, boolean creationOrder, List<Message> out,
            List<long[]> continuations) {
        int header = creationOrder ? 6 : 4;
        int at = from;
        while (at + header <= to) {
            int type = b.get(at) & 0xff;
            int size = b.getShort(at + 1) & 0xffff;
            ByteBuffer body = b.slice(at + header, size).order(ByteOrder.LITTLE_ENDIAN);
            if (type == ObjectHeader.MSG_CONTINUATION) {
                continuations.add(new long[] {body.getLong(0), body.getLong(8)});
            } else {
                out.add(new Message(type, body));
            }
            at += header + size;
        }
    }

    private void readV1(long address, ByteBuffer first, List<Message> out) {
        int count = first.getShort(2) & 0xffff;
        long size = first.getInt(8) & 0xffffffffL;
        List<long[]> chunks = new ArrayList<>();
        chunks.add(new long[] {address + 16, size});
        for (int c = 0; c < chunks.size() && out.size() < count; c++) {
            ByteBuffer b = read(chunks.get(c)[0], (int) chunks.get(c)[1]);
            int at = 0;
            while (at + 8 <= b.limit() && out.size() < count) {
                int type = b.getShort(at) & 0xffff;
                int msize = b.getShort(at + 2) & 0xffff;
                ByteBuffer body = b.slice(at + 8, msize).order(ByteOrder.LITTLE_ENDIAN);
                if (type == ObjectHeader.MSG_CONTINUATION) {
                    chunks.add(new long[] {body.getLong(0), body.getLong(8)});
                    count--; // the continuation message itself is counted but not returned
                } else {
                    out.add(new Message(type, body));
                }
                at += 8 + msize;
            }
        }
    }

    /** Children of the group with these header messages: name to object header address. */
    Map<String, Long> children(String groupPath, List<Message> messages) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Message m : messages) {
            if (m.type() == ObjectHeader.MSG_LINK) {
                parseLink(groupPath, m.body(), out);
            } else if (m.type() == ObjectHeader.MSG_LINK_INFO) {
                ByteBuffer b = m.body();
                int flags = b.get(1);
                long heap = b.getLong(2 + ((flags & 1) != 0 ? 8 : 0));
                if (heap != MetadataBuffer.UNDEFINED_ADDRESS) {
                    throw new Hdf5FormatException(path + ": group " + groupPath
                            + " stores its links densely (fractal heap), which this reader does not read", true);
                }
            } else if (m.type() == 0x11) { // symbol table
                readSymbolTable(m.body().getLong(0), m.body().getLong(8), out);
            }
        }
        return out;
    }

    private void parseLink(String groupPath, ByteBuffer b, Map<String, Long> out) {
        int flags = b.get(1) & 0xff;
        int at = 2;
        int linkType = 0;
        if ((flags & 0x08) != 0) {
            linkType = b.get(at++) & 0xff;
        }
        if ((flags & 0x04) != 0) {
            at += 8;
        }
        if ((flags & 0x10) != 0) {
            at++;
        }
        int lengthBytes = 1 << (flags & 3);
        int length = (int) readUnsigned(b, at, lengthBytes);
        at += lengthBytes;
        byte[] name = new byte[length];
        b.get(at, name);
        at += length;
        String n = new String(name, StandardCharsets.UTF_8);
        if (linkType != 0) {
            out.put(n, -1L); // soft or external link: present, not followed
            return;
        }
        out.put(n, b.getLong(at));
    }

    private void readSymbolTable(long btree, long heap, Map<String, Long> out) {
        ByteBuffer h = read(heap, 32);
        long data = h.getLong(24);
        long dataSize = h.getLong(8);
        ByteBuffer names = read(data, (int) dataSize);
        walkGroupTree(btree, names, out);
    }

    private void walkGroupTree(long node, ByteBuffer names, Map<String, Long> out) {
        ByteBuffer hdr = read(node, 24);
        int level = hdr.get(5);
        int entries = hdr.getShort(6) & 0xffff;
        ByteBuffer b = read(node + 24, entries * 16 + 8);
        for (int i = 0; i < entries; i++) {
            long child = b.getLong(8 + i * 16);
            if (level > 0) {
                walkGroupTree(child, names, out);
            } else {
                ByteBuffer s = read(child, 8);
                int symbols = s.getShort(6) & 0xffff;
                ByteBuffer e = read(child + 8, symbols * 40);
                for (int k = 0; k < symbols; k++) {
                    long nameOffset = e.getLong(k * 40);
                    out.put(cString(names, (int) nameOffset), e.getLong(k * 40 + 8));
                }
            }
        }
    }

    private static String cString(ByteBuffer b, int at) {
        int end = at;
        while (end < b.limit() && b.get(end) != 0) {
            end++;
        }
        byte[] n = new byte[end - at];
        b.get(at, n);
        return new String(n, StandardCharsets.UTF_8);
    }

    static long readUnsigned(ByteBuffer b, int at, int bytes) {
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v |= (b.get(at + i) & 0xffL) << (8 * i);
        }
        return v;
    }
}
