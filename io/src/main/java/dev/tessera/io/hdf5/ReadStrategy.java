package dev.tessera.io.hdf5;

/**
 * How the ranks of a collective {@link DistributedDataset#readAll} reach the file.
 *
 * <ul>
 *   <li>{@link #INDEPENDENT}: every rank reads its own box (as {@link DistributedDataset#read}
 *       does: runs close together share a read of at most 4 MiB, dense windows go past the
 *       page cache).</li>
 *   <li>{@link #AGGREGATED}: two-phase read, the reverse of the aggregated write (MPI-IO's
 *       collective buffering for reads): one aggregator rank per node owns an equal
 *       contiguous range of the bytes the ranks ask for, reads it in whole windows (with
 *       O_DIRECT where the file system takes it) and sends every rank the pieces of each
 *       window its box holds; an aggregator's own pieces are copied straight from the
 *       window.</li>
 *   <li>{@link #AUTO}: {@code AGGREGATED} where the boxes' average run is shorter than
 *       {@value DistributedDataset#AUTO_RUN_BYTES} bytes, the boxes ask for at least half of
 *       the span they cover in the file, and the file is contiguous and is read direct on
 *       every rank (or spans several nodes); otherwise {@code INDEPENDENT}. The reason, on a
 *       VM that returns freed memory to its host (docs/io.md): independent short-run reads
 *       sieve through the page cache, a host page fault per fresh 4 KiB page, while the
 *       aggregator reads every byte once, past the page cache.</li>
 * </ul>
 */
public enum ReadStrategy {
    INDEPENDENT,
    AGGREGATED,
    AUTO
}
