package dev.tessera.gpu.cuda;

import dev.tessera.gpu.AcceleratorException;
import dev.tessera.gpu.Backend;
import jcuda.driver.CUresult;

/** Turns CUDA driver results into exceptions naming the call and the error. */
final class CudaCheck {

    private CudaCheck() {
    }

    static void check(int result, String call) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw failure(result, call);
        }
    }

    static AcceleratorException failure(int result, String call) {
        return new AcceleratorException(Backend.CUDA, call, CUresult.stringFor(result), result, null);
    }
}
