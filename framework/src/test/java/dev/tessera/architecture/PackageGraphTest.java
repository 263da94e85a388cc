package dev.tessera.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.constant.ClassDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The framework's layers, checked over its compiled classes (every class a class file
 * refers to, not just its imports): arrows point from higher layers to lower ones only.
 *
 * <pre>
 *   launch, runtime, mpi (with mpjbuf, mpjdev) ──> grid ──> comm ──> device (SPI) <── smp, shm, tcp, auto, mpi devices
 *                                       task (threads: nothing of ours)
 * </pre>
 *
 * The graph found is written to target/package-graph.txt.
 */
class PackageGraphTest {

    private static final String ROOT = "dev.tessera";
    private static final Set<String> DEVICES = Set.of("device.smp", "device.shm", "device.tcp", "device.auto", "device.mpi");
    private static final Map<String, Set<String>> GRAPH = new TreeMap<>();

    @BeforeAll
    static void readClasses() throws IOException {
        Path classes = Path.of("target", "classes");
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                ClassModel model = ClassFile.of().parse(f);
                String from = layer(packageOf(model.thisClass().asSymbol()));
                if (from == null) {
                    continue;
                }
                Set<String> to = GRAPH.computeIfAbsent(from, k -> new TreeSet<>());
                for (PoolEntry e : model.constantPool()) {
                    if (e instanceof ClassEntry ce) {
                        ClassDesc d = ce.asSymbol();
                        while (d.isArray()) {
                            d = d.componentType();
                        }
                        if (d.isClassOrInterface()) {
                            add(to, from, packageOf(d));
                        }
                    } else if (e instanceof java.lang.classfile.constantpool.Utf8Entry u) {
                        // types that appear only in descriptors and signatures (parameters, fields, generics)
                        java.util.regex.Matcher m = DESCRIPTOR_TYPE.matcher(u.stringValue());
                        while (m.find()) {
                            String internal = m.group(1);
                            int slash = internal.lastIndexOf('/');
                            add(to, from, slash < 0 ? "" : internal.substring(0, slash).replace('/', '.'));
                        }
                    }
                }
            }
        }
        StringBuilder out = new StringBuilder();
        GRAPH.forEach((k, v) -> out.append(k).append(" -> ").append(String.join(", ", v)).append('\n'));
        Files.writeString(Path.of("target", "package-graph.txt"), out);
    }

    private static final java.util.regex.Pattern DESCRIPTOR_TYPE = java.util.regex.Pattern.compile("L((?:dev/tessera|mpi|mpjbuf|mpjdev)/[\\w/$]+)[;<]");

    private static void add(Set<String> to, String from, String pkg) {
        String target = layer(pkg);
        if (target != null && !target.equals(from)) {
            to.add(target);
        }
    }

    private static String packageOf(ClassDesc d) {
        return d.packageName();
    }

    /** The layer a package belongs to, relative to dev.tessera ("" for the root; null outside Tessera). */
    private static String layer(String pkg) {
        if (pkg.equals("mpi") || pkg.equals("mpjbuf") || pkg.equals("mpjdev")) {
            return "mpi-facade";        // MPJ Express's mpjbuf and mpjdev belong to the facade
        }
        if (pkg.equals(ROOT)) {
            return "(root)";
        }
        if (!pkg.startsWith(ROOT + ".")) {
            return null;
        }
        String rest = pkg.substring(ROOT.length() + 1);
        String[] parts = rest.split("\\.");
        if (parts[0].equals("device") && parts.length > 1) {
            return "device." + parts[1];
        }
        return parts[0];
    }

    private static List<String> violations(String from, Set<String> forbidden) {
        List<String> bad = new ArrayList<>();
        for (String to : GRAPH.getOrDefault(from, Set.of())) {
            if (forbidden.contains(to)) {
                bad.add(from + " -> " + to);
            }
        }
        return bad;
    }

    @Test
    void runtimeLaunchCommGridAndTheFacadeNameNoConcreteDevice() {
        List<String> bad = new ArrayList<>();
        for (String layer : List.of("runtime", "launch", "comm", "grid", "task", "mpi-facade", "(root)", "device")) {
            bad.addAll(violations(layer, DEVICES));
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void noDeviceReachesUpToTheLayersAboveIt() {
        List<String> bad = new ArrayList<>();
        Set<String> above = Set.of("runtime", "launch", "comm", "grid", "task", "mpi-facade");
        for (String device : DEVICES) {
            bad.addAll(violations(device, above));
        }
        bad.addAll(violations("device", above));
        assertEquals(List.of(), bad);
    }

    @Test
    void taskDependsOnNothingOfOurs() {
        assertEquals(Set.of(), GRAPH.getOrDefault("task", Set.of()));
    }

    @Test
    void commKnowsOnlyTheDeviceSpiBelowIt() {
        List<String> bad = violations("comm", Set.of("runtime", "launch", "grid", "task", "mpi-facade"));
        assertEquals(List.of(), bad);
    }

    @Test
    void gridSitsOnCommAndTaskOnly() {
        List<String> bad = violations("grid", Set.of("runtime", "launch", "mpi-facade", "device"));
        assertEquals(List.of(), bad);
    }

    @Test
    void everyShippedDeviceIsFoundThroughItsProvider() {
        assertTrue(dev.tessera.device.DeviceProviders.names().containsAll(List.of("smp", "shm", "tcp", "auto", "mpi")),
                "providers found: " + dev.tessera.device.DeviceProviders.names());
    }
}
