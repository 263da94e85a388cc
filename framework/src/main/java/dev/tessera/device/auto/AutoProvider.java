package dev.tessera.device.auto;

import dev.tessera.device.ConnectedRank;
import dev.tessera.device.DeviceProvider;
import dev.tessera.device.DeviceProviders;
import dev.tessera.device.JobEnvironment;
import dev.tessera.device.JobFailure;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.shm.ShmDevice;
import dev.tessera.device.tcp.TcpDevice;
import dev.tessera.device.tcp.TcpProvider;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Provides the auto device, composed of the others through the provider SPI: tcp between
 * every pair of ranks first (which also tells each rank which ranks share its node), then
 * the shm provider for the ranks of each node, all delivering into one matching engine.
 */
public final class AutoProvider implements DeviceProvider {

    @Override
    public String name() {
        return "auto";
    }

    @Override
    public String description() {
        return "shm within a node, tcp between nodes (the default for multi-process jobs)";
    }

    @Override
    public LaunchStyle launchStyle() {
        return LaunchStyle.PROCESSES;
    }

    @Override
    public Availability availability(Map<String, String> variables) {
        Availability shm = DeviceProviders.require("shm").availability(variables);
        return shm.usable() ? Availability.usable("tcp, and shm within a node")
                : Availability.usable("tcp only: " + shm.reason());
    }

    @Override
    public ConnectedRank connect(JobEnvironment env, Link link) {
        JobFailure failure = link.failure();
        MatchingEngine engine = link.engine();
        TcpDevice tcp = TcpProvider.connectDevice(env, new Link(failure, engine, null));
        String[] nodes = tcp.nodes();
        int rank = env.rank();
        int[] local = IntStream.range(0, env.size()).filter(r -> nodes[r].equals(nodes[rank])).toArray();
        int me = Arrays.binarySearch(local, rank);
        String job = env.jobId() != null ? env.jobId() : "job";
        ShmDevice shm = null;
        DeviceProvider shmProvider = DeviceProviders.require("shm");
        if (local.length > 1 && shmProvider.availability(env.variables()).usable()) {
            JobEnvironment nodeEnv = env.forGroup(me, local.length, job + "-" + nodes[rank]);
            shm = (ShmDevice) shmProvider.connect(nodeEnv, new Link(failure, engine, local)).device();
        }
        AutoDevice auto = new AutoDevice(engine, failure, tcp, shm);
        return new ConnectedRank(auto, me, local.length, env.nodeId(), job);
    }

    @Override
    public void cleanUpAfter(String jobId, Map<String, String> variables) {
        DeviceProviders.require("shm").cleanUpAfter(jobId, variables);
    }
}
