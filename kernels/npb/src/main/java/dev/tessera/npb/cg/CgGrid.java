package dev.tessera.npb.cg;

/**
 * CG's 2D grid of processes and each process's block of the matrix, with the schedules of
 * its row reductions and transpose exchange (NPB3.4-MPI CG/cg.f: setup_proc_info and
 * setup_submatrix_info). All indices here are the reference's 1-based ones; callers
 * subtract one where they index Java arrays.
 *
 * <p>np = 2^k processes form nprows x npcols = 2^floor(k/2) x 2^ceil(k/2) (npcols =
 * 2 nprows when k is odd); process me sits at row me / npcols, column me mod npcols and owns
 * matrix rows firstrow..lastrow and columns firstcol..lastcol. A matrix-vector product
 * leaves each process with partial sums for its rows; the l2npcols = log2(npcols)
 * recursive-halving exchanges with reduceExchProc[i] sum them across the process row, and
 * the exchange with exchProc (the transpose partner) turns the row-distributed result into
 * the column distribution the next product needs. Scalar reductions reuse the same
 * partners (a butterfly allreduce within the process row; the column blocks of a row
 * together cover all of the vector).
 */
final class CgGrid {

    final int me;
    final int nprocs;
    final int nprows;
    final int npcols;
    final int procRow;
    final int procCol;
    final int firstrow;
    final int lastrow;
    final int firstcol;
    final int lastcol;
    final int sendStart;
    final int sendLen;
    final int exchProc;
    final int exchRecvLength;
    final int l2npcols;
    final int[] reduceExchProc;
    final int[] reduceSendStarts;
    final int[] reduceSendLengths;
    final int[] reduceRecvStarts;
    final int[] reduceRecvLengths;

    /** Whether {@code nprocs} is a number of processes CG accepts: a power of two (cg.f: setup_proc_info). */
    static boolean allowed(int nprocs) {
        return nprocs >= 1 && Integer.bitCount(nprocs) == 1;
    }

    /** Process rows of the grid for {@code nprocs} processes: 2^floor(log2(np) / 2). */
    static int rowsFor(int nprocs) {
        int logP = Integer.numberOfTrailingZeros(nprocs);
        return 1 << (logP / 2);
    }

    /** Process columns of the grid: 2^ceil(log2(np) / 2). */
    static int colsFor(int nprocs) {
        int logP = Integer.numberOfTrailingZeros(nprocs);
        return 1 << (logP - logP / 2);
    }

    CgGrid(int me, int nprocs, int na) {
        if (!allowed(nprocs)) {
            throw new IllegalArgumentException("CG: np must be a power of two, got " + nprocs);
        }
        this.me = me;
        this.nprocs = nprocs;
        this.nprows = rowsFor(nprocs);
        this.npcols = colsFor(nprocs);
        this.procRow = me / npcols;
        this.procCol = me - procRow * npcols;

        int fr;
        int lr;
        int fc;
        int lc;
        if (na / npcols * npcols == na) {
            int colSize = na / npcols;
            fc = procCol * colSize + 1;
            lc = fc - 1 + colSize;
            int rowSize = na / nprows;
            fr = procRow * rowSize + 1;
            lr = fr - 1 + rowSize;
        } else {
            int extraRows = na - na / nprows * nprows;
            if (procRow < extraRows) {
                int rowSize = na / nprows + 1;
                fr = procRow * rowSize + 1;
            } else {
                int rowSize = na / nprows;
                fr = extraRows * (rowSize + 1) + (procRow - extraRows) * rowSize + 1;
            }
            lr = fr - 1 + (procRow < extraRows ? na / nprows + 1 : na / nprows);
            if (npcols == nprows) {
                int extraCols = na - na / npcols * npcols;
                int colSize;
                if (procCol < extraCols) {
                    colSize = na / npcols + 1;
                    fc = procCol * colSize + 1;
                } else {
                    colSize = na / npcols;
                    fc = extraCols * (colSize + 1) + (procCol - extraCols) * colSize + 1;
                }
                lc = fc - 1 + colSize;
            } else {
                int half = npcols / 2;
                int extraCols = na - na / half * half;
                int colSize;
                if (procCol / 2 < extraCols) {
                    colSize = na / half + 1;
                    fc = (procCol / 2) * colSize + 1;
                } else {
                    colSize = na / half;
                    fc = extraCols * (colSize + 1) + (procCol / 2 - extraCols) * colSize + 1;
                }
                lc = fc - 1 + colSize;
                if (me % 2 == 0) {
                    lc = fc - 1 + (colSize - 1) / 2 + 1;
                } else {
                    fc = fc + (colSize - 1) / 2 + 1;
                    lc = fc - 1 + colSize / 2;
                }
            }
        }
        this.firstrow = fr;
        this.lastrow = lr;
        this.firstcol = fc;
        this.lastcol = lc;

        int rows = lastrow - firstrow + 1;
        if (npcols == nprows) {
            sendStart = 1;
            sendLen = rows;
        } else if (me % 2 == 0) {
            sendStart = 1;
            sendLen = (1 + rows) / 2;
        } else {
            sendStart = (1 + rows) / 2 + 1;
            sendLen = rows / 2;
        }

        // Transpose partner.
        if (npcols == nprows) {
            exchProc = (me % nprows) * nprows + me / nprows;
        } else {
            exchProc = 2 * (((me / 2) % nprows) * nprows + me / 2 / nprows) + me % 2;
        }

        int l2 = 0;
        for (int i = npcols / 2; i > 0; i /= 2) {
            l2++;
        }
        this.l2npcols = l2;
        reduceExchProc = new int[l2];
        reduceSendStarts = new int[l2];
        reduceSendLengths = new int[l2];
        reduceRecvStarts = new int[l2];
        reduceRecvLengths = new int[l2];
        int divFactor = npcols;
        for (int i = 0; i < l2; i++) {
            int j = (procCol + divFactor / 2) % divFactor + procCol / divFactor * divFactor;
            reduceExchProc[i] = procRow * npcols + j;
            divFactor /= 2;
        }
        for (int i = l2 - 1; i >= 0; i--) {
            if (nprows == npcols) {
                reduceSendStarts[i] = sendStart;
                reduceSendLengths[i] = sendLen;
                reduceRecvLengths[i] = rows;
            } else {
                reduceRecvLengths[i] = sendLen;
                if (i == l2 - 1) {
                    reduceSendLengths[i] = rows - sendLen;
                    reduceSendStarts[i] = me / 2 * 2 == me ? sendStart + sendLen : 1;
                } else {
                    reduceSendLengths[i] = sendLen;
                    reduceSendStarts[i] = sendStart;
                }
            }
            reduceRecvStarts[i] = sendStart;
        }
        exchRecvLength = lastcol - firstcol + 1;
    }

    int rows() {
        return lastrow - firstrow + 1;
    }

    int cols() {
        return lastcol - firstcol + 1;
    }
}
