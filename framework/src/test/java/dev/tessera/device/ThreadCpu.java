package dev.tessera.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux's /proc says about a thread: its CPU time and its scheduler state. A thread
 * that spins is always R (running or waiting for a core); one asleep in the kernel (futex,
 * park) is S. The state is the robust sign on a loaded machine, where a spinning thread
 * may get little CPU time.
 */
public final class ThreadCpu {

    private ThreadCpu() {
    }

    /** The /proc directory of the calling thread (/proc/PID/task/TID), to watch it from another thread. */
    public static Path self() {
        try {
            return Path.of("/proc/thread-self").toRealPath();
        } catch (IOException e) {
            throw new IllegalStateException("cannot resolve /proc/thread-self", e);
        }
    }

    /** User plus system CPU time of the calling thread, in nanoseconds (10 ms resolution). */
    public static long nanos() {
        String[] f = fields(Path.of("/proc/thread-self"));
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;   // utime, stime: fields 14 and 15
    }

    /** The scheduler state of the thread whose /proc directory is {@code task}: R, S, D, ... */
    public static char state(Path task) {
        return fields(task)[0].charAt(0);
    }

    /** The fields of {@code task}/stat after the command name (field 3 first). */
    private static String[] fields(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            // the command name is in parentheses and may contain spaces
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + task + "/stat", e);
        }
    }
}
