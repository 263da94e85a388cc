package dev.tessera.launch.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.comm.Op;
import dev.tessera.conformance.RankCase;
import dev.tessera.device.OtherUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With --hosts the job secret reaches remote ranks on their standard input, not on the ssh
 * command line, which every user of both machines sees in ps for the whole job (issue #28,
 * item 8). The ssh program is a stand-in that, like ssh, stays alive with its arguments while
 * the remote command runs; a rank asks ps, as user nobody, for every command line.
 */
@Timeout(150)
class SshSecretTest {

    @Test
    void theSecretIsOnNoCommandLineAndTheJobStillAuthenticates(@TempDir Path dir) throws Exception {
        String why = OtherUser.unavailable();
        assumeTrue(why == null, "skipped: " + why);
        Path argsLog = dir.resolve("ssh-args.log");
        // Not exec: like ssh, the stand-in (and its arguments) lives as long as the remote command.
        Path ssh = FakeSshJob.script(dir, argsLog, "$*", false);
        RankCase body = world -> {
            if (System.getenv("TESSERA_SECRET") != null) {
                throw new AssertionError("rank " + world.rank() + " got the secret in its environment");
            }
            if (!"1".equals(System.getenv("TESSERA_SECRET_STDIN"))) {
                throw new AssertionError("rank " + world.rank() + ": TESSERA_SECRET_STDIN not set");
            }
            world.barrier(); // every rank is up, the stand-in ssh processes with them
            if (world.rank() == 0) {
                OtherUser.Result ps = OtherUser.run(20, "ps", "-eo", "args", "ww");
                if (ps.status() != 0 || !ps.output().contains("fake-ssh")) {
                    throw new AssertionError("ps as nobody did not show the ssh processes: " + ps.output());
                }
                if (ps.output().contains("TESSERA_SECRET=")) {
                    throw new AssertionError("nobody sees the secret in ps: " + ps.output());
                }
            }
            if (world.allreduce(world.rank() + 1, Op.SUM) != 3) {
                throw new AssertionError("wrong sum");
            }
            world.barrier();
            if (world.rank() == 0) {
                System.out.println("secret stayed off the command lines");
            }
        };
        FakeSshJob.Outcome o = FakeSshJob.run(ssh, dir, body, 2, 1, List.of("hostA", "hostB"), "tcp", Duration.ofSeconds(120));
        int status = o.status();
        String output = o.output();
        assertEquals(0, status, output);
        assertTrue(output.contains("secret stayed off the command lines"), output);
        String sshArgs = Files.readString(argsLog);
        assertEquals(2, sshArgs.lines().count(), sshArgs);
        assertFalse(sshArgs.contains("TESSERA_SECRET="), sshArgs);
    }
}
