package dev.tessera.gpu.cpu;

import dev.tessera.gpu.CpuLaunch;
import dev.tessera.gpu.WorkSize;
import dev.tessera.task.RangeBody;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;

/** One launch of a Java kernel body: its arguments and the team it may split loops over. */
final class CpuLaunchContext implements CpuLaunch {

    /** Below this much work a loop runs inline: a team fork costs microseconds, a cell update nanoseconds. */
    private static final long MIN_PARALLEL_WORK = 1 << 15;

    private final Team team;
    private final WorkSize size;
    private final Object[] args;
    private final String kernel;

    CpuLaunchContext(Team team, WorkSize size, Object[] args, String kernel) {
        this.team = team;
        this.size = size;
        this.args = args;
        this.kernel = kernel;
    }

    @Override
    public WorkSize size() {
        return size;
    }

    private <T> T arg(int i, Class<T> type) {
        Object a = i < args.length ? args[i] : null;
        if (a instanceof CpuBuffer b) {
            a = b.array();
        }
        if (!type.isInstance(a)) {
            throw new IllegalArgumentException("kernel " + kernel + ": argument " + i + " is "
                    + (a == null ? "missing" : "a " + a.getClass().getSimpleName()) + ", the body reads a "
                    + type.getSimpleName());
        }
        return type.cast(a);
    }

    @Override
    public double[] doubles(int arg) {
        return arg(arg, double[].class);
    }

    @Override
    public float[] floats(int arg) {
        return arg(arg, float[].class);
    }

    @Override
    public long[] longs(int arg) {
        return arg(arg, long[].class);
    }

    @Override
    public int[] ints(int arg) {
        return arg(arg, int[].class);
    }

    @Override
    public int intArg(int arg) {
        return arg(arg, Integer.class);
    }

    @Override
    public long longArg(int arg) {
        return arg(arg, Long.class);
    }

    @Override
    public double doubleArg(int arg) {
        return arg(arg, Double.class);
    }

    @Override
    public float floatArg(int arg) {
        return arg(arg, Float.class);
    }

    @Override
    public void parallelFor(int lo, int hi, long itemsPerIndex, RangeBody body) {
        if (hi <= lo) {
            return;
        }
        if (team.size() == 1 || (long) (hi - lo) * itemsPerIndex < MIN_PARALLEL_WORK) {
            body.run(lo, hi);
        } else {
            team.parallelForRange(lo, hi, Schedule.STATIC, body);
        }
    }
}
