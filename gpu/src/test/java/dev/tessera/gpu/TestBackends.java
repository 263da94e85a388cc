package dev.tessera.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Opens a backend's first device for a test, or skips the test with the reason the backend is unavailable. */
final class TestBackends {

    private TestBackends() {
    }

    static Accelerator openOrSkip(Backend b) {
        BackendStatus s = Accelerators.probe(b);
        assumeTrue(s.isAvailable(), () -> b.id() + " unavailable here: " + s.unavailableReason());
        return Accelerators.backend(b).open(0, null);
    }
}
