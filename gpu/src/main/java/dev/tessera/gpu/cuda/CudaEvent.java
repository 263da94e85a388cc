package dev.tessera.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventQuery;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;

import dev.tessera.gpu.Event;
import java.lang.ref.Cleaner;
import jcuda.driver.CUcontext;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;

/**
 * A CUDA event recorded on a stream right after a command (timing disabled: the cheap
 * kind). Destroyed by a cleaner once unreachable. Errors of asynchronous commands (an
 * illegal address in a kernel) surface here, naming the command.
 */
final class CudaEvent extends Event {

    private static final Cleaner CLEANER = Cleaner.create();

    final CUevent event;
    private final String call;
    private volatile boolean complete;

    private CudaEvent(CUevent event, String call) {
        this.event = event;
        this.call = call;
    }

    /** Records a new event on {@code stream} (the context is current on this thread). */
    static CudaEvent record(CUcontext context, CUstream stream, String call) {
        CUevent e = new CUevent();
        CudaCheck.check(cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate");
        CudaCheck.check(cuEventRecord(e, stream), "cuEventRecord after " + call);
        CudaEvent ev = new CudaEvent(e, call);
        CLEANER.register(ev, () -> {
            cuCtxSetCurrent(context);
            cuEventDestroy(e);
        });
        return ev;
    }

    @Override
    public void await() {
        if (!complete) {
            CudaCheck.check(cuEventSynchronize(event), "cuEventSynchronize after " + call);
            complete = true;
        }
    }

    @Override
    public boolean isComplete() {
        if (!complete) {
            int r = cuEventQuery(event);
            if (r == CUresult.CUDA_ERROR_NOT_READY) {
                return false;
            }
            CudaCheck.check(r, "cuEventQuery after " + call);
            complete = true;
        }
        return true;
    }
}
