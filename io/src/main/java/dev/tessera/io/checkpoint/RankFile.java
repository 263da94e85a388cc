package dev.tessera.io.checkpoint;

import dev.tessera.comm.Datatype;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * One rank's file of a checkpoint: its metadata and local arrays, checksummed.
 *
 * <pre>
 *   payload:  "TSCKRANK"  int version  int rank  int ranks  long step
 *             int metadataCount  { UTF key  UTF value }
 *             int arrayCount     { UTF name  byte type  long elements  elements (little-endian) }
 *   trailer:  long payloadBytes  int crc32c(payload)  "TSCKEND!"
 * </pre>
 *
 * The trailer is written last and the file forced to the device before the checkpoint is
 * committed, so a file cut short by a crash lacks a valid trailer, and a flipped byte
 * anywhere changes the CRC32C (which detects every burst error up to 32 bits).
 */
final class RankFile {

    static final int VERSION = 1;
    private static final byte[] MAGIC = "TSCKRANK".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] END = "TSCKEND!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    static final int TRAILER_BYTES = 8 + 4 + 8;

    /** Size and checksum of a written file. */
    record Written(long bytes, int crc) implements java.io.Serializable {
    }

    private RankFile() {
    }

    static String name(int rank) {
        return String.format("rank-%05d.bin", rank);
    }

    /** Writes, forces and closes the file; returns its size and the CRC32C of the whole file. */
    static Written write(Path file, int rank, int ranks, long step, CheckpointData data) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            CRC32C crc = new CRC32C();
            long[] count = {0};
            OutputStream sink = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
            DataOutputStream out = new DataOutputStream(new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    crc.update(b);
                    count[0]++;
                    sink.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    crc.update(b, off, len);
                    count[0] += len;
                    sink.write(b, off, len);
                }
            });
            out.write(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(rank);
            out.writeInt(ranks);
            out.writeLong(step);
            out.writeInt(data.metadata().size());
            for (Map.Entry<String, String> e : data.metadata().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
            out.writeInt(data.locals().size());
            byte[] chunk = new byte[1 << 16];
            for (CheckpointData.Local a : data.locals()) {
                MemorySegment seg = segment(a.array());
                out.writeUTF(a.name());
                out.writeByte(a.type().ordinal());
                out.writeLong(seg.byteSize() / a.type().byteSize());
                for (long at = 0; at < seg.byteSize(); at += chunk.length) {
                    int n = (int) Math.min(chunk.length, seg.byteSize() - at);
                    copyLittleEndian(seg, at, chunk, n, a.type());
                    out.write(chunk, 0, n);
                }
            }
            out.flush();
            int payloadCrc = (int) crc.getValue();
            DataOutputStream tail = new DataOutputStream(sink);
            tail.writeLong(count[0]);
            tail.writeInt(payloadCrc);
            tail.write(END);
            tail.flush();
            ch.force(true);
            return new Written(ch.size(), Crc.of(file));
        }
    }

    /** Contents of a rank file. */
    record Contents(int rank, int ranks, long step, Map<String, String> metadata, Map<String, Object> arrays) {
    }

    /** Reads and verifies a rank file. */
    static Contents read(Path file) throws IOException {
        byte[] all = java.nio.file.Files.readAllBytes(file);
        String bad = verifyTrailer(all);
        if (bad != null) {
            throw new IOException(file + ": " + bad);
        }
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(all, 0, all.length - TRAILER_BYTES));
        byte[] magic = in.readNBytes(8);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new IOException(file + ": not a Tessera checkpoint rank file");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException(file + ": format version " + version + ", this reader knows " + VERSION);
        }
        int rank = in.readInt();
        int ranks = in.readInt();
        long step = in.readLong();
        Map<String, String> meta = new LinkedHashMap<>();
        for (int i = in.readInt(); i > 0; i--) {
            meta.put(in.readUTF(), in.readUTF());
        }
        Map<String, Object> arrays = new LinkedHashMap<>();
        for (int i = in.readInt(); i > 0; i--) {
            String name = in.readUTF();
            Datatype type = Datatype.values()[in.readByte()];
            int n = Math.toIntExact(in.readLong());
            Object array = switch (type) {
                case DOUBLE -> new double[n];
                case FLOAT -> new float[n];
                case LONG -> new long[n];
                case INT -> new int[n];
                case SHORT -> new short[n];
                default -> new byte[n];
            };
            MemorySegment seg = segment(array);
            byte[] bytes = in.readNBytes(Math.toIntExact(seg.byteSize()));
            MemorySegment src = MemorySegment.ofArray(bytes);
            if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
                MemorySegment.copy(src, 0, seg, 0, seg.byteSize());
            } else {
                for (long at = 0; at < seg.byteSize(); at += type.byteSize()) {
                    copyElement(src, at, seg, at, type, ByteOrder.LITTLE_ENDIAN, ByteOrder.nativeOrder());
                }
            }
            arrays.put(name, array);
        }
        return new Contents(rank, ranks, step, meta, arrays);
    }

    /** Null if the trailer of {@code all} is valid and matches the payload, else why not. */
    private static String verifyTrailer(byte[] all) {
        if (all.length < TRAILER_BYTES) {
            return "torn: " + all.length + " bytes, shorter than a trailer";
        }
        ByteBuffer t = ByteBuffer.wrap(all, all.length - TRAILER_BYTES, TRAILER_BYTES);
        long payload = t.getLong();
        int crc = t.getInt();
        byte[] end = new byte[8];
        t.get(end);
        if (!java.util.Arrays.equals(end, END) || payload != all.length - TRAILER_BYTES) {
            return "torn: no valid trailer (the file was cut short)";
        }
        CRC32C c = new CRC32C();
        c.update(all, 0, (int) payload);
        if ((int) c.getValue() != crc) {
            return "checksum mismatch (CRC32C " + Integer.toHexString((int) c.getValue()) + ", recorded "
                    + Integer.toHexString(crc) + ")";
        }
        return null;
    }

    static MemorySegment segment(Object array) {
        return switch (array) {
            case double[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case byte[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass());
        };
    }

    private static void copyLittleEndian(MemorySegment seg, long at, byte[] chunk, int n, Datatype type) {
        MemorySegment dst = MemorySegment.ofArray(chunk);
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN || type.byteSize() == 1) {
            MemorySegment.copy(seg, at, dst, 0, n);
            return;
        }
        for (long i = 0; i < n; i += type.byteSize()) {
            copyElement(seg, at + i, dst, i, type, ByteOrder.nativeOrder(), ByteOrder.LITTLE_ENDIAN);
        }
    }

    private static void copyElement(MemorySegment src, long from, MemorySegment dst, long to, Datatype type,
                                    ByteOrder in, ByteOrder out) {
        if (in == out || type.byteSize() == 1) {
            MemorySegment.copy(src, from, dst, to, type.byteSize());
            return;
        }
        for (int b = 0; b < type.byteSize(); b++) {
            dst.set(ValueLayout.JAVA_BYTE, to + b, src.get(ValueLayout.JAVA_BYTE, from + type.byteSize() - 1 - b));
        }
    }
}
