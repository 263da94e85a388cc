package dev.tessera.launch.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Op;
import dev.tessera.launch.LaunchSpec;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Any local user can connect to a tcp rank's port while the job starts. Before #28, 20 idle
 * connections held rank 0's only acceptor for 5 s each, and real {@code tessera run --device
 * tcp} jobs failed with "rank N never connected". Here a real 3-rank job is started; the last
 * rank waits a few seconds before it connects, and meanwhile the test opens 20 idle
 * connections to the port of every rank that has published one. The job must succeed.
 */
@Timeout(180)
class IdleConnectionsJobTest {

    /** A rank: ranks 0 and 1 tell the test where they publish, the last rank starts late. */
    public static final class SlowStart {
        public static void main(String[] args) throws Exception {
            int rank = Integer.parseInt(System.getenv("TESSERA_RANK"));
            int size = Integer.parseInt(System.getenv("TESSERA_SIZE"));
            if (rank == 0) {
                Files.writeString(Path.of(args[0] + ".tmp"), System.getenv("TESSERA_RENDEZVOUS_DIR"));
                Files.move(Path.of(args[0] + ".tmp"), Path.of(args[0]));
            }
            if (rank == size - 1) {
                Thread.sleep(6000); // time for the idle connections to come first
            }
            try (Session s = Tessera.init(new String[0])) {
                long sum = s.world().allreduce((long) rank + 1, Op.SUM);
                if (rank == 0) {
                    System.out.println("job with idle connections ok: " + sum);
                }
            }
        }
    }

    @Test
    void twentyIdleConnectionsToEachRankDoNotFailARealTcpJob(@TempDir Path dir) throws Exception {
        Path marker = dir.resolve("rendezvous");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LaunchSpec spec = new LaunchSpec(3, 0, List.of(), 1, "tcp", true, List.of(), SlowStart.class.getName(),
                List.of(marker.toString()), List.of("-Xmx256m"), Duration.ofSeconds(30));
        CompletableFuture<Integer> job = CompletableFuture.supplyAsync(() -> {
            try {
                return new ProcessLauncher(sink, sink, Duration.ofSeconds(150), 0).run(spec);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        List<Socket> idle = new ArrayList<>();
        int attacked = 0;
        try {
            while (!Files.exists(marker) && !job.isDone()) {
                Thread.sleep(10);
            }
            if (Files.exists(marker)) {
                Path rendezvous = Path.of(Files.readString(marker).trim());
                for (int r = 0; r < 2 && !job.isDone(); r++) {
                    Path published = rendezvous.resolve("rank-" + r);
                    while (!Files.exists(published) && !job.isDone()) {
                        Thread.sleep(10);
                    }
                    if (job.isDone()) {
                        break;
                    }
                    int port = Integer.parseInt(Files.readString(published).trim().split("\\s+")[1]);
                    for (int i = 0; i < 20; i++) {
                        idle.add(new Socket(InetAddress.getLoopbackAddress(), port));
                    }
                    attacked++;
                }
            }
            int status = job.get(170, TimeUnit.SECONDS);
            String output = bytes.toString(StandardCharsets.UTF_8);
            assertEquals(0, status, output);
            assertTrue(output.contains("job with idle connections ok: 6"), output);
            assertEquals(2, attacked, "the test reached both early ranks' ports before the job ended");
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }
}
