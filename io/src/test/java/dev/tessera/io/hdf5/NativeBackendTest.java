package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link Hdf5Backend#NATIVE} backend (libhdf5 bundled by org.bytedeco:hdf5): files it
 * writes are read by our reader, h5py and h5dump; files our writer writes are read by it;
 * the system property selects it. Skipped (with the reason) where the bundled library does
 * not load, e.g. on a platform whose native jar is not on the class path.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NativeBackendTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void requireLibrary() {
        assumeTrue(Hdf5Backend.NATIVE.isAvailable(), () -> "native backend unavailable: "
                + Hdf5Backend.NATIVE.unavailableReason().orElse(""));
    }

    /** 3-d test field: value = z * 10000 + y * 100 + x. */
    private static double[] field(int nz, int ny, int nx) {
        double[] v = new double[nz * ny * nx];
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    v[(z * ny + y) * nx + x] = z * 10000 + y * 100 + x;
                }
            }
        }
        return v;
    }

    /** Writes the same content with {@code backend}: every type, groups, attributes, a streamed chunked+deflated field. */
    private static void writeSample(Path f, Hdf5Backend backend) {
        try (Hdf5Writer w = Hdf5Writer.create(f, backend)) {
            assertEquals(backend, w.backend());
            w.root().attribute("title", "Sedov blast").attribute("time", 0.125).attribute("step", 42L)
                    .attribute("dims", new int[] {7, 6, 5}).attribute("unicode", "Δx = 1 µm");
            Hdf5Group fields = w.root().createGroup("fields");
            fields.writeDataset("f", new long[] {3}, new float[] {1.5f, -2f, 3e10f});
            fields.writeDataset("l", new long[] {2}, new long[] {1L << 40, -7});
            fields.writeDataset("i", new long[] {2, 2}, new int[] {1, -2, Integer.MAX_VALUE, Integer.MIN_VALUE});
            fields.writeDataset("s", new long[] {3}, new short[] {1, -2, Short.MAX_VALUE});
            fields.writeDataset("b", new long[] {3}, new byte[] {1, -2, 127});
            Hdf5Dataset rho = fields.createDataset("rho", Hdf5Type.DOUBLE, new long[] {7, 6, 5}, Hdf5Layout.chunked(3, 4, 5).deflate(4));
            rho.attribute("units", "g/cm^3");
            double[] all = field(7, 6, 5);
            for (int z = 0; z < 7; z++) { // streamed one plane at a time
                double[] plane = java.util.Arrays.copyOfRange(all, z * 30, (z + 1) * 30);
                rho.write(new long[] {z, 0, 0}, new long[] {1, 6, 5}, plane);
            }
            Hdf5Dataset u = fields.createDataset("u", Hdf5Type.DOUBLE, 7, 6, 5); // contiguous, in two boxes
            u.write(new long[] {0, 0, 0}, new long[] {4, 6, 5}, java.util.Arrays.copyOfRange(all, 0, 120));
            u.write(new long[] {4, 0, 0}, new long[] {3, 6, 5}, java.util.Arrays.copyOfRange(all, 120, 210));
        }
    }

    /** Checks {@link #writeSample}'s content through {@code backend}'s reader. */
    private static void checkSample(Path f, Hdf5Backend backend) {
        try (Hdf5Reader r = Hdf5Reader.open(f, backend)) {
            assertEquals(List.of("b", "f", "i", "l", "rho", "s", "u"), r.list("/fields").stream().sorted().toList());
            Map<String, Object> a = r.attributes("/");
            assertEquals("Sedov blast", a.get("title"));
            assertEquals(0.125, a.get("time"));
            assertEquals(42L, a.get("step"));
            assertArrayEquals(new int[] {7, 6, 5}, (int[]) a.get("dims"));
            assertEquals("Δx = 1 µm", a.get("unicode"));
            assertEquals("g/cm^3", r.attributes("/fields/rho").get("units"));
            assertArrayEquals(new float[] {1.5f, -2f, 3e10f}, (float[]) r.read("/fields/f"));
            assertArrayEquals(new long[] {1L << 40, -7}, (long[]) r.read("/fields/l"));
            assertArrayEquals(new int[] {1, -2, Integer.MAX_VALUE, Integer.MIN_VALUE}, (int[]) r.read("/fields/i"));
            assertArrayEquals(new short[] {1, -2, Short.MAX_VALUE}, (short[]) r.read("/fields/s"));
            assertArrayEquals(new byte[] {1, -2, 127}, (byte[]) r.read("/fields/b"));
            DatasetInfo rho = r.dataset("/fields/rho");
            assertArrayEquals(new long[] {7, 6, 5}, rho.shape());
            assertArrayEquals(new int[] {3, 4, 5}, rho.chunk());
            assertTrue(rho.deflated());
            assertEquals(Hdf5Type.DOUBLE, rho.type());
            assertArrayEquals(field(7, 6, 5), (double[]) r.read("/fields/rho"));
            assertArrayEquals(field(7, 6, 5), (double[]) r.read("/fields/u"));
            // a box across chunk boundaries
            double[] box = (double[]) r.read("/fields/rho", new long[] {2, 3, 1}, new long[] {3, 2, 3});
            assertEquals(2 * 10000 + 3 * 100 + 1, box[0]);
            assertEquals(4 * 10000 + 4 * 100 + 3, box[box.length - 1]);
        }
    }

    @Test
    void nativeWritesWhatOurReaderAndNativeReaderReadBack() {
        Path f = dir.resolve("native.h5");
        writeSample(f, Hdf5Backend.NATIVE);
        checkSample(f, Hdf5Backend.TESSERA);
        checkSample(f, Hdf5Backend.NATIVE);
    }

    @Test
    void oursWritesWhatTheNativeReaderReadsBack() {
        Path f = dir.resolve("ours.h5");
        writeSample(f, Hdf5Backend.TESSERA);
        checkSample(f, Hdf5Backend.NATIVE);
    }

    @Test
    void nativeFileReadsInH5pyAndH5dumpWithChunksCompressionAndAttributes() {
        Path f = dir.resolve("native.h5");
        writeSample(f, Hdf5Backend.NATIVE);
        String out = ExternalReaders.h5py("f = h5py.File('" + f + "', 'r')\n"
                + "r = f['fields/rho']\n"
                + "z, y, x = np.meshgrid(np.arange(7), np.arange(6), np.arange(5), indexing='ij')\n"
                + "print(r.dtype.str, r.shape, r.chunks, r.compression, r.compression_opts, bool((r[...] == z * 10000 + y * 100 + x).all()))\n"
                + "print(f.attrs['title'].decode(), f.attrs['time'], f.attrs['step'], f.attrs['dims'].tolist(), r.attrs['units'].decode())\n"
                + "print(f['fields/i'][...].ravel().tolist(), f['fields/b'].dtype.str)\n");
        String[] lines = out.split("\n");
        assertEquals("<f8 (7, 6, 5) (3, 4, 5) gzip 4 True", lines[0]);
        assertEquals("Sedov blast 0.125 42 [7, 6, 5] g/cm^3", lines[1]);
        assertEquals("[1, -2, 2147483647, -2147483648] |i1", lines[2]);
        ExternalReaders.Result dump = ExternalReaders.h5dump("-p", "-H", f.toString());
        assertEquals(0, dump.exit(), dump.err());
        assertTrue(dump.out().contains("CHUNKED ( 3, 4, 5 )"), dump.out());
        assertTrue(dump.out().contains("COMPRESSION DEFLATE { LEVEL 4 }"), dump.out());
    }

    @Test
    void systemPropertySelectsTheBackendAndABadValueIsNamed() {
        String before = System.getProperty(Hdf5Backend.PROPERTY);
        try {
            System.setProperty(Hdf5Backend.PROPERTY, "native");
            assertEquals(Hdf5Backend.NATIVE, Hdf5Backend.selected());
            Path f = dir.resolve("selected.h5");
            try (Hdf5Writer w = Hdf5Writer.create(f)) {
                assertEquals(Hdf5Backend.NATIVE, w.backend());
                w.root().writeDataset("x", new long[] {2}, new double[] {1, 2});
            }
            assertArrayEquals(new double[] {1, 2}, (double[]) DistributedDataset.read(null, f, "/x", new long[] {0}, new long[] {2}));
            System.setProperty(Hdf5Backend.PROPERTY, "tessera");
            try (Hdf5Writer w = Hdf5Writer.create(f)) {
                assertEquals(Hdf5Backend.TESSERA, w.backend());
            }
            System.setProperty(Hdf5Backend.PROPERTY, "hdf6");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, Hdf5Backend::selected);
            assertTrue(e.getMessage().contains(Hdf5Backend.PROPERTY) && e.getMessage().contains("hdf6"), e.getMessage());
        } finally {
            if (before == null) {
                System.clearProperty(Hdf5Backend.PROPERTY);
            } else {
                System.setProperty(Hdf5Backend.PROPERTY, before);
            }
        }
    }

    @Test
    void nativeReaderNamesANonHdf5FileAndAMissingDataset() throws Exception {
        Path text = dir.resolve("notes.h5");
        Files.writeString(text, "not HDF5 at all, just text long enough to hold a superblock".repeat(4));
        Hdf5FormatException e = assertThrows(Hdf5FormatException.class, () -> Hdf5Reader.open(text, Hdf5Backend.NATIVE));
        assertTrue(e.getMessage().contains(text.toString()) && e.getMessage().contains("not an HDF5 file"), e.getMessage());
        Path f = dir.resolve("one.h5");
        writeSample(f, Hdf5Backend.NATIVE);
        try (Hdf5Reader r = Hdf5Reader.open(f, Hdf5Backend.NATIVE)) {
            Hdf5FormatException missing = assertThrows(Hdf5FormatException.class, () -> r.read("/fields/nope"));
            assertTrue(missing.getMessage().contains(f.toString()) && missing.getMessage().contains("/fields/nope"),
                    missing.getMessage());
        }
        try (Hdf5Writer w = Hdf5Writer.create(dir.resolve("two.h5"), Hdf5Backend.NATIVE)) {
            Hdf5Dataset d = w.root().createDataset("x", Hdf5Type.DOUBLE, 4);
            IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
                    () -> d.write(new long[] {3}, new long[] {2}, new double[2]));
            assertTrue(outside.getMessage().contains("/x") && outside.getMessage().contains("outside"), outside.getMessage());
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                    () -> w.root().createDataset("x", Hdf5Type.DOUBLE, 4));
            assertTrue(twice.getMessage().contains("already exists"), twice.getMessage());
        }
    }
}
