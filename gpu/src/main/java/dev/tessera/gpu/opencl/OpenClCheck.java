package dev.tessera.gpu.opencl;

import dev.tessera.gpu.AcceleratorException;
import dev.tessera.gpu.Backend;
import org.jocl.CL;

/** Turns OpenCL status codes into exceptions naming the call and the error. */
final class OpenClCheck {

    private OpenClCheck() {
    }

    static void check(int status, String call) {
        if (status != CL.CL_SUCCESS) {
            throw failure(status, call, null);
        }
    }

    static void check(int[] status, String call) {
        check(status[0], call);
    }

    static AcceleratorException failure(int status, String call, String detail) {
        return new AcceleratorException(Backend.OPENCL, call, CL.stringFor_errorCode(status), status, detail);
    }
}
