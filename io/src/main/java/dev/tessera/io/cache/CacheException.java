package dev.tessera.io.cache;

/** A cached read failed in a way that falling back to the file system cannot mend (a missing file, a bad name). */
public class CacheException extends RuntimeException {

    public CacheException(String message) {
        super(message);
    }

    public CacheException(String message, Throwable cause) {
        super(message, cause);
    }
}
