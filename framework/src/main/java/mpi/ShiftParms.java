package mpi;

/** The result of {@link Cartcomm#Shift}: the rank to receive from and the rank to send to. */
public class ShiftParms {

    /** Rank this process receives from ({@link MPI#PROC_NULL} at a non-periodic edge). */
    public int rank_source;
    /** Rank this process sends to ({@link MPI#PROC_NULL} at a non-periodic edge). */
    public int rank_dest;

    ShiftParms(int rankSource, int rankDest) {
        this.rank_source = rankSource;
        this.rank_dest = rankDest;
    }
}
