package dev.tessera.device.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Op;
import dev.tessera.conformance.ProcessRankCase;
import dev.tessera.conformance.RankCase;
import dev.tessera.runtime.internal.ProcessBootstrap;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two "hosts" on one machine: two network namespaces joined by a veth pair, two ranks in
 * each. One job of the auto device spans them: ranks in the same namespace talk through
 * shared memory, ranks in different namespaces through TCP over the veth link. Needs
 * root and iproute2 (skipped, saying why, otherwise).
 */
@Timeout(120)
class NetworkNamespaceJobTest {

    private static int run(String... cmd) throws IOException, InterruptedException {
        dev.tessera.conformance.ChildProcesses.Outcome o = dev.tessera.conformance.ChildProcesses.run(
                new ProcessBuilder(cmd), java.time.Duration.ofSeconds(20));
        return o.timedOut() ? -1 : o.status();
    }

    private static boolean canMakeNamespaces() throws IOException, InterruptedException {
        String probe = "tsr-probe-" + ProcessHandle.current().pid();
        if (run("ip", "netns", "add", probe) != 0) {
            return false;
        }
        run("ip", "netns", "del", probe);
        return true;
    }

    @Test
    void oneJobSpansTwoNamespacesWithShmInsideAndTcpAcross(@TempDir Path dir) throws Exception {
        boolean possible;
        try {
            possible = canMakeNamespaces();
        } catch (IOException e) {
            possible = false;
        }
        if (!possible) {
            System.out.println("NetworkNamespaceJobTest skipped: needs root and `ip netns` (iproute2)");
        }
        assumeTrue(possible, "needs root and ip netns");
        long id = ProcessHandle.current().pid() % 100_000;
        String nsA = "tsr-a-" + id;
        String nsB = "tsr-b-" + id;
        String vethA = "tva" + id;
        String vethB = "tvb" + id;
        String ipA = "10.199.77.1";
        String ipB = "10.199.77.2";
        try {
            assertEquals(0, run("ip", "netns", "add", nsA));
            assertEquals(0, run("ip", "netns", "add", nsB));
            assertEquals(0, run("ip", "link", "add", vethA, "type", "veth", "peer", "name", vethB));
            assertEquals(0, run("ip", "link", "set", vethA, "netns", nsA));
            assertEquals(0, run("ip", "link", "set", vethB, "netns", nsB));
            assertEquals(0, run("ip", "-n", nsA, "addr", "add", ipA + "/24", "dev", vethA));
            assertEquals(0, run("ip", "-n", nsB, "addr", "add", ipB + "/24", "dev", vethB));
            for (String[] ns : new String[][] {{nsA, vethA}, {nsB, vethB}}) {
                assertEquals(0, run("ip", "-n", ns[0], "link", "set", ns[1], "up"));
                assertEquals(0, run("ip", "-n", ns[0], "link", "set", "lo", "up"));
            }
            Path file = dir.resolve("case.ser");
            RankCase body = world -> {
                AutoDevice auto = (AutoDevice) dev.tessera.runtime.internal.ProcessBootstrap.currentDevice();
                int me = world.rank();
                if (!auto.transportTo(me ^ 1).equals("shm") || !auto.transportTo((me + 2) % 4).equals("tcp")) {
                    throw new AssertionError("rank " + me + ": partner over " + auto.transportTo(me ^ 1)
                            + ", other namespace over " + auto.transportTo((me + 2) % 4));
                }
                long sum = world.allreduce((long) me + 1, Op.SUM);
                double[] big = new double[300_000];
                java.util.Arrays.fill(big, me);
                double[] all = new double[300_000];
                world.allreduce(Buffer.of(big), Buffer.of(all), Op.SUM);
                if (sum != 10 || all[299_999] != 6.0) {
                    throw new AssertionError("wrong sums " + sum + " " + all[299_999]);
                }
                if (me == 0) {
                    System.out.println("netns job ok");
                }
            };
            try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
                out.writeObject(body);
            }
            String java = ProcessHandle.current().info().command().orElse("java");
            List<Process> ranks = new ArrayList<>();
            List<java.io.ByteArrayOutputStream> outputs = new ArrayList<>();
            List<Thread> readers = new ArrayList<>();
            StringBuilder output = new StringBuilder();
            try {
                for (int r = 0; r < 4; r++) {
                    boolean inA = r < 2;
                    ProcessBuilder pb = new ProcessBuilder("ip", "netns", "exec", inA ? nsA : nsB, java,
                            "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                            ProcessRankCase.class.getName(), file.toString());
                    var env = pb.environment();
                    env.put("TESSERA_RANK", Integer.toString(r));
                    env.put("TESSERA_SIZE", "4");
                    env.put("TESSERA_DEVICE", "auto");
                    env.put("TESSERA_RENDEZVOUS_DIR", dir.resolve("rendezvous").toString());
                    env.put("TESSERA_SECRET", "netns-test-" + id);
                    env.put("TESSERA_JOB_ID", "netns" + id);
                    env.put("TESSERA_NODE", inA ? "hostA" : "hostB");
                    env.put("TESSERA_IFACE", inA ? ipA : ipB);
                    env.put("TESSERA_START_TIMEOUT", "30");
                    pb.redirectErrorStream(true);
                    Process p = pb.start();
                    ranks.add(p);
                    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                    outputs.add(bytes);
                    // read on a thread of its own: a blocking read would outlive the test's timeout
                    readers.add(Thread.ofPlatform().daemon().start(() -> {
                        try (var in = p.getInputStream()) {
                            in.transferTo(bytes);
                        } catch (IOException ignored) {
                            // killed
                        }
                    }));
                }
                for (int r = 0; r < 4; r++) {
                    boolean finished = ranks.get(r).waitFor(60, TimeUnit.SECONDS);
                    readers.get(r).join(5000);
                    output.append(outputs.get(r).toString(StandardCharsets.UTF_8));
                    assertTrue(finished, "rank " + r + " finished; output:\n" + output);
                }
            } finally {
                // a failed assertion, an exception or the test's timeout: no rank outlives the test
                ranks.forEach(dev.tessera.conformance.ChildProcesses::killTree);
            }
            for (int r = 0; r < 4; r++) {
                assertEquals(0, ranks.get(r).exitValue(), "rank " + r + " status; output:\n" + output);
            }
            assertTrue(output.toString().contains("netns job ok"), output.toString());
        } finally {
            run("ip", "netns", "del", nsA);
            run("ip", "netns", "del", nsB);
        }
    }
}
