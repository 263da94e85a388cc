package dev.tessera.gpu.cpu;

import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.AcceleratorBackend;
import dev.tessera.gpu.Backend;
import dev.tessera.gpu.BackendStatus;
import dev.tessera.gpu.DeviceInfo;
import dev.tessera.task.Team;
import java.util.List;

/** The always-available Java backend: one device, this process's cores. */
public final class CpuBackend implements AcceleratorBackend {

    @Override
    public Backend kind() {
        return Backend.CPU;
    }

    private static DeviceInfo info(int threads) {
        Runtime rt = Runtime.getRuntime();
        return new DeviceInfo(Backend.CPU, 0, "Java on the rank's team (" + threads + " threads)",
                System.getProperty("java.vm.vendor", "Java"), rt.maxMemory(), threads, true,
                "Java " + System.getProperty("java.version"));
    }

    @Override
    public BackendStatus probe() {
        return BackendStatus.available(Backend.CPU, List.of(info(Runtime.getRuntime().availableProcessors())));
    }

    @Override
    public Accelerator open(int index, Team team) {
        if (index != 0) {
            throw new IllegalArgumentException("the cpu backend has one device (index 0), asked for " + index);
        }
        boolean owns = team == null;
        Team t = owns ? Team.create(Runtime.getRuntime().availableProcessors()) : team;
        return new CpuAccelerator(info(t.size()), t, owns);
    }
}
