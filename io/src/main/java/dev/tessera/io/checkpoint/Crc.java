package dev.tessera.io.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/** CRC32C (Castagnoli; hardware-accelerated by the JDK) of files and of fixed-size chunks of files. */
final class Crc {

    /** Chunk size of the checksums of distributed-array files: verified in parallel, one chunk per rank at a time. */
    static final int CHUNK = 4 << 20;

    private Crc() {
    }

    /** CRC32C of a whole file. */
    static int of(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return range(ch, 0, ch.size());
        }
    }

    /** CRC32C of bytes [from, from + length) of an open file (bytes past the end count as missing). */
    static int range(FileChannel ch, long from, long length) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(1 << 20, Math.max(1, length)));
        long at = from;
        long end = from + length;
        while (at < end) {
            buf.clear().limit((int) Math.min(buf.capacity(), end - at));
            int n = ch.read(buf, at);
            if (n < 0) {
                throw new IOException("file ends at " + at + ", expected " + end + " bytes (torn)");
            }
            buf.flip();
            crc.update(buf);
            at += n;
        }
        return (int) crc.getValue();
    }

    /** Number of {@link #CHUNK}-byte chunks of a file of {@code size} bytes. */
    static int chunks(long size) {
        return (int) ((size + CHUNK - 1) / CHUNK);
    }
}
