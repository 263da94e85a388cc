package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Files written by {@link Hdf5Writer}, checked by h5py, h5dump and jHDF. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Hdf5WriterTest {

    @TempDir
    Path dir;

    @Test
    void partsLargerThanTheStagingBuffersAreWrittenWholeWhilePackingOverlapsTheWrites() {
        // 3 x 1M doubles per part (24 MiB): each part goes through both 4 MiB staging buffers several times
        int rows = 6;
        int row = 1 << 20;
        Path file = dir.resolve("large.h5");
        try (Hdf5Writer w = Hdf5Writer.create(file)) {
            Hdf5Dataset d = w.root().createDataset("big", Hdf5Type.DOUBLE, new long[] {rows, row}, Hdf5Layout.contiguous());
            for (int part = 0; part < 2; part++) {
                double[] values = new double[3 * row];
                for (int i = 0; i < values.length; i++) {
                    values[i] = (part * 3L * row + i) * 0.5;
                }
                d.write(new long[] {3L * part, 0}, new long[] {3, row}, values);
            }
        }
        try (Hdf5Reader r = Hdf5Reader.open(file)) {
            double[] all = (double[]) r.read("/big");
            for (int i = 0; i < all.length; i++) {
                if (all[i] != i * 0.5) {
                    throw new AssertionError("element " + i + " is " + all[i] + ", expected " + i * 0.5);
                }
            }
            assertEquals((long) rows * row, all.length);
        }
    }

    @Test
    void everyElementTypeReadsBackInH5pyWithItsDtypeShapeAndValues() {
        Path f = dir.resolve("types.h5");
        try (Hdf5Writer w = Hdf5Writer.create(f)) {
            double[] d = new double[2 * 3 * 4];
            for (int i = 0; i < d.length; i++) {
                d[i] = i * 0.25 - 1;
            }
            w.root().writeDataset("d", new long[] {2, 3, 4}, d);
            w.root().writeDataset("f", new long[] {3}, new float[] {1.5f, -2f, 3e10f});
            w.root().writeDataset("l", new long[] {2}, new long[] {1L << 40, -7});
            w.root().writeDataset("i", new long[] {2, 2}, new int[] {1, -2, Integer.MAX_VALUE, Integer.MIN_VALUE});
            w.root().writeDataset("s", new long[] {3}, new short[] {1, -2, Short.MAX_VALUE});
            w.root().writeDataset("b", new long[] {3}, new byte[] {1, -2, 127});
        }
        String out = ExternalReaders.h5py("f = h5py.File('" + f + "', 'r')\n"
                + "for n in ['d', 'f', 'l', 'i', 's', 'b']:\n"
                + "    print(n, f[n].dtype.str, f[n].shape, f[n][...].ravel().tolist())\n");
        String[] lines = out.split("\n");
        assertEquals("d <f8 (2, 3, 4) [-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, "
                + "2.5, 2.75, 3.0, 3.25, 3.5, 3.75, 4.0, 4.25, 4.5, 4.75]", lines[0]);
        assertEquals("f <f4 (3,) [1.5, -2.0, 30000001024.0]", lines[1]);
        assertEquals("l <i8 (2,) [1099511627776, -7]", lines[2]);
        assertEquals("i <i4 (2, 2) [1, -2, 2147483647, -2147483648]", lines[3]);
        assertEquals("s <i2 (3,) [1, -2, 32767]", lines[4]);
        assertEquals("b |i1 (3,) [1, -2, 127]", lines[5]);
    }

    @Test
    void groupsAndAttributesOfEveryKindReadBackInH5py() {
        Path f = dir.resolve("attrs.h5");
        try (Hdf5Writer w = Hdf5Writer.create(f)) {
            w.root().attribute("title", "Sedov blast, run 7").attribute("time", 0.125).attribute("step", 42L)
                    .attribute("dims", new int[] {64, 32, 16}).attribute("origin", new double[] {0, -1.5, 2})
                    .attribute("unicode", "Δx = 1 µm");
            Hdf5Group fields = w.root().createGroup("fields");
            fields.createGroup("deep").createGroup("deeper").attribute("level", (short) 3);
            fields.writeDataset("rho", new long[] {2}, new double[] {1, 2}).attribute("units", "g/cm^3")
                    .attribute("scale", 2.5f);
        }
        String out = ExternalReaders.h5py("f = h5py.File('" + f + "', 'r')\n"
                + "a = f.attrs\n"
                + "print(a['title'].decode(), a['time'], a['step'], a['dims'].tolist(), a['origin'].tolist())\n"
                + "print(a['unicode'].decode('utf-8'))\n"
                + "print(sorted(f['fields'].keys()), f['fields/deep/deeper'].attrs['level'])\n"
                + "r = f['fields/rho']\n"
                + "print(r.attrs['units'].decode(), r.attrs['scale'], r.attrs['scale'].dtype.str)\n"
                // len() is libhdf5's attribute count (H5Oget_info), kept by the attribute info message
                + "print(len(a), len(r.attrs), len(f['fields'].attrs))\n");
        String[] lines = out.split("\n");
        assertEquals("Sedov blast, run 7 0.125 42 [64, 32, 16] [0.0, -1.5, 2.0]", lines[0]);
        assertEquals("Δx = 1 µm", lines[1]);
        assertEquals("['deep', 'rho'] 3", lines[2]);
        assertEquals("g/cm^3 2.5 <f4", lines[3]);
        assertEquals("6 2 0", lines[4]);
    }

    @Test
    void chunkedDeflatedDatasetShowsItsChunksAndCompressionToH5pyAndH5dump() {
        Path f = dir.resolve("chunked.h5");
        int nz = 20;
        int ny = 30;
        int nx = 17; // edge chunks in every dimension
        try (Hdf5Writer w = Hdf5Writer.create(f)) {
            Hdf5Dataset d = w.root().createDataset("field", Hdf5Type.DOUBLE, new long[] {nz, ny, nx},
                    Hdf5Layout.chunked(8, 8, 8).deflate(6));
            // streamed: one z-plane at a time, so chunks complete across calls
            for (int z = 0; z < nz; z++) {
                double[] plane = new double[ny * nx];
                for (int i = 0; i < plane.length; i++) {
                    plane[i] = z * 1000 + i;
                }
                d.write(new long[] {z, 0, 0}, new long[] {1, ny, nx}, plane);
            }
        }
        String out = ExternalReaders.h5py("d = h5py.File('" + f + "', 'r')['field']\n"
                + "e = (np.arange(20)[:, None] * 1000 + np.arange(30 * 17)[None, :]).reshape(20, 30, 17)\n"
                + "print(d.chunks, d.compression, d.compression_opts, d.shape, np.array_equal(d[...], e))\n");
        assertEquals("(8, 8, 8) gzip 6 (20, 30, 17) True", out);
        ExternalReaders.Result dump = ExternalReaders.h5dump("-p", "-H", f.toString());
        assertEquals(0, dump.exit(), dump.err());
        assertTrue(dump.out().contains("CHUNKED ( 8, 8, 8 )"), dump.out());
        assertTrue(dump.out().contains("COMPRESSION DEFLATE { LEVEL 6 }"), dump.out());
    }

    @Test
    void h5dumpPrintsTheValuesOfAContiguousDatasetAndItsAttribute() {
        Path f = dir.resolve("dump.h5");
        try (Hdf5Writer w = Hdf5Writer.create(f)) {
            w.root().createGroup("g").writeDataset("x", new long[] {2, 3}, new int[] {1, 2, 3, 4, 5, 6})
                    .attribute("note", "hello");
        }
        ExternalReaders.Result dump = ExternalReaders.h5dump(f.toString());
        assertEquals(0, dump.exit(), dump.err());
        String compact = dump.out().replaceAll("\\s+", " ");
        assertTrue(compact.contains("(0,0): 1, 2, 3, (1,0): 4, 5, 6"), dump.out());
        assertTrue(compact.contains("\"hello\""), dump.out());
        assertTrue(compact.contains("DATASPACE SIMPLE { ( 2, 3 ) / ( 2, 3 ) }"), dump.out());
    }

    @Test
    void manyChunksNeedAMultiLevelIndexThatLibhdf5AndJhdfWalk() {
        Path f = dir.resolve("manychunks.h5");
        int n = 300; // 30 x 30 = 900 chunks: a two-level B-tree of 64-entry nodes
        int[] values = new int[n * n];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 7;
        }
        try (Hdf5Writer w = Hdf5Writer.create(f)) {
            w.root().createDataset("m", Hdf5Type.INT, new long[] {n, n}, Hdf5Layout.chunked(10, 10)).write(values);
        }
        assertEquals("True 900", ExternalReaders.h5py("d = h5py.File('" + f + "', 'r')['m']\n"
                + "print(np.array_equal(d[...].ravel(), np.arange(90000) * 7), d.id.get_num_chunks())"));
        try (HdfFile h = new HdfFile(f)) {
            int[][] m = (int[][]) ((Dataset) h.getByPath("/m")).getData();
            assertEquals(7 * (123 * n + 45), m[123][45]);
            assertEquals(7 * (n * n - 1), m[n - 1][n - 1]);
        }
    }

    @Test
    void jhdfReadsOurAttributesAndDatasets() {
        Path f = dir.resolve("jhdf.h5");
        try (Hdf5Writer w = Hdf5Writer.create(f)) {
            w.root().attribute("time", 2.5).attribute("name", "abc");
            w.root().createGroup("g").writeDataset("v", new long[] {2, 2}, new long[] {1, 2, 3, 4});
            w.root().createDataset("c", Hdf5Type.FLOAT, new long[] {5}, Hdf5Layout.chunked(2).deflate(1))
                    .write(new float[] {1, 2, 3, 4, 5});
        }
        try (HdfFile h = new HdfFile(f)) {
            assertEquals(2.5, h.getAttribute("time").getData());
            assertArrayEquals(new long[] {3, 4}, ((long[][]) ((Dataset) h.getByPath("/g/v")).getData())[1]);
            assertArrayEquals(new float[] {1, 2, 3, 4, 5}, (float[]) ((Dataset) h.getByPath("/c")).getData());
        }
    }

    @Test
    void ourReaderReadsBoxesOfAFileH5pyWrote() {
        Path f = dir.resolve("from-h5py.h5");
        ExternalReaders.h5py("with h5py.File('" + f + "', 'w') as f:\n"
                + "    f.create_dataset('a/x', data=np.arange(60, dtype='f8').reshape(3, 4, 5))\n"
                + "    f.create_dataset('a/y', data=np.arange(1000, dtype='i4').reshape(10, 100), chunks=(3, 7),"
                + " compression='gzip')\n");
        try (Hdf5Reader r = Hdf5Reader.open(f)) {
            assertArrayEquals(new double[] {26, 27, 28, 31, 32, 33},
                    (double[]) r.read("/a/x", new long[] {1, 1, 1}, new long[] {1, 2, 3}));
            assertArrayEquals(new int[] {450, 451, 452, 550, 551, 552},
                    (int[]) r.read("/a/y", new long[] {4, 50}, new long[] {2, 3}));
        }
    }

    @Test
    void aFileThatIsNotHdf5IsRefusedNamingIt() throws Exception {
        Path f = dir.resolve("notes.txt");
        java.nio.file.Files.writeString(f, "just text, not HDF5 ".repeat(20));
        Hdf5FormatException e = assertThrows(Hdf5FormatException.class, () -> Hdf5Reader.open(f));
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("not an HDF5 file"), e.getMessage());
    }

    @Test
    void aMissingDatasetIsNamedWithWhatTheGroupHolds() {
        Path f = dir.resolve("missing.h5");
        try (Hdf5Writer w = Hdf5Writer.create(f)) {
            w.root().createGroup("fields").writeDataset("rho", new long[] {1}, new double[] {1});
        }
        try (Hdf5Reader r = Hdf5Reader.open(f)) {
            Hdf5FormatException e = assertThrows(Hdf5FormatException.class, () -> r.read("/fields/pressure"));
            assertTrue(e.getMessage().contains("/fields/pressure") && e.getMessage().contains(f.toString())
                    && e.getMessage().contains("[rho]"), e.getMessage());
        }
    }

    @Test
    void writesOfTheWrongTypeShapeOrSizeAreRefusedNamingTheDataset() {
        try (Hdf5Writer w = Hdf5Writer.create(dir.resolve("bad.h5"))) {
            Hdf5Dataset d = w.root().createDataset("x", Hdf5Type.DOUBLE, 4, 4);
            var wrongType = assertThrows(IllegalArgumentException.class, () -> d.write(new float[16]));
            assertTrue(wrongType.getMessage().contains("/x") && wrongType.getMessage().contains("float[]"));
            var outside = assertThrows(IllegalArgumentException.class,
                    () -> d.write(new long[] {3, 0}, new long[] {2, 4}, new double[8]));
            assertTrue(outside.getMessage().contains("outside"), outside.getMessage());
            var size = assertThrows(IllegalArgumentException.class,
                    () -> d.write(new long[] {0, 0}, new long[] {2, 2}, new double[5]));
            assertTrue(size.getMessage().contains("5 elements"), size.getMessage());
            var rank = assertThrows(IllegalArgumentException.class,
                    () -> d.write(new long[] {0}, new long[] {2}, new double[2]));
            assertTrue(rank.getMessage().contains("2 dimensions"), rank.getMessage());
        }
    }

    @Test
    void ourReaderReadsNumericAndStringAttributesOfOursAndOfH5py() {
        Path f = dir.resolve("attrs-back.h5");
        try (Hdf5Writer w = Hdf5Writer.create(f)) {
            w.root().attribute("time", 0.5).attribute("step", 7L).attribute("name", "run 7")
                    .attribute("dims", new int[] {4, 5});
            w.root().writeDataset("x", new long[] {1}, new double[] {1}).attribute("scale", 2.5f);
        }
        try (Hdf5Reader r = Hdf5Reader.open(f)) {
            var a = r.attributes("/");
            assertEquals(0.5, a.get("time"));
            assertEquals(7L, a.get("step"));
            assertEquals("run 7", a.get("name"));
            assertArrayEquals(new int[] {4, 5}, (int[]) a.get("dims"));
            assertEquals(2.5f, r.attributes("/x").get("scale"));
        }
        Path g = dir.resolve("attrs-h5py.h5");
        ExternalReaders.h5py("with h5py.File('" + g + "', 'w') as f:\n"
                + "    f.attrs['time'] = 1.25\n"
                + "    f.attrs['shape'] = np.array([3, 4], dtype='i8')\n"
                + "    f.attrs['label'] = np.bytes_('fixed')\n"
                + "    f.create_dataset('d', data=np.zeros(2)).attrs['n'] = np.int16(5)\n");
        try (Hdf5Reader r = Hdf5Reader.open(g)) {
            var a = r.attributes("/");
            assertEquals(1.25, a.get("time"));
            assertArrayEquals(new long[] {3, 4}, (long[]) a.get("shape"));
            assertEquals("fixed", a.get("label"));
            assertEquals((short) 5, r.attributes("/d").get("n"));
        }
    }
}
