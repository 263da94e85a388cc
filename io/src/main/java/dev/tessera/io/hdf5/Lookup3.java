package dev.tessera.io.hdf5;

/**
 * Bob Jenkins' lookup3 {@code hashlittle} with an initial value of 0: the checksum HDF5
 * stores after every version-2 metadata structure (superblock v2/v3, OHDR, ...). The byte
 * order of the key is little endian, which is what the format specifies on every host.
 */
final class Lookup3 {

    private Lookup3() {
    }

    static int hash(byte[] key, int offset, int length) {
        int a = 0xdeadbeef + length;
        int b = a;
        int c = a;
        int k = offset;
        int remaining = length;
        while (remaining > 12) {
            a += word(key, k);
            b += word(key, k + 4);
            c += word(key, k + 8);
            // mix(a, b, c)
            a -= c; a ^= Integer.rotateLeft(c, 4); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 6); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 8); b += a;
            a -= c; a ^= Integer.rotateLeft(c, 16); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 19); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 4); b += a;
            remaining -= 12;
            k += 12;
        }
        if (remaining == 0) {
            return c;
        }
        // the tail: bytes 0..remaining-1 of the last block, as a switch that falls through
        for (int i = remaining - 1; i >= 0; i--) {
            int v = (key[k + i] & 0xff) << ((i & 3) * 8);
            if (i >= 8) {
                c += v;
            } else if (i >= 4) {
                b += v;
            } else {
                a += v;
            }
        }
        // final(a, b, c)
        c ^= b; c -= Integer.rotateLeft(b, 14);
        a ^= c; a -= Integer.rotateLeft(c, 11);
        b ^= a; b -= Integer.rotateLeft(a, 25);
        c ^= b; c -= Integer.rotateLeft(b, 16);
        a ^= c; a -= Integer.rotateLeft(c, 4);
        b ^= a; b -= Integer.rotateLeft(a, 14);
        c ^= b; c -= Integer.rotateLeft(b, 24);
        return c;
    }

    private static int word(byte[] key, int k) {
        return (key[k] & 0xff) | (key[k + 1] & 0xff) << 8 | (key[k + 2] & 0xff) << 16 | (key[k + 3] & 0xff) << 24;
    }
}
