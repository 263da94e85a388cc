package dev.tessera.gpu.cpu;

import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.DeviceInfo;
import dev.tessera.gpu.ElementType;
import dev.tessera.gpu.HostBuffer;
import dev.tessera.gpu.KernelSource;
import dev.tessera.gpu.Program;
import dev.tessera.gpu.Queue;
import dev.tessera.task.Team;
import java.lang.foreign.Arena;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The CPU backend: buffers are Java arrays, kernels are the Java bodies registered with
 * their source, run on the rank's {@link Team} from each queue's thread. Always
 * available; the reference the device backends are tested against.
 */
public final class CpuAccelerator extends Accelerator {

    private final Team team;
    private final boolean ownsTeam;
    private final AtomicInteger queues = new AtomicInteger();

    CpuAccelerator(DeviceInfo info, Team team, boolean ownsTeam) {
        super(info);
        this.team = team;
        this.ownsTeam = ownsTeam;
    }

    Team team() {
        return team;
    }

    @Override
    protected DeviceBuffer allocateBuffer(ElementType type, long count) {
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("Accelerator.allocate: the cpu backend holds at most 2^31 - 9 elements per "
                    + "buffer, asked for " + count);
        }
        return new CpuBuffer(this, type, count);
    }

    @Override
    protected HostBuffer allocateHostBuffer(long bytes) {
        Arena arena = Arena.ofShared();
        return new HostBuffer(arena.allocate(bytes, 64), false) {
            @Override
            protected void release() {
                arena.close();
            }
        };
    }

    @Override
    protected Queue newQueue() {
        return new CpuQueue(this, queues.getAndIncrement());
    }

    @Override
    protected Program build(KernelSource source) {
        return new CpuProgram(this, source);
    }

    @Override
    protected void closeContext() {
        if (ownsTeam) {
            team.close();
        }
    }
}
