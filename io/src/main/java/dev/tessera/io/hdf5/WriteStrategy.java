package dev.tessera.io.hdf5;

/**
 * How the ranks of a {@link DistributedDataset} write reach the file.
 *
 * <ul>
 *   <li>{@link #INDEPENDENT}: every rank writes its own block at its computed file offsets
 *       (runs adjacent in the file share a write). No communication beyond the block
 *       exchange; best when blocks are few large runs (slab decompositions) and the file
 *       system takes concurrent writers well (local disks, page cache).</li>
 *   <li>{@link #AGGREGATED}: two-phase I/O like MPI-IO collective buffering: one aggregator
 *       rank per node owns an equal contiguous range of the dataset's bytes; in rounds of a
 *       bounded buffer, ranks send the pieces of their blocks that fall in each aggregator's
 *       current window, and aggregators write whole windows sequentially. Best for blocks
 *       made of many small runs (pencil and cube decompositions) and for parallel file
 *       systems that punish many small or interleaved writes.</li>
 *   <li>{@link #AUTO}: {@code AGGREGATED} when the blocks' average run is shorter than
 *       {@value DistributedDataset#AUTO_RUN_BYTES} bytes, across nodes (ROMIO's reasoning,
 *       not measured here: this machine has one node) and on one node where the file can be
 *       written with O_DIRECT (aggregators write whole windows past the page cache; measured
 *       in docs/io.md); otherwise {@code INDEPENDENT} (long runs; short runs on one node
 *       without direct I/O go through a mapping of the file).</li>
 * </ul>
 */
public enum WriteStrategy {
    INDEPENDENT,
    AGGREGATED,
    AUTO
}
