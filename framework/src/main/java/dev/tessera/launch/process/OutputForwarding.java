package dev.tessera.launch.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The output of the ranks of {@code tessera run --device mpi}, forwarded by the launcher
 * itself instead of by mpirun: mpirun forwards whatever each read of a rank's pipe returns,
 * so a long line of one rank could be cut by a line of another (4 of 200 long lines in a
 * stress run, even with each line written at once).
 *
 * <p>The launcher listens on a Unix-domain socket in a private directory (mode 0700) and
 * passes its path to the ranks ({@link #SOCKET_VARIABLE}). Each rank connects once for its
 * standard output and once for its standard error; the first line of a connection names the
 * stream ("out" or "err"), every later line is one line of the rank's output. The launcher
 * reads each connection on its own thread and prints each line whole, under the target
 * stream's lock, so lines of different ranks never mix. A rank that cannot connect (started
 * by a plain mpirun, or on another host) keeps writing to its own standard streams.
 */
public final class OutputForwarding implements AutoCloseable {

    /** Where a rank finds the launcher's socket. */
    public static final String SOCKET_VARIABLE = "TESSERA_OUTPUT_SOCKET";
    /** How long {@link #close} waits for the ranks' last lines after the job ended. */
    private static final long DRAIN_MILLIS = 5000;

    private final Path directory;
    private final Path socket;
    private final ServerSocketChannel server;
    private final PrintStream out;
    private final PrintStream err;
    private final List<Thread> readers = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    private OutputForwarding(PrintStream out, PrintStream err) throws IOException {
        this.out = out;
        this.err = err;
        this.directory = Files.createTempDirectory("tessera-out-");   // 0700 on POSIX systems
        this.socket = directory.resolve("s");
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        this.acceptor = Thread.ofPlatform().daemon().name("tessera-output-accept").start(this::accept);
    }

    /** Listens for the ranks' output, printing it to {@code out} and {@code err}. */
    public static OutputForwarding open(PrintStream out, PrintStream err) throws IOException {
        return new OutputForwarding(out, err);
    }

    /** The socket's path, for {@link #SOCKET_VARIABLE}. */
    public String socketPath() {
        return socket.toString();
    }

    private void accept() {
        while (server.isOpen()) {
            try {
                SocketChannel c = server.accept();
                readers.add(Thread.ofPlatform().daemon().name("tessera-output").start(() -> forward(c)));
            } catch (IOException e) {
                return;   // closed
            }
        }
    }

    private void forward(SocketChannel c) {
        try (c; BufferedReader r = new BufferedReader(new InputStreamReader(Channels.newInputStream(c), StandardCharsets.UTF_8))) {
            String stream = r.readLine();
            PrintStream target = "err".equals(stream) ? err : out;
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (target) {
                    target.println(line);
                }
            }
            target.flush();
        } catch (IOException ignored) {
            // the rank is gone: what it wrote before has been printed
        }
    }

    /** After the job: waits (bounded) for the ranks' last lines, then stops listening and removes the socket. */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        long deadline = System.nanoTime() + DRAIN_MILLIS * 1_000_000L;
        for (Thread t : readers) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0) {
                    t.join(java.time.Duration.ofNanos(left));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        try {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(directory);
        } catch (IOException ignored) {
            // best effort: a temporary directory
        }
        out.flush();
        err.flush();
    }

    /**
     * In a rank: connects standard output and error to the launcher named by
     * {@link #SOCKET_VARIABLE} (whole lines, each prefixed with {@code prefix}); false, with
     * nothing changed, if there is no such launcher or it cannot be reached.
     */
    public static boolean connectRank(java.util.Map<String, String> env, String prefix) {
        String path = env.get(SOCKET_VARIABLE);
        if (path == null || path.isBlank()) {
            return false;
        }
        SocketChannel outChannel = null;
        try {
            UnixDomainSocketAddress address = UnixDomainSocketAddress.of(path);
            outChannel = SocketChannel.open(address);
            SocketChannel errChannel = SocketChannel.open(address);
            PrintStream outStream = stream(outChannel, "out");
            PrintStream errStream = stream(errChannel, "err");
            dev.tessera.launch.RankTaggedOutput.installWholeLines(outStream, errStream, prefix);
            return true;
        } catch (IOException | RuntimeException e) {
            if (outChannel != null) {
                try {
                    outChannel.close();
                } catch (IOException ignored) {
                    // falling back
                }
            }
            return false;
        }
    }

    private static PrintStream stream(SocketChannel channel, String name) throws IOException {
        PrintStream s = new PrintStream(Channels.newOutputStream(channel), false, StandardCharsets.UTF_8);
        s.print(name + "\n");
        s.flush();
        return s;
    }
}
