package dev.tessera.device.smp;

import dev.tessera.device.DeviceProvider;
import dev.tessera.device.InProcessJob;
import java.util.Map;

/** Provides the smp device: ranks as threads of one JVM. */
public final class SmpProvider implements DeviceProvider {

    @Override
    public String name() {
        return "smp";
    }

    @Override
    public String description() {
        return "ranks as threads of one JVM (tests, laptops, one node); eager limit " + SmpFabric.DEFAULT_EAGER_LIMIT + " B";
    }

    @Override
    public LaunchStyle launchStyle() {
        return LaunchStyle.IN_PROCESS;
    }

    @Override
    public Availability availability(Map<String, String> variables) {
        return Availability.usable("always (nothing to set up)");
    }

    @Override
    public InProcessJob createInProcess(int ranks) {
        return new SmpFabric(ranks);
    }
}
