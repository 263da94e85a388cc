package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** One file per rank plus the XDMF master that stitches them. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PerRankFilesTest {

    @TempDir
    Path dir;

    /**
     * 4 ranks write {@code base}: fields phi (Blocks' values) and owner (the rank) of the test
     * array, with the mesh geometry and a "time" attribute of 0.7, and the XDMF master.
     */
    static void writeSnapshot(Path dir, String base, double[] origin, double[] spacing) throws Exception {
        SmpJob.run(4, new String[0], Duration.ofSeconds(60), s -> {
            long[][] b = Blocks.of(4, s.rank());
            int[] id = new int[(int) new Hyperslab(b[0], b[1]).volume()];
            java.util.Arrays.fill(id, s.rank());
            try (PerRankFiles out = PerRankFiles.create(s.world(), dir, base, Blocks.SHAPE, b[0], b[1])) {
                out.geometry(origin, spacing).attribute("time", 0.7);
                out.write("phi", Blocks.fill(b[0], b[1]));
                out.write("owner", id);
            }
        });
    }

    @Test
    void theXdmfMasterStitchesTheRanksFilesIntoTheGlobalArray() throws Exception {
        writeSnapshot(dir, "snap0007", new double[] {0, 0, 0}, new double[] {0.5, 0.5, 0.5});
        for (int r = 0; r < 4; r++) {
            assertTrue(Files.exists(PerRankFiles.rankFile(dir, "snap0007", r)));
        }
        Path master = PerRankFiles.masterFile(dir, "snap0007");
        // what a visualization reader does: parse the XDMF, read each block's HDF5 item, place it by origin
        String script = "import xml.etree.ElementTree as ET, os\n"
                + "root = ET.parse('" + master + "').getroot()\n"
                + "g = np.zeros((13, 11, 7)); owner = -np.ones((13, 11, 7), dtype=int); grids = 0\n"
                + "for grid in root.iter('Grid'):\n"
                + "    if grid.get('GridType') != 'Uniform': continue\n"
                + "    grids += 1\n"
                + "    topo = [int(v) for v in grid.find('Topology').get('Dimensions').split()]\n"
                + "    geo = grid.find('Geometry').findall('DataItem')\n"
                + "    o = [float(v) for v in geo[0].text.split()]; h = [float(v) for v in geo[1].text.split()]\n"
                + "    start = [int(round(o[d] / h[d])) for d in range(3)]\n"
                + "    for att in grid.findall('Attribute'):\n"
                + "        item = att.find('DataItem')\n"
                + "        fname, dset = item.text.strip().split(':')\n"
                + "        data = h5py.File(os.path.join('" + dir + "', fname), 'r')[dset][...]\n"
                + "        assert [int(v) for v in item.get('Dimensions').split()] == list(data.shape)\n"
                + "        assert [t - 1 for t in topo] == list(data.shape) and att.get('Center') == 'Cell'\n"
                + "        sl = tuple(slice(start[d], start[d] + data.shape[d]) for d in range(3))\n"
                + "        if att.get('Name') == 'phi': g[sl] = data\n"
                + "        else: owner[sl] = data\n"
                + "e = np.fromfunction(lambda z, y, x: np.sin(z * 0.7) * 100 + y * 1.5 - x / 3.0, (13, 11, 7))\n"
                + "f3 = h5py.File('" + PerRankFiles.rankFile(dir, "snap0007", 3) + "', 'r')\n"
                + "print(grids, np.abs(g - e).max() < 1e-12, sorted(set(owner.ravel().tolist())),"
                + " f3.attrs['global_offset'].tolist(), f3.attrs['time'])\n";
        assertEquals("4 True [0, 1, 2, 3] [6, 4, 0] 0.7", ExternalReaders.h5py(script));
    }
}
