package dev.tessera.device.shm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.util.Locale;

/**
 * The on/off settings of the shm device's copy paths, each a system property and an environment
 * variable (the property wins; a blank variable counts as unset). A value that is not one of
 * {@code on, off, true, false, yes, no, 1, 0} (any case) is refused with the setting and the value
 * named, rather than read as off: {@code -Dtessera.shm.singleCopy=yse} must not quietly change
 * the path a message takes.
 */
final class ShmSwitch {

    private ShmSwitch() {
    }

    /** The setting of {@code property}, else of {@code variable}, else {@code otherwise}. */
    static boolean read(String property, String variable, boolean otherwise) {
        String value = System.getProperty(property);
        if (value != null) {
            return parse(property, value);
        }
        value = System.getenv(variable);
        if (value != null && !value.isBlank()) {
            return parse(variable, value);
        }
        return otherwise;
    }

    /** {@code value} of {@code setting} as a switch; a {@link TesseraException} (ARG) naming both when it is none. */
    static boolean parse(String setting, String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1" -> true;
            case "off", "false", "no", "0" -> false;
            default -> throw new TesseraException(ErrorClass.ARG, setting + ": unknown value '" + value
                    + "' (valid: on, off, true, false, yes, no, 1, 0)");
        };
    }

    /**
     * How the sender copies pieces of 16 KiB or more into ring cells ({@code tessera.shm.cellCopy},
     * then TESSERA_SHM_CELL_COPY): {@code auto} (0: memcpy or non-temporal stores, whichever the
     * thread's recent pieces found cheaper, {@link CellCopy}), {@code memcpy} (1, the default) or
     * {@code stream} (2). Another value is refused with the setting named. {@code auto} is not the
     * default: in the report of stop 71 it took the 2-rank bcast of 64 KiB from 7.8 to 28 us.
     */
    static int cellCopy() {
        String setting = "tessera.shm.cellCopy";
        String value = System.getProperty(setting);
        if (value == null) {
            setting = "TESSERA_SHM_CELL_COPY";
            value = System.getenv(setting);
        }
        if (value == null || value.isBlank()) {
            return 1;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "auto" -> 0;
            case "memcpy" -> 1;
            case "stream" -> 2;
            default -> throw new TesseraException(ErrorClass.ARG, setting + ": unknown value '" + value
                    + "' (valid: auto, memcpy, stream)");
        };
    }

    /**
     * Reads every copy-path switch of this process ({@link SingleCopy#requested}, {@link HeapCopy#requested},
     * {@link #cellCopy})
     * and refuses a bad one for {@code rank} before the device maps its file, so the error comes at once
     * and names the rank instead of turning a path off.
     */
    static void check(int rank) {
        try {
            SingleCopy.requested();
            HeapCopy.requested();
            cellCopy();
        } catch (TesseraException e) {
            throw new TesseraException(ErrorClass.ARG, "rank " + rank + ": shm device: " + e.getMessage());
        }
    }
}
