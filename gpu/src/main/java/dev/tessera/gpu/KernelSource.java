package dev.tessera.gpu;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Kernel source text in the shared dialect of {@link KernelPrelude}, usually a resource
 * next to the class that launches it, plus the Java bodies the CPU backend runs for the
 * same kernel names. {@link #text(Backend)} is what a backend compiles: the prelude, then a
 * {@code #line 1} directive, so compiler messages count lines from the top of the user's file.
 *
 * <pre>{@code
 * KernelSource src = KernelSource.fromResource(Heat.class, "heat.cl")
 *         .withCpu("step_double", launch -> { ... });
 * Program p = accelerator.compile(src);
 * }</pre>
 */
public final class KernelSource {

    private final String name;
    private final String text;
    private final Map<String, CpuKernel> cpuKernels;

    private KernelSource(String name, String text, Map<String, CpuKernel> cpuKernels) {
        this.name = name;
        this.text = text;
        this.cpuKernels = Map.copyOf(cpuKernels);
    }

    /** A source given as text; {@code name} appears in compiler messages. */
    public static KernelSource of(String name, String text) {
        return new KernelSource(Objects.requireNonNull(name, "name"), Objects.requireNonNull(text, "text"), Map.of());
    }

    /** The resource {@code resource} found relative to {@code anchor} (as {@link Class#getResourceAsStream}). */
    public static KernelSource fromResource(Class<?> anchor, String resource) {
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("kernel source resource '" + resource + "' not found next to "
                        + anchor.getName());
            }
            return of(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("reading kernel source " + resource, e);
        }
    }

    /** This source with {@code body} as the CPU backend's implementation of kernel {@code kernelName}. */
    public KernelSource withCpu(String kernelName, CpuKernel body) {
        Map<String, CpuKernel> m = new HashMap<>(cpuKernels);
        m.put(Objects.requireNonNull(kernelName, "kernelName"), Objects.requireNonNull(body, "body"));
        return new KernelSource(name, text, m);
    }

    public String name() {
        return name;
    }

    /** The user's text, without prelude. */
    public String text() {
        return text;
    }

    /** What {@code backend} compiles: prelude, line reset, user text. */
    public String text(Backend backend) {
        return KernelPrelude.forBackend(backend) + "#line 1 \"" + name + "\"\n" + text;
    }

    /** The CPU backend's bodies by kernel name. */
    public Map<String, CpuKernel> cpuKernels() {
        return cpuKernels;
    }
}
