package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ParaView's reader of our per-rank files: VTK's XDMF reader (vtkXdmfReader, the one ParaView
 * opens .xmf files with) reads the XDMF master and each rank's HDF5 file, and gives every
 * rank's block as an image with the right extent, origin, spacing and cell values. Skipped,
 * with the reason, where no Python has VTK (pip install vtk; TESSERA_VTK_PYTHON names that python).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class XdmfVtkReaderTest {

    @TempDir
    Path dir;

    @Test
    void vtksXdmfReaderReadsTheRanksFilesWithTheRightShapeAndValues() throws Exception {
        PerRankFilesTest.writeSnapshot(dir, "snap0009", new double[] {1, 2, 3}, new double[] {0.5, 0.25, 0.125});
        Path master = PerRankFiles.masterFile(dir, "snap0009");
        // VTK orders x, y, z; the arrays are z, y, x (C order), so a block's cell array is x-fastest
        String script = String.join("\n",
                "from vtkmodules.vtkIOXdmf2 import vtkXdmfReader",
                "from vtkmodules.util.numpy_support import vtk_to_numpy",
                "r = vtkXdmfReader(); r.SetFileName('" + master + "'); r.Update()",
                "out = r.GetOutputDataObject(0)",
                "blocks = [out.GetBlock(i) for i in range(out.GetNumberOfBlocks())]",
                "g = np.full((13, 11, 7), np.nan); owner = -np.ones((13, 11, 7), dtype=int); cells = 0",
                "for b in blocks:",
                "    nx, ny, nz = [d - 1 for d in b.GetDimensions()]",
                "    ox, oy, oz = b.GetOrigin(); hx, hy, hz = b.GetSpacing()",
                "    assert (hx, hy, hz) == (0.125, 0.25, 0.5), (hx, hy, hz)",
                "    z0, y0, x0 = int(round((oz - 1) / hz)), int(round((oy - 2) / hy)), int(round((ox - 3) / hx))",
                "    sl = (slice(z0, z0 + nz), slice(y0, y0 + ny), slice(x0, x0 + nx))",
                "    cd = b.GetCellData(); cells += b.GetNumberOfCells()",
                "    g[sl] = vtk_to_numpy(cd.GetArray('phi')).reshape(nz, ny, nx)",
                "    owner[sl] = vtk_to_numpy(cd.GetArray('owner')).reshape(nz, ny, nx)",
                "e = np.fromfunction(lambda z, y, x: np.sin(z * 0.7) * 100 + y * 1.5 - x / 3.0, (13, 11, 7))",
                "print(len(blocks), cells, bool(np.abs(g - e).max() < 1e-12), sorted(set(owner.ravel().tolist())))");
        assertEquals("4 1001 True [0, 1, 2, 3]", ExternalReaders.vtk(script));
    }
}
