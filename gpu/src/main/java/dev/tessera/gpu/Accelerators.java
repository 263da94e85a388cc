package dev.tessera.gpu;

import dev.tessera.gpu.cpu.CpuBackend;
import dev.tessera.gpu.cuda.CudaBackend;
import dev.tessera.gpu.opencl.OpenClBackend;
import dev.tessera.runtime.Session;
import dev.tessera.task.Team;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Finds and opens accelerators.
 *
 * <p>Selection ({@link #choose}). An explicit backend is used if it is available, else
 * the CPU backend; automatic selection takes the first available of CUDA, OpenCL, CPU.
 * Unavailable backends are never an error: each contributes one note saying why
 * ("cuda unavailable: no CUDA driver (libcuda.so.1)"), which {@link #forRank} prints as one
 * line on the node's first rank. An explicit device index out of range is an error.
 *
 * <p>One rank per device ({@link #forRank}). Without an explicit index, the rank with
 * node-local rank r among L ranks of its node takes device {@code r mod D} of the D
 * devices of the chosen backend: with L = D every device has one rank. With L > D ranks
 * share devices round-robin (a note says so). The framework never depends on this module:
 * the rank's place on its node comes from {@link Session#localRank()} and
 * {@link Session#localSize()}.
 *
 * <p>{@code TESSERA_ACCEL_DISABLE=cuda,opencl} (or the system property
 * {@code tessera.accel.disable}) hides backends, to force the fallback.
 */
public final class Accelerators {

    private static final List<AcceleratorBackend> BACKENDS = List.of(new CudaBackend(), new OpenClBackend(),
            new CpuBackend());

    private Accelerators() {
    }

    /** The outcome of selection: which backend and device, and the notes on what was skipped and why. */
    public record Selection(Backend backend, int deviceIndex, List<String> notes) {
        public Selection {
            notes = List.copyOf(notes);
        }

        /** The notes as one line (empty if there are none). */
        public String message() {
            return notes.isEmpty() ? "" : "tessera-gpu: " + String.join("; ", notes) + "; using " + backend.id() + ":"
                    + deviceIndex;
        }
    }

    static AcceleratorBackend backend(Backend b) {
        return BACKENDS.get(b.ordinal());
    }

    /** The probe result of one backend (cached after the first call), honouring TESSERA_ACCEL_DISABLE. */
    public static BackendStatus probe(Backend b) {
        if (b != Backend.CPU && disabled().contains(b)) {
            return BackendStatus.unavailable(b, "disabled by TESSERA_ACCEL_DISABLE");
        }
        return backend(b).probe();
    }

    /** Every backend's probe result, in order of preference. */
    public static List<BackendStatus> probeAll() {
        List<BackendStatus> all = new ArrayList<>();
        for (Backend b : Backend.values()) {
            all.add(probe(b));
        }
        return all;
    }

    /** Chooses a backend and device for the rank with node-local rank {@code localRank} of {@code localSize}. */
    public static Selection choose(AcceleratorSpec spec, int localRank, int localSize) {
        List<Backend> candidates = spec.backend() == null ? List.of(Backend.values())
                : spec.backend() == Backend.CPU ? List.of(Backend.CPU) : List.of(spec.backend(), Backend.CPU);
        List<String> notes = new ArrayList<>();
        for (Backend b : candidates) {
            BackendStatus s = probe(b);
            if (!s.isAvailable()) {
                notes.add(b.id() + " unavailable: " + s.unavailableReason());
                continue;
            }
            int n = s.devices().size();
            int index;
            if (spec.index() != null && b == spec.backend()) {
                if (spec.index() >= n) {
                    throw new IllegalArgumentException("--accel " + spec + ": " + b.id() + " has " + n
                            + " device(s) (0.." + (n - 1) + ")");
                }
                index = spec.index();
            } else {
                index = Math.floorMod(localRank, n);
                if (localSize > n && b != Backend.CPU) {
                    notes.add(localSize + " ranks on this node share " + n + " " + b.id() + " device(s)");
                }
            }
            return new Selection(b, index, notes);
        }
        throw new AssertionError("the cpu backend is always available");
    }

    /** Opens the chosen device; {@code team} serves the CPU backend (null: a team of its own). */
    public static Accelerator open(Selection selection, Team team) {
        return backend(selection.backend()).open(selection.deviceIndex(), team);
    }

    /** Chooses and opens for a process that is not a Tessera rank (one device, index 0 of the first available backend). */
    public static Accelerator open(AcceleratorSpec spec) {
        Selection s = choose(spec, 0, 1);
        if (!s.notes().isEmpty()) {
            System.err.println(s.message());
        }
        return open(s, null);
    }

    /**
     * The accelerator of this rank: {@code --accel} from the session's arguments or
     * TESSERA_ACCEL, else automatic; device by node-local rank; the CPU backend runs on
     * the session's team. The node's first rank prints the selection notes as one line.
     */
    public static Accelerator forRank(Session session) {
        return forRank(session, AcceleratorSpec.fromArgs(session.args(), System.getenv()));
    }

    /** As {@link #forRank(Session)} with an explicit spec. */
    public static Accelerator forRank(Session session, AcceleratorSpec spec) {
        Selection s = choose(spec, session.localRank(), session.localSize());
        if (!s.notes().isEmpty() && session.localRank() == 0) {
            System.err.println("rank " + session.rank() + ": " + s.message());
        }
        return open(s, session.team());
    }

    private static Set<Backend> disabled() {
        String v = System.getProperty("tessera.accel.disable", System.getenv("TESSERA_ACCEL_DISABLE"));
        Set<Backend> set = EnumSet.noneOf(Backend.class);
        if (v != null) {
            for (String name : v.split(",")) {
                if (!name.isBlank()) {
                    set.add(Backend.fromId(name.trim().toLowerCase(Locale.ROOT)));
                }
            }
        }
        return set;
    }
}
