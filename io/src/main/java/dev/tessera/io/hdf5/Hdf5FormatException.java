package dev.tessera.io.hdf5;

/**
 * A file that is not HDF5, is damaged, lacks the object asked for, or uses a feature the
 * reader does not implement ({@link #unsupported()}: another reader, jHDF, may read it).
 * The message names the file and the object.
 */
public class Hdf5FormatException extends RuntimeException {

    private final boolean unsupported;

    public Hdf5FormatException(String message) {
        this(message, false);
    }

    Hdf5FormatException(String message, boolean unsupported) {
        super(message);
        this.unsupported = unsupported;
    }

    /** True when the file may be valid HDF5 that this reader does not implement. */
    public boolean unsupported() {
        return unsupported;
    }
}
