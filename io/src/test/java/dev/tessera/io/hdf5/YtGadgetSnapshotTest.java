package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.launch.SmpJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * yt reads a particle snapshot that two ranks write with {@link ParallelHdf5File} in the
 * layout of Gadget's HDF5 snapshots (a {@code /Header} group of attributes, and
 * {@code /PartType1/Coordinates}, {@code Velocities}, {@code ParticleIDs}, {@code Masses}):
 * {@code yt.load} picks its Gadget HDF5 frontend, every particle has the position and mass
 * written for its id, and a sphere selected through yt's particle index holds the particles
 * numpy counts inside it. Skipped, with the reason, where no Python has yt (pip install yt
 * h5py; TESSERA_YT_PYTHON names that python).
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS) // importing yt took 2.5 min at nice 19 on the loaded 2-vCPU machine
class YtGadgetSnapshotTest {

    private static final int N = 1000;
    private static final double BOX = 10.0;

    @TempDir
    Path dir;

    /** Particle i's coordinate d: spread over the box, the same formula as the Python check's. */
    private static double coordinate(long i, int d) {
        double[] step = {0.37, 0.73, 0.11};
        return (i * step[d] + d) % BOX;
    }

    @Test
    void ytLoadsAGadgetStyleSnapshotWrittenByTwoRanks() {
        Path snap = dir.resolve("snap_000.hdf5");
        SmpJob.run(2, new String[0], Duration.ofSeconds(60), s -> {
            long first = (long) N * s.rank() / s.size();
            long count = (long) N * (s.rank() + 1) / s.size() - first;
            double[] pos = new double[(int) count * 3];
            double[] vel = new double[(int) count * 3];
            double[] mass = new double[(int) count];
            long[] ids = new long[(int) count];
            for (int k = 0; k < count; k++) {
                long i = first + k;
                for (int d = 0; d < 3; d++) {
                    pos[3 * k + d] = coordinate(i, d);
                    vel[3 * k + d] = d - 1.0;
                }
                mass[k] = 0.25 + (i % 4);
                ids[k] = i + 1; // Gadget ids start at 1
            }
            try (ParallelHdf5File f = ParallelHdf5File.create(s.world(), snap)) {
                f.root().createGroup("Header")
                        .attribute("NumPart_ThisFile", new int[] {0, N, 0, 0, 0, 0})
                        .attribute("NumPart_Total", new int[] {0, N, 0, 0, 0, 0})
                        .attribute("NumPart_Total_HighWord", new int[] {0, 0, 0, 0, 0, 0})
                        .attribute("MassTable", new double[] {0, 0, 0, 0, 0, 0}) // 0: masses per particle
                        .attribute("NumFilesPerSnapshot", 1)
                        .attribute("Time", 1.0).attribute("Redshift", 0.0).attribute("BoxSize", BOX)
                        .attribute("Omega0", 0.3).attribute("OmegaLambda", 0.7).attribute("HubbleParam", 0.7)
                        .attribute("Flag_Sfr", 0).attribute("Flag_Cooling", 0).attribute("Flag_Feedback", 0)
                        .attribute("Flag_StellarAge", 0).attribute("Flag_Metals", 0).attribute("Flag_DoublePrecision", 1);
                f.createDataset("/PartType1/Coordinates", Hdf5Type.DOUBLE, N, 3)
                        .write(new long[] {first, 0}, new long[] {count, 3}, pos);
                f.createDataset("/PartType1/Velocities", Hdf5Type.DOUBLE, N, 3)
                        .write(new long[] {first, 0}, new long[] {count, 3}, vel);
                f.createDataset("/PartType1/ParticleIDs", Hdf5Type.LONG, N).write(new long[] {first}, new long[] {count}, ids);
                f.createDataset("/PartType1/Masses", Hdf5Type.DOUBLE, N).write(new long[] {first}, new long[] {count}, mass);
            }
        });
        String script = String.join("\n",
                "ds = yt.load('" + snap + "')",
                "ad = ds.all_data()",
                "ids = ad['PartType1', 'particle_index'].d.astype(np.int64)",
                "order = np.argsort(ids)",
                "pos = ad['PartType1', 'particle_position'].to('code_length').d[order]",
                "mass = ad['PartType1', 'particle_mass'].to('code_mass').d[order]",
                "i = np.arange(" + N + ")",
                "want = np.stack([(i * s + d) % " + BOX + " for d, s in enumerate((0.37, 0.73, 0.11))], axis=1)",
                "inside = int(((want - 5.0) ** 2).sum(axis=1).__lt__(4.0).sum())",
                "sp = ds.sphere([5.0, 5.0, 5.0], (2.0, 'code_length'))",
                "print(type(ds).__name__, len(ids), bool((ids[order] == i + 1).all()),",
                "      bool(np.abs(pos - want).max() < 1e-12), bool((mass == 0.25 + i % 4).all()),",
                "      ds.domain_width.to('code_length').d.tolist(), len(sp['PartType1', 'particle_mass']) == inside, inside > 0)");
        assertEquals("GadgetHDF5Dataset 1000 True True True [10.0, 10.0, 10.0] True True", ExternalReaders.yt(script));
    }
}
