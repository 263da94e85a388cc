package dev.tessera.device.smp;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.NodeRegion;
import dev.tessera.device.shm.BulkCopy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Locale;

/**
 * The memory of the world communicator's shared-memory collectives in an smp job: one region
 * for all ranks (threads of this JVM), laid out and driven by {@code dev.tessera.comm.NodeCollectives}
 * exactly as the shm device's region in its shared file is ({@link NodeRegion}). The ranks
 * share an address space, so a collective of small data moves one cache line from the writer's
 * core to each reader's instead of a point-to-point message per tree edge; each rank waits
 * through its own {@link SmpDevice} (the device's spin, then parks that a publisher ends).
 *
 * <p>{@code -Dtessera.smp.coll=on|off} or {@code TESSERA_SMP_COLL=on|off} (the property wins;
 * default on); {@code -Dtessera.smp.coll.slotBytes} (default 64 KiB, as the shm device's): bytes of
 * each of a rank's {@link NodeRegion#DEPTH} data slots.
 *
 * <p>Copies of 4 KiB or more between a rank's buffer and the slots go by the C library's memcpy
 * ({@link BulkCopy}, the shm device's helper), as on the shm device: the JIT's copy stub into and
 * out of slots that the other core had just used ran at a slow level, 4-5x, for seconds at a
 * time on the AMD EPYC Zen 5 VM (docs/performance.md, stops 76 and 77).
 * {@code -Dtessera.smp.coll.memcpy=on|off} or {@code TESSERA_SMP_COLL_MEMCPY} (default on).
 */
final class SmpRegion {

    /** Default bytes of a data slot: the shm device's default, for the same chunk sizes. */
    static final int DEFAULT_SLOT_BYTES = 64 * 1024;

    final MemorySegment memory;
    final int members;
    final int slotBytes;
    /** Smallest copy made by memcpy ({@link BulkCopy#minBytes}); {@link Long#MAX_VALUE}: none. */
    final long bulkFrom;

    private SmpRegion(int members, int slotBytes, long bulkFrom) {
        this.members = members;
        this.slotBytes = slotBytes;
        this.bulkFrom = bulkFrom;
        // zeroed by the allocation; freed with the fabric that holds it
        this.memory = Arena.ofAuto().allocate(NodeRegion.bytes(members, slotBytes), 4096);
    }

    /**
     * The region for an smp job of {@code members} ranks, or null when the collectives are off
     * ({@code tessera.smp.coll} / TESSERA_SMP_COLL) or the job has one rank.
     */
    static SmpRegion create(int members, java.util.Map<String, String> env) {
        String mode = System.getProperty("tessera.smp.coll", env.getOrDefault("TESSERA_SMP_COLL", "on"))
                .trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("on") && !mode.equals("off")) {
            throw new TesseraException(ErrorClass.ARG, "TESSERA_SMP_COLL / tessera.smp.coll: unknown value '" + mode
                    + "' (valid: on, off)");
        }
        if (mode.equals("off") || members < 2) {
            return null;
        }
        int slot = Integer.getInteger("tessera.smp.coll.slotBytes", DEFAULT_SLOT_BYTES);
        if (slot < 64 || slot > (1 << 26)) {
            throw new TesseraException(ErrorClass.ARG, "tessera.smp.coll.slotBytes " + slot + " is outside 64 B - 64 MiB");
        }
        String copy = System.getProperty("tessera.smp.coll.memcpy", env.getOrDefault("TESSERA_SMP_COLL_MEMCPY", "on"))
                .trim().toLowerCase(Locale.ROOT);
        if (!copy.equals("on") && !copy.equals("off")) {
            throw new TesseraException(ErrorClass.ARG, "TESSERA_SMP_COLL_MEMCPY / tessera.smp.coll.memcpy: unknown value '"
                    + copy + "' (valid: on, off)");
        }
        return new SmpRegion(members, (slot + 63) & ~63, copy.equals("on") ? BulkCopy.minBytes() : Long.MAX_VALUE);
    }
}
