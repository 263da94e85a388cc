package dev.tessera.io.pfile;

/** How {@link ParallelFile#open} opens a file (MPI_MODE_RDONLY, _WRONLY, _RDWR, _CREATE, _EXCL, _DELETE_ON_CLOSE). */
public enum OpenMode {
    /** Reads are allowed. */
    READ,
    /** Writes are allowed. */
    WRITE,
    /** Create the file if it does not exist (needs WRITE). */
    CREATE,
    /** With CREATE: fail if the file already exists. */
    EXCLUSIVE,
    /** Delete the file when it is closed (rank 0 deletes it after every rank has closed it). */
    DELETE_ON_CLOSE
}
