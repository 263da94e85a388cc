package dev.tessera.device.shm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of tests that drive two ranks' shm devices sharing one mapped segment in this process
 * (a fresh {@link InProcessShmRanks} job of {@link #CELLS} cells per ring for each test), the
 * test driving both ranks' progress.
 */
abstract class TwoShmRanks {

    static final int CELLS = 8;

    private final int cellBytes;
    InProcessShmRanks job;
    ShmDevice rank0;
    ShmDevice rank1;

    /** Rings of cells of {@code cellBytes} bytes each. */
    TwoShmRanks(int cellBytes) {
        this.cellBytes = cellBytes;
    }

    @BeforeEach
    void twoRanks() {
        job = new InProcessShmRanks(2, cellBytes, CELLS);
        rank0 = job.rank(0);
        rank1 = job.rank(1);
    }

    @AfterEach
    void release() {
        job.close();
    }
}
