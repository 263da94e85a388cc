package dev.tessera.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.launch.InfoSection;
import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** --accel parsing, automatic selection, the CPU fallback with its one-line reason, and device per node-local rank. */
@Timeout(60)
class SelectionTest {

    @AfterEach
    void enableAll() {
        System.clearProperty("tessera.accel.disable");
    }

    @Test
    void specsParseAndBadOnesNameTheText() {
        assertEquals(new AcceleratorSpec(Backend.OPENCL, 1), AcceleratorSpec.parse("opencl:1"));
        assertEquals(new AcceleratorSpec(Backend.CUDA, null), AcceleratorSpec.parse("CUDA"));
        assertEquals(AcceleratorSpec.AUTO, AcceleratorSpec.parse("auto"));
        var e = assertThrows(IllegalArgumentException.class, () -> AcceleratorSpec.parse("vulkan"));
        assertTrue(e.getMessage().contains("vulkan"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AcceleratorSpec.parse("cpu:x"));
        assertThrows(IllegalArgumentException.class, () -> AcceleratorSpec.parse("cpu:-1"));
    }

    @Test
    void theOptionWinsOverTheEnvironmentAndIsRemovedFromTheProgramsArguments() {
        List<String> args = List.of("32", "--accel", "cpu", "0.1");
        assertEquals(Backend.CPU, AcceleratorSpec.fromArgs(args, Map.of("TESSERA_ACCEL", "opencl")).backend());
        assertEquals(Backend.OPENCL, AcceleratorSpec.fromArgs(List.of("32"), Map.of("TESSERA_ACCEL", "opencl")).backend());
        assertEquals(Backend.CUDA, AcceleratorSpec.fromArgs(List.of("--accel=cuda:0"), Map.of()).backend());
        assertEquals(List.of("32", "0.1"), AcceleratorSpec.withoutAccelOption(args));
        assertThrows(IllegalArgumentException.class, () -> AcceleratorSpec.fromArgs(List.of("--accel"), Map.of()));
    }

    @Test
    void automaticSelectionPrefersCudaThenOpenClThenCpu() {
        Accelerators.Selection s = Accelerators.choose(AcceleratorSpec.AUTO, 0, 1);
        Backend expected = Accelerators.probe(Backend.CUDA).isAvailable() ? Backend.CUDA
                : Accelerators.probe(Backend.OPENCL).isAvailable() ? Backend.OPENCL : Backend.CPU;
        assertEquals(expected, s.backend());
    }

    @Test
    void aMissingCudaGivesOneLineAndTheCpuFallback() {
        BackendStatus cuda = Accelerators.probe(Backend.CUDA);
        assumeFalse(cuda.isAvailable(), "a CUDA device exists here: the fallback is tested where there is none");
        assertFalse(cuda.unavailableReason().contains("\n"), cuda.unavailableReason());
        Accelerators.Selection s = Accelerators.choose(AcceleratorSpec.parse("cuda"), 0, 1);
        assertEquals(Backend.CPU, s.backend());
        assertTrue(s.message().startsWith("tessera-gpu: cuda unavailable: "), s.message());
        assertTrue(s.message().endsWith("; using cpu:0"), s.message());
        assertFalse(s.message().contains("\n"), s.message());
        try (Accelerator acc = Accelerators.open(s, null)) {
            assertEquals(Backend.CPU, acc.backend());
        }
    }

    @Test
    void disabledBackendsFallBackToTheCpu() {
        System.setProperty("tessera.accel.disable", "cuda,opencl");
        Accelerators.Selection s = Accelerators.choose(AcceleratorSpec.AUTO, 0, 1);
        assertEquals(Backend.CPU, s.backend());
        assertTrue(s.message().contains("opencl unavailable: disabled by TESSERA_ACCEL_DISABLE"), s.message());
        try (Accelerator acc = Accelerators.open(s, null)) {
            DeviceBuffer b = acc.copyOf(new double[] {1, 2});
            acc.gridKernels().fill(acc.defaultQueue(), b, 4);
            double[] out = new double[2];
            acc.defaultQueue().read(b, out);
            assertEquals(4, out[1]);
        }
        assertTrue(GpuInfo.report().contains("opencl     NOT available: disabled by TESSERA_ACCEL_DISABLE"));
    }

    @Test
    void ranksOfANodeTakeDevicesRoundRobinAndSayWhenTheyShare() {
        assumeTrue(Accelerators.probe(Backend.OPENCL).isAvailable(), "opencl unavailable here");
        int devices = Accelerators.probe(Backend.OPENCL).devices().size();
        Accelerators.Selection s = Accelerators.choose(AcceleratorSpec.parse("opencl"), devices + 1, devices + 2);
        assertEquals(1 % devices, s.deviceIndex());
        assertTrue(s.message().contains((devices + 2) + " ranks on this node share " + devices + " opencl device(s)"),
                s.message());
        Accelerators.Selection one = Accelerators.choose(AcceleratorSpec.parse("opencl"), 0, devices);
        assertTrue(one.notes().isEmpty(), one.message());
        var e = assertThrows(IllegalArgumentException.class,
                () -> Accelerators.choose(AcceleratorSpec.parse("opencl:" + devices), 0, 1));
        assertTrue(e.getMessage().contains("has " + devices + " device(s)"), e.getMessage());
    }

    @Test
    void forRankOpensOneAcceleratorPerRank() {
        Map<Integer, Backend> chosen = new ConcurrentHashMap<>();
        SmpJob.run(2, new String[] {"--accel", "cpu", "--threads", "1"}, Duration.ofSeconds(30), session -> {
            try (Accelerator acc = Accelerators.forRank(session)) {
                chosen.put(session.rank(), acc.backend());
                assertEquals(1, acc.info().computeUnits());
            }
        });
        assertEquals(Map.of(0, Backend.CPU, 1, Backend.CPU), chosen);
    }

    @Test
    void tesseraInfoFindsTheAcceleratorSection() {
        List<InfoSection> sections = ServiceLoader.load(InfoSection.class).stream().map(ServiceLoader.Provider::get)
                .filter(s -> s instanceof GpuInfoSection).toList();
        assertEquals(1, sections.size());
        assertTrue(sections.get(0).lines().stream().anyMatch(l -> l.startsWith("cpu        available")),
                String.join("\n", sections.get(0).lines()));
    }

    @Test
    void gpuInfoListsEveryBackend() {
        String report = GpuInfo.report();
        for (Backend b : Backend.values()) {
            assertTrue(report.contains("  " + b.id() + " "), report);
        }
        assertTrue(report.contains("default    "), report);
        assertNull(Accelerators.probe(Backend.CPU).unavailableReason());
    }
}
