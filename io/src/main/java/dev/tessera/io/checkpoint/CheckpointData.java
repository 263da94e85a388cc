package dev.tessera.io.checkpoint;

import dev.tessera.comm.Datatype;
import dev.tessera.io.pfile.Subarray;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one rank puts into a checkpoint: metadata (string pairs), named local arrays
 * (saved as they are, one file per rank) and named blocks of distributed arrays (saved
 * into one global array per name, readable later by any number of ranks).
 *
 * <pre>{@code
 * CheckpointData d = new CheckpointData()
 *         .metadata("time", Double.toString(t))
 *         .put("particles", positions)                       // this rank's own array
 *         .distributed("rho", myBlock, rho);                // this rank's block of the global rho
 * }</pre>
 *
 * Arrays are referenced, not copied: do not change them until {@code save} returns.
 */
public final class CheckpointData {

    /** A named local array (a primitive array). */
    record Local(String name, Datatype type, Object array) {
    }

    /** This rank's block of a named distributed array. */
    record Distributed(String name, Subarray block, MemorySegment data) {
    }

    private final Map<String, String> metadata = new LinkedHashMap<>();
    private final Map<String, Local> locals = new LinkedHashMap<>();
    private final Map<String, Distributed> distributed = new LinkedHashMap<>();

    public CheckpointData metadata(String key, String value) {
        if (key == null || value == null) {
            throw new IllegalArgumentException("CheckpointData.metadata: key and value must not be null");
        }
        metadata.put(key, value);
        return this;
    }

    public CheckpointData put(String name, double[] a) { return local(name, Datatype.DOUBLE, a); }
    public CheckpointData put(String name, float[] a) { return local(name, Datatype.FLOAT, a); }
    public CheckpointData put(String name, long[] a) { return local(name, Datatype.LONG, a); }
    public CheckpointData put(String name, int[] a) { return local(name, Datatype.INT, a); }
    public CheckpointData put(String name, short[] a) { return local(name, Datatype.SHORT, a); }
    public CheckpointData put(String name, byte[] a) { return local(name, Datatype.BYTE, a); }

    /** This rank's {@code block} (of the global array {@code block.sizes()}) of the distributed array {@code name}. */
    public CheckpointData distributed(String name, Subarray block, double[] data) {
        return distributed(name, block, MemorySegment.ofArray(data), data.length);
    }

    public CheckpointData distributed(String name, Subarray block, long[] data) {
        return distributed(name, block, MemorySegment.ofArray(data), data.length);
    }

    public CheckpointData distributed(String name, Subarray block, int[] data) {
        return distributed(name, block, MemorySegment.ofArray(data), data.length);
    }

    private CheckpointData distributed(String name, Subarray block, MemorySegment data, int length) {
        checkName(name);
        if (block == null) {
            throw new IllegalArgumentException("CheckpointData.distributed(" + name + "): block is null");
        }
        if (length != block.elementCount() || data.byteSize() != block.dataBytes()) {
            throw new IllegalArgumentException("CheckpointData.distributed(" + name + "): " + length
                    + " elements given for a block of " + block.elementCount() + " (" + block + ")");
        }
        distributed.put(name, new Distributed(name, block, data));
        return this;
    }

    private CheckpointData local(String name, Datatype type, Object array) {
        checkName(name);
        if (array == null) {
            throw new IllegalArgumentException("CheckpointData.put(" + name + "): array is null");
        }
        locals.put(name, new Local(name, type, array));
        return this;
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty() || !name.matches("[A-Za-z0-9_.\\-]+")) {
            throw new IllegalArgumentException("CheckpointData: array name '" + name
                    + "' must be non-empty letters, digits, '_', '.' or '-'");
        }
    }

    Map<String, String> metadata() {
        return Collections.unmodifiableMap(metadata);
    }

    List<Local> locals() {
        return new ArrayList<>(locals.values());
    }

    List<Distributed> distributed() {
        return new ArrayList<>(distributed.values());
    }
}
