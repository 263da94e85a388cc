package dev.tessera.launch.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Op;
import dev.tessera.conformance.ProcessRankCase;
import dev.tessera.conformance.RankCase;
import dev.tessera.device.auto.AutoDevice;
import dev.tessera.launch.LaunchSpec;
import dev.tessera.runtime.internal.ProcessBootstrap;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launching over ssh. The ssh program is replaced by a script that runs the remote
 * command on this machine and records the host it was asked for, so the whole path
 * (placement, the remote command line, per-host variables, rendezvous) runs for real.
 */
@Timeout(120)
class SshLaunchTest {

    @Test
    void remoteCommandQuotesEveryWordAndCarriesTheVariables() {
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("TESSERA_RANK", "3");
        vars.put("ODD", "it's");
        List<String> cmd = ProcessLauncher.sshCommand("node7", vars, List.of("java", "-cp", "a b", "Main"));
        assertEquals(List.of("-o", "BatchMode=yes", "node7"), cmd.subList(cmd.size() - 4, cmd.size() - 1));
        String remote = cmd.get(cmd.size() - 1);
        assertTrue(remote.startsWith("cd '") && remote.contains(" && exec env TESSERA_RANK='3' ODD='it'\\''s' 'java' '-cp' 'a b' 'Main'"),
                remote);
    }

    @Test
    void ranksArePlacedInBlocksOrSpreadEvenly() {
        LaunchSpec spread = spec(5, 0, List.of("a", "b"));
        assertEquals(List.of(0, 0, 0, 1, 1), List.of(0, 1, 2, 3, 4).stream().map(r -> ProcessLauncher.hostOf(r, spread)).toList());
        LaunchSpec blocks = spec(4, 1, List.of("a", "b", "c", "d"));
        assertEquals(List.of(0, 1, 2, 3), List.of(0, 1, 2, 3).stream().map(r -> ProcessLauncher.hostOf(r, blocks)).toList());
    }

    private static LaunchSpec spec(int ranks, int ppn, List<String> hosts) {
        return new LaunchSpec(ranks, ppn, hosts, 1, "auto", true, List.of(), ProcessRankCase.class.getName(),
                List.of(), List.of("-Xmx256m"), Duration.ofSeconds(30));
    }

    @Test
    void aJobOnTwoHostsRunsWithShmOnEachAndTcpBetween(@TempDir Path dir) throws Exception {
        Path hostsLog = dir.resolve("hosts.log");
        Path ssh = dir.resolve("fake-ssh");
        Files.writeString(ssh, "#!/bin/sh\n# test stand-in for ssh: -o BatchMode=yes HOST COMMAND\nshift 2\n"
                + "echo \"$1\" >> '" + hostsLog + "'\nshift\nexec sh -c \"$1\"\n");
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
        Path file = dir.resolve("case.ser");
        RankCase body = world -> {
            AutoDevice auto = (AutoDevice) dev.tessera.runtime.internal.ProcessBootstrap.currentDevice();
            int me = world.rank();
            if (!auto.transportTo(me ^ 1).equals("shm") || !auto.transportTo((me + 2) % 4).equals("tcp")) {
                throw new AssertionError("rank " + me + " transports " + auto.transportTo(me ^ 1) + "/"
                        + auto.transportTo((me + 2) % 4));
            }
            if (world.allreduce(me, Op.SUM) != 6) {
                throw new AssertionError("wrong sum");
            }
            if (me == 0) {
                System.out.println("two-host job ok");
            }
        };
        try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
            out.writeObject(body);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        String previous = System.getProperty("tessera.ssh");
        System.setProperty("tessera.ssh", ssh.toString());
        int status;
        try {
            LaunchSpec spec = new LaunchSpec(4, 2, List.of("hostA", "hostB"), 1, "auto", true, List.of(),
                    ProcessRankCase.class.getName(), List.of(file.toString()), List.of("-Xmx256m"), Duration.ofSeconds(30));
            status = new ProcessLauncher(sink, sink, Duration.ofSeconds(90), 0).run(spec);
        } finally {
            if (previous == null) {
                System.clearProperty("tessera.ssh");
            } else {
                System.setProperty("tessera.ssh", previous);
            }
        }
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, output);
        assertTrue(output.contains("two-host job ok"), output);
        assertEquals(List.of("hostA", "hostA", "hostB", "hostB"), Files.readAllLines(hostsLog).stream().sorted().toList());
    }
}
