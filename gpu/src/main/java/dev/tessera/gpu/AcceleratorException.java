package dev.tessera.gpu;

/**
 * A failed accelerator operation. For a native failure the message names the backend,
 * the native call and the native error by name and code, as in
 * {@code opencl clEnqueueWriteBuffer: CL_INVALID_VALUE (-30)}; {@link #call()} and
 * {@link #nativeError()} give them separately.
 */
public class AcceleratorException extends RuntimeException {

    private final Backend backend;
    private final String call;
    private final String nativeError;
    private final int nativeCode;

    public AcceleratorException(Backend backend, String call, String nativeError, int nativeCode, String detail) {
        super(backend.id() + " " + call + ": " + nativeError + " (" + nativeCode + ")" + (detail == null ? "" : " " + detail));
        this.backend = backend;
        this.call = call;
        this.nativeError = nativeError;
        this.nativeCode = nativeCode;
    }

    /** A failure that is not one native call's (a closed object, a wrong argument found before the call). */
    public AcceleratorException(Backend backend, String message) {
        super(backend.id() + ": " + message);
        this.backend = backend;
        this.call = null;
        this.nativeError = null;
        this.nativeCode = 0;
    }

    public Backend backend() {
        return backend;
    }

    /** The native call that failed, or null. */
    public String call() {
        return call;
    }

    /** The native error's name ({@code CL_OUT_OF_RESOURCES}, {@code CUDA_ERROR_OUT_OF_MEMORY}), or null. */
    public String nativeError() {
        return nativeError;
    }

    public int nativeCode() {
        return nativeCode;
    }
}
