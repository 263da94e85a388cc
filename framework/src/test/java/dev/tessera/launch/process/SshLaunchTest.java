package dev.tessera.launch.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Op;
import dev.tessera.conformance.ProcessRankCase;
import dev.tessera.conformance.RankCase;
import dev.tessera.device.auto.AutoDevice;
import dev.tessera.launch.LaunchSpec;
import java.nio.file.Files;
import java.nio.file.Path;
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
        Path ssh = FakeSshJob.script(dir, hostsLog, "$3", true);
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
        FakeSshJob.Outcome o = FakeSshJob.run(ssh, dir, body, 4, 2, List.of("hostA", "hostB"), "auto", Duration.ofSeconds(90));
        int status = o.status();
        String output = o.output();
        assertEquals(0, status, output);
        assertTrue(output.contains("two-host job ok"), output);
        assertEquals(List.of("hostA", "hostA", "hostB", "hostB"), Files.readAllLines(hostsLog).stream().sorted().toList());
    }
}
