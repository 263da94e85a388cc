package dev.tessera.io.hdf5;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer for building HDF5 metadata structures (object
 * headers, B-tree nodes, the superblock) before they are written in one piece.
 */
final class MetadataBuffer {

    /** The HDF5 "undefined address": all bits set. */
    static final long UNDEFINED_ADDRESS = -1L;

    private byte[] bytes;
    private int size;

    MetadataBuffer() {
        this(256);
    }

    MetadataBuffer(int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    int size() {
        return size;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    /** The backing array (valid up to {@link #size()}). */
    byte[] array() {
        return bytes;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    MetadataBuffer u8(int v) {
        ensure(1);
        bytes[size++] = (byte) v;
        return this;
    }

    MetadataBuffer u16(int v) {
        if (v < 0 || v > 0xffff) {
            throw new IllegalArgumentException("value " + v + " does not fit an HDF5 16-bit field");
        }
        ensure(2);
        bytes[size++] = (byte) v;
        bytes[size++] = (byte) (v >>> 8);
        return this;
    }

    MetadataBuffer u32(long v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            bytes[size++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    MetadataBuffer u64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            bytes[size++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    MetadataBuffer bytes(byte[] b) {
        return bytes(b, 0, b.length);
    }

    MetadataBuffer bytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
        return this;
    }

    MetadataBuffer zeros(int n) {
        ensure(n);
        size += n; // the array is zero beyond size: it only grows by copying
        return this;
    }

    MetadataBuffer ascii(String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    void patchU32(int at, long v) {
        for (int i = 0; i < 4; i++) {
            bytes[at + i] = (byte) (v >>> (8 * i));
        }
    }

    /** Appends the lookup3 checksum of bytes [from, size). */
    MetadataBuffer checksumFrom(int from) {
        return u32(Lookup3.hash(bytes, from, size - from) & 0xffffffffL);
    }
}
