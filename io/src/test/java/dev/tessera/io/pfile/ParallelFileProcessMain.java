package dev.tessera.io.pfile;

import dev.tessera.comm.Datatype;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.nio.file.Path;

/** Writes the test array of {@link Blocks} from real rank processes, then reads it back and checks it. */
public final class ParallelFileProcessMain {

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        int[] sizes = {7, 5, 6};
        try (Session s = Tessera.init(args)) {
            Subarray b = Blocks.block(s.rank(), s.size(), sizes, Datatype.DOUBLE);
            try (ParallelFile f = ParallelFile.open(s.world(), file, new ParallelFile.Hints(2, 48, ParallelFile.CollectiveBuffering.ENABLE),
                    OpenMode.CREATE, OpenMode.WRITE, OpenMode.READ)) {
                f.setView(0, b);
                f.writeAll(Blocks.fill(b, 5));
                f.sync();
                f.seek(0);
                double[] back = new double[(int) b.elementCount()];
                f.readAll(back);
                if (!java.util.Arrays.equals(back, Blocks.fill(b, 5))) {
                    throw new IllegalStateException("rank " + s.rank() + " read back other values");
                }
            }
            System.out.println("rank " + s.rank() + " ok");
        }
    }
}
