package dev.tessera.io.direct;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * Shared pieces of the O_DIRECT paths (HDF5 writer and reader, ParallelFile's two-phase
 * collective I/O): the page size they align to, the on/off switch read from a system
 * property, opening a second channel with O_DIRECT where the file system takes it, and
 * page-aligned native buffers.
 */
public final class DirectIo {

    /** Alignment of file offsets, lengths and memory addresses of direct transfers. */
    public static final int PAGE = 4096;

    private DirectIo() {
    }

    /** {@code property}: true (default) or false; any other value is named in the error. */
    public static boolean enabled(String property) {
        String v = System.getProperty(property, "true").strip();
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("-D" + property + "=" + v + ": expected true or false");
    }

    /**
     * {@code path} opened again with O_DIRECT and {@code modes}, or null where {@code property}
     * is false or the file system refuses it or has a block size not dividing {@link #PAGE}
     * (tmpfs, for one): the caller then stays on the page cache.
     */
    public static FileChannel open(Path path, String property, OpenOption... modes) {
        if (!enabled(property)) {
            return null;
        }
        try {
            long block = Files.getFileStore(path).getBlockSize();
            if (block > 0 && block <= PAGE && PAGE % block == 0) {
                OpenOption[] options = java.util.Arrays.copyOf(modes, modes.length + 1);
                options[modes.length] = com.sun.nio.file.ExtendedOpenOption.DIRECT;
                return FileChannel.open(path, options);
            }
        } catch (IOException | UnsupportedOperationException e) {
            // no direct I/O here: the page cache it is
        }
        return null;
    }

    /** A direct buffer of {@code bytes} whose address is a multiple of {@link #PAGE}. */
    public static ByteBuffer pageAlignedBuffer(int bytes) {
        int pages = Math.toIntExact(((long) bytes + PAGE - 1) / PAGE * PAGE);
        // alignedSlice keeps the whole pages inside the allocation: one page more than needed
        return ByteBuffer.allocateDirect(pages + PAGE).alignedSlice(PAGE).limit(bytes).slice();
    }
}
