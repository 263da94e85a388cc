package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.TesseraException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.Consumer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A corrupt cell in a shm ring (a bug, or memory overwritten by the program) ends the job
 * with an error naming the rank whose ring it is, never an IndexOutOfBoundsException or a
 * NegativeArraySizeException from the receiving rank's progress. Rank 1's device reads a ring that the test fills as rank 0.
 */
@Timeout(30)
class CorruptCellTest {

    static final int CELL_BYTES = 4096;
    static final int CELLS = 8;

    /**
     * Rank 1's device, making progress on what rank 0 published, fails with an error that
     * names rank 0 as the origin of a corrupt cell (not an exception from reading it).
     */
    static void assertCorruptFromRankZero(ShmDevice rank1) {
        TesseraException e = assertThrows(TesseraException.class, () -> {
            for (int i = 0; i < 3; i++) {
                rank1.progress();
            }
            rank1.checkHealthy();
        });
        assertTrue(e.getMessage().contains("corrupt shared-memory cell from rank 0"), e.getMessage());
    }

    static void corruptCellFromRankZero(Consumer<MemorySegment> fill) {
        try (InProcessShmRanks job = new InProcessShmRanks(2, CELL_BYTES, CELLS)) {   // both ranks alive (this process)
            MemorySegment file = job.file;
            ShmDevice rank1 = job.rank(1);
            ShmRing fromZero = new ShmRing(file, ShmLayout.ringOffset(0, 1, 2, CELL_BYTES, CELLS), CELL_BYTES, CELLS, true);
            MemorySegment cell = fromZero.claim();
            cell.set(ValueLayout.JAVA_INT, ShmLayout.C_KIND, ShmLayout.FIRST);
            cell.set(ValueLayout.JAVA_INT, ShmLayout.C_TAG, 5);
            cell.set(ValueLayout.JAVA_INT, ShmLayout.C_CONTEXT, 0);
            cell.set(ValueLayout.JAVA_INT, ShmLayout.C_TYPE, 0);
            cell.set(ValueLayout.JAVA_LONG, ShmLayout.C_TOTAL, 100_000);
            cell.set(ValueLayout.JAVA_INT, ShmLayout.C_CHUNK, 1000);
            fill.accept(cell);
            fromZero.publish();
            // the cell's place in the pair's order: a one-line entry in the lane
            ShmLane lane = new ShmLane(file, ShmLayout.laneOffset(0, 1, 2, CELL_BYTES, CELLS), true);
            long mark = lane.claimAt(0);
            lane.segment().set(ValueLayout.JAVA_INT, mark + ShmLayout.L_KIND, ShmLayout.L_CELL);
            lane.publish();
            assertCorruptFromRankZero(rank1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chunk larger than the cell", "negative chunk", "chunk above the total", "unknown kind",
        "continuation without a first cell", "negative total"})
    void aCorruptCellIsAnErrorNamingTheRank(String what) {
        corruptCellFromRankZero(cell -> {
            switch (what) {
                case "chunk larger than the cell" -> cell.set(ValueLayout.JAVA_INT, ShmLayout.C_CHUNK, 4 * CELL_BYTES);
                case "negative chunk" -> cell.set(ValueLayout.JAVA_INT, ShmLayout.C_CHUNK, -8);
                case "chunk above the total" -> cell.set(ValueLayout.JAVA_LONG, ShmLayout.C_TOTAL, 10);
                case "unknown kind" -> cell.set(ValueLayout.JAVA_INT, ShmLayout.C_KIND, 99);
                case "continuation without a first cell" -> cell.set(ValueLayout.JAVA_INT, ShmLayout.C_KIND, ShmLayout.MORE);
                case "negative total" -> cell.set(ValueLayout.JAVA_LONG, ShmLayout.C_TOTAL, -1);
                default -> throw new IllegalArgumentException(what);
            }
        });
    }

    /** A corrupt lane entry (the small-message lane beside the cells) is reported the same way. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"unknown lane kind", "message longer than the lane holds", "negative length",
        "cell entry without a cell"})
    void aCorruptLaneEntryIsAnErrorNamingTheRank(String what) {
        try (InProcessShmRanks job = new InProcessShmRanks(2, CELL_BYTES, CELLS)) {
            MemorySegment file = job.file;
            ShmDevice rank1 = job.rank(1);
            ShmLane lane = new ShmLane(file, ShmLayout.laneOffset(0, 1, 2, CELL_BYTES, CELLS), true);
            long at = lane.claimAt(8);
            MemorySegment entries = lane.segment();
            entries.set(ValueLayout.JAVA_INT, at + ShmLayout.L_KIND, ShmLayout.L_MSG);
            entries.set(ValueLayout.JAVA_INT, at + ShmLayout.L_LENGTH, 8);
            switch (what) {
                case "unknown lane kind" -> entries.set(ValueLayout.JAVA_INT, at + ShmLayout.L_KIND, 42);
                case "message longer than the lane holds" -> entries.set(ValueLayout.JAVA_INT, at + ShmLayout.L_LENGTH,
                        ShmLayout.LANE_MAX + 1);
                case "negative length" -> entries.set(ValueLayout.JAVA_INT, at + ShmLayout.L_LENGTH, -3);
                case "cell entry without a cell" -> entries.set(ValueLayout.JAVA_INT, at + ShmLayout.L_KIND, ShmLayout.L_CELL);
                default -> throw new IllegalArgumentException(what);
            }
            lane.publish();
            assertCorruptFromRankZero(rank1);
        }
    }
}
