package dev.tessera.io.hdf5;

import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A rank of a real multi-process job (bin/tessera run): writes the test array of
 * {@link Blocks} collectively with the strategy given, then every rank reads its block back.
 * Arguments: file, strategy (INDEPENDENT, AGGREGATED, AUTO, CHUNKED).
 */
public final class DistributedWriteProgram {

    public static void main(String[] args) {
        try (Session s = Tessera.init(args)) {
            Path file = Path.of(s.args().get(0));
            String mode = s.args().get(1);
            boolean chunked = mode.equals("CHUNKED");
            var options = ParallelHdf5File.WriteOptions.defaults()
                    .withStrategy(chunked ? WriteStrategy.AUTO : WriteStrategy.valueOf(mode));
            long[][] b = Blocks.of(s.size(), s.rank());
            try (ParallelHdf5File f = ParallelHdf5File.create(s.world(), file, options)) {
                f.createDataset("/fields/phi", Hdf5Type.DOUBLE, Blocks.SHAPE,
                        chunked ? Hdf5Layout.chunked(4, 4, 4).deflate(3) : Hdf5Layout.contiguous())
                        .write(b[0], b[1], Blocks.fill(b[0], b[1]));
            }
            double[] back = (double[]) DistributedDataset.read(s.world(), file, "/fields/phi", b[0], b[1]);
            boolean ok = Arrays.equals(back, Blocks.fill(b[0], b[1]));
            System.out.println("rank " + s.rank() + " of " + s.size() + " read back " + (ok ? "OK" : "WRONG"));
        }
    }
}
