package dev.tessera.io.hdf5;

import java.util.Locale;
import java.util.Optional;

/**
 * Which implementation {@link Hdf5Writer#create(java.nio.file.Path)} and
 * {@link Hdf5Reader#open(java.nio.file.Path)} use for one-process files.
 *
 * <ul>
 * <li>{@link #TESSERA} (default): the pure-Java writer and reader of this package. Nothing to
 *     install; streams datasets in parts; the only one the distributed writes use.</li>
 * <li>{@link #NATIVE}: libhdf5 1.14.3 as bundled by JavaCPP ({@code org.bytedeco:hdf5}, a
 *     Maven dependency of this module with the native library of one platform, Linux x86-64
 *     by default). Same API, same files; every HDF5 feature libhdf5 reads. Serial: calls are
 *     serialized on one lock per JVM (the bundled library is not built thread-safe), and it
 *     has no MPI-IO, so {@link ParallelHdf5File} and {@link PerRankFiles} always use ours.</li>
 * </ul>
 *
 * <p>Chosen per call ({@code Hdf5Writer.create(path, Hdf5Backend.NATIVE)}) or for the whole
 * process with the system property {@value #PROPERTY} (or the environment variable
 * {@value #ENVIRONMENT}): {@code tessera} or {@code native}.
 */
public enum Hdf5Backend {
    /** Tessera's own pure-Java writer and reader. */
    TESSERA,
    /** libhdf5 bundled by {@code org.bytedeco:hdf5}. */
    NATIVE;

    /** System property that selects the default backend: {@code tessera} or {@code native}. */
    public static final String PROPERTY = "tessera.io.hdf5.backend";
    /** Environment variable read when the property is not set. */
    public static final String ENVIRONMENT = "TESSERA_HDF5_BACKEND";

    /** The backend selected by {@value #PROPERTY} or {@value #ENVIRONMENT}; {@link #TESSERA} when neither is set. */
    public static Hdf5Backend selected() {
        String value = System.getProperty(PROPERTY);
        String source = "system property " + PROPERTY;
        if (value == null || value.isBlank()) {
            value = System.getenv(ENVIRONMENT);
            source = "environment variable " + ENVIRONMENT;
        }
        if (value == null || value.isBlank()) {
            return TESSERA;
        }
        return parse(value, source);
    }

    /** {@code tessera} or {@code native} (any case); anything else is an error naming {@code source}. */
    public static Hdf5Backend parse(String value, String source) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "tessera" -> TESSERA;
            case "native", "libhdf5", "bytedeco" -> NATIVE;
            default -> throw new IllegalArgumentException(source + " is '" + value
                    + "': expected 'tessera' (the pure-Java default) or 'native' (libhdf5 bundled by org.bytedeco:hdf5)");
        };
    }

    /** Why this backend cannot be used in this JVM (the native library did not load), or empty. */
    public Optional<String> unavailableReason() {
        return this == NATIVE ? Optional.ofNullable(NativeHdf5.unavailableReason()) : Optional.empty();
    }

    /** True if this backend can be used in this JVM. */
    public boolean isAvailable() {
        return unavailableReason().isEmpty();
    }
}
