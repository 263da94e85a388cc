package dev.tessera.io.pfile;

import dev.tessera.comm.Datatype;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.nio.file.Path;

/**
 * Writes the test array of {@link Blocks} from real rank processes three times (writeAll, then two
 * iwriteAll in flight), then reads it back (readAll, two ireadAll) and checks it.
 */
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
                // Two nonblocking collectives in flight (the second tile of the view after the first), polled.
                IoRequest second = f.iwriteAll(Blocks.fill(b, 6));
                IoRequest third = f.iwriteAll(Blocks.fill(b, 7));
                while (!third.test()) {
                    Thread.onSpinWait();
                }
                if (second.await() != b.dataBytes() || third.await() != b.dataBytes()) {
                    throw new IllegalStateException("rank " + s.rank() + ": nonblocking writes moved other byte counts");
                }
                f.sync();
                f.seek(0);
                double[] back = new double[(int) b.elementCount()];
                f.readAll(back);
                if (!java.util.Arrays.equals(back, Blocks.fill(b, 5))) {
                    throw new IllegalStateException("rank " + s.rank() + " read back other values");
                }
                double[] back2 = new double[(int) b.elementCount()];
                double[] back3 = new double[(int) b.elementCount()];
                IoRequest r2 = f.ireadAll(back2);
                IoRequest r3 = f.ireadAll(back3);
                r3.await();
                r2.await();
                if (!java.util.Arrays.equals(back2, Blocks.fill(b, 6)) || !java.util.Arrays.equals(back3, Blocks.fill(b, 7))) {
                    throw new IllegalStateException("rank " + s.rank() + " read back other values through ireadAll");
                }
            }
            System.out.println("rank " + s.rank() + " ok");
        }
    }
}
