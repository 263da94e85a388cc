package dev.tessera.launch;

import dev.tessera.runtime.internal.RankBootstrap;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * For smp jobs with --tag-output: replaces System.out and System.err by streams that
 * prefix every line with the rank of the thread writing it ("[2] ..."), buffering per
 * thread so lines of different ranks do not interleave mid-line.
 */
public final class RankTaggedOutput extends OutputStream {

    private final PrintStream target;
    /** Fixed prefix of a process rank, or null: the prefix of the writing thread's smp rank. */
    private final String fixedPrefix;
    /** Every thread's pending line, for {@link #drain} at exit. */
    private final java.util.Set<ByteArrayOutputStream> pending = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final ThreadLocal<ByteArrayOutputStream> line = ThreadLocal.withInitial(() -> {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        pending.add(b);
        return b;
    });

    private RankTaggedOutput(PrintStream target, String fixedPrefix) {
        this.target = target;
        this.fixedPrefix = fixedPrefix;
    }

    static void install() {
        System.setOut(new PrintStream(new RankTaggedOutput(System.out, null), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new RankTaggedOutput(System.err, null), true, StandardCharsets.UTF_8));
    }

    /** For a process rank (mpi device jobs): whole lines, each prefixed with "[rank] ". */
    public static void installForProcess(String rank) {
        String prefix = "[" + rank + "] ";
        System.setOut(new PrintStream(new RankTaggedOutput(System.out, prefix), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new RankTaggedOutput(System.err, prefix), true, StandardCharsets.UTF_8));
    }

    /**
     * For a process rank under another launcher's output forwarding (mpirun): whole lines,
     * unprefixed, each written at once, so forwarded output of ranks (and of a rank's threads)
     * never interleaves mid-line. What is left of a line without its newline is written at exit.
     */
    public static void installWholeLines() {
        installWholeLines(System.out, System.err, "");
    }

    /**
     * Replaces System.out and System.err by streams that pass {@code out} and {@code err}
     * whole lines only, each prefixed with {@code prefix} and written at once (the launcher's
     * own output forwarding under --device mpi); what is left of a line is written at exit.
     */
    public static void installWholeLines(PrintStream out, PrintStream err, String prefix) {
        RankTaggedOutput o = new RankTaggedOutput(out, prefix);
        RankTaggedOutput e = new RankTaggedOutput(err, prefix);
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            o.drain();
            e.drain();
        }, "tessera-output-drain"));
    }

    /** A stream that passes {@code target} whole lines only, each in one write. */
    static RankTaggedOutput wholeLines(PrintStream target) {
        return new RankTaggedOutput(target, "");
    }

    /** Writes what is left of every thread's last line (at exit: output without a final newline). */
    void drain() {
        for (ByteArrayOutputStream b : pending) {
            synchronized (b) {
                if (b.size() > 0) {
                    emit(b);
                }
            }
        }
        target.flush();
    }

    @Override
    public void write(int b) {
        ByteArrayOutputStream buf = line.get();
        synchronized (buf) {
            buf.write(b);
            if (b == '\n') {
                emit(buf);
            }
        }
    }

    @Override
    public void write(byte[] bytes, int off, int len) {
        ByteArrayOutputStream buf = line.get();
        synchronized (buf) {
            int start = off;
            for (int i = off; i < off + len; i++) {
                if (bytes[i] == '\n') {
                    buf.write(bytes, start, i + 1 - start);
                    emit(buf);
                    start = i + 1;
                }
            }
            buf.write(bytes, start, off + len - start);
        }
    }

    /** Flushes complete lines only: a partial line waits for its newline, so ranks never split each other's lines. */
    @Override
    public void flush() {
        target.flush();
    }

    private void emit(ByteArrayOutputStream buf) {
        RankBootstrap b = fixedPrefix != null ? null : RankBootstrap.current();
        String prefix = fixedPrefix != null ? fixedPrefix : b == null ? "" : "[" + b.device().rank() + "] ";
        byte[] head = prefix.getBytes(StandardCharsets.UTF_8);
        byte[] whole = java.util.Arrays.copyOf(head, head.length + buf.size());
        System.arraycopy(buf.toByteArray(), 0, whole, head.length, buf.size());
        synchronized (target) {
            // one write of the whole line (and its prefix): a long line is not cut where the stream's buffer fills
            target.write(whole, 0, whole.length);
            target.flush();
        }
        buf.reset();
    }
}
