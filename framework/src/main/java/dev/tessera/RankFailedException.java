package dev.tessera;

/**
 * A call failed because a peer rank's process is gone, in a job that chose to go on when a
 * rank dies ({@code tessera run --on-rank-failure continue}, TESSERA_ON_RANK_FAILURE=continue;
 * the spirit of MPI_ERRORS_RETURN with ULFM's MPI_ERR_PROC_FAILED). Sends to the dead rank,
 * receives from it, and such operations still pending when it died complete with this
 * exception; everything else goes on. In the default mode a dead rank aborts the whole job
 * instead, and calls fail with a plain {@link TesseraException} of {@link ErrorClass#PROC_FAILED}.
 */
public class RankFailedException extends TesseraException {

    private final int failedRank;

    /** {@code failedRank}: the job (world) rank whose process is gone. */
    public RankFailedException(int failedRank, String message, Throwable cause) {
        super(ErrorClass.PROC_FAILED, message, cause);
        this.failedRank = failedRank;
    }

    /** The job (world) rank whose process is gone. */
    public int failedRank() {
        return failedRank;
    }
}
