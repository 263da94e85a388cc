package dev.tessera.launch.process;

import dev.tessera.conformance.ProcessRankCase;
import dev.tessera.conformance.RankCase;
import dev.tessera.launch.LaunchSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

/**
 * A job on several "hosts" through a stand-in for ssh that runs the remote command on this
 * machine ({@code -o BatchMode=yes HOST COMMAND}, as ProcessLauncher calls ssh), for the
 * tests of launching over ssh. The stand-in appends a line per call to a log first.
 */
final class FakeSshJob {

    /** The launcher's status and everything the ranks and the launcher printed. */
    record Outcome(int status, String output) {
    }

    private FakeSshJob() {
    }

    /**
     * Writes the stand-in into {@code dir}: it appends {@code logged} (a shell word list, e.g.
     * "$3" for the host or "$*" for every argument) to {@code log}, then runs the remote command,
     * in its place ({@code exec}) or, as ssh does, as a child it outlives.
     */
    static Path script(Path dir, Path log, String logged, boolean exec) throws IOException {
        Path ssh = dir.resolve("fake-ssh");
        Files.writeString(ssh, "#!/bin/sh\n# test stand-in for ssh: -o BatchMode=yes HOST COMMAND\n"
                + "echo \"" + logged + "\" >> '" + log + "'\nshift 3\n" + (exec ? "exec " : "") + "sh -c \"$1\"\n");
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
        return ssh;
    }

    /** Runs {@code body} on {@code ranks} ranks of {@code device}, {@code ppn} per host, over {@code ssh}. */
    static Outcome run(Path ssh, Path dir, RankCase body, int ranks, int ppn, List<String> hosts, String device,
                       Duration timeout) throws Exception {
        Path file = dir.resolve("case.ser");
        try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
            out.writeObject(body);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        String previous = System.getProperty("tessera.ssh");
        System.setProperty("tessera.ssh", ssh.toString());
        try {
            LaunchSpec spec = new LaunchSpec(ranks, ppn, hosts, 1, device, true, List.of(),
                    ProcessRankCase.class.getName(), List.of(file.toString()), List.of("-Xmx256m"), timeout.dividedBy(2));
            int status = new ProcessLauncher(sink, sink, timeout, 0).run(spec);
            return new Outcome(status, bytes.toString(StandardCharsets.UTF_8));
        } finally {
            if (previous == null) {
                System.clearProperty("tessera.ssh");
            } else {
                System.setProperty("tessera.ssh", previous);
            }
        }
    }
}
