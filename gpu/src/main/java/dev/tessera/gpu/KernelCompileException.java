package dev.tessera.gpu;

/**
 * A kernel source that did not compile. The message ends with the compiler's log (OpenCL's
 * build log, NVRTC's program log) with line numbers relative to the user's source, after
 * the prelude; {@link #log()} gives the log alone.
 */
public final class KernelCompileException extends AcceleratorException {

    private final String log;

    public KernelCompileException(Backend backend, String call, String nativeError, int nativeCode, String sourceName,
                                  String log) {
        super(backend, call, nativeError, nativeCode, "compiling " + sourceName + "; compiler log:\n" + log.strip());
        this.log = log;
    }

    public String log() {
        return log;
    }
}
