package dev.tessera.device;

/**
 * A rank connected to its job by a {@link DeviceProvider}: its device and its place on its node.
 *
 * @param device    the connected device
 * @param localRank this rank's index among the ranks of its node
 * @param localSize ranks on this rank's node
 * @param nodeId    index of this rank's node in the job
 * @param jobId     the job's id
 */
public record ConnectedRank(Device device, int localRank, int localSize, int nodeId, String jobId) {
}
