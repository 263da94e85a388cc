package dev.tessera.gpu.opencl;

import static org.jocl.CL.CL_COMPLETE;
import static org.jocl.CL.CL_EVENT_COMMAND_EXECUTION_STATUS;
import static org.jocl.CL.clGetEventInfo;
import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clWaitForEvents;

import dev.tessera.gpu.Event;
import java.lang.ref.Cleaner;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_event;

/** An OpenCL event; released by a cleaner once unreachable, since callers rarely keep them. */
final class OpenClEvent extends Event {

    private static final Cleaner CLEANER = Cleaner.create();

    final cl_event event;
    private final String call;
    private volatile boolean complete;

    OpenClEvent(cl_event event, String call) {
        this.event = event;
        this.call = call;
        CLEANER.register(this, () -> clReleaseEvent(event));
    }

    private int status() {
        int[] s = new int[1];
        OpenClCheck.check(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, Sizeof.cl_int, Pointer.to(s), null),
                "clGetEventInfo");
        return s[0];
    }

    @Override
    public void await() {
        if (complete) {
            return;
        }
        int r = clWaitForEvents(1, new cl_event[] {event});
        int s = status();
        if (s < 0) {
            throw OpenClCheck.failure(s, call, "(the command failed on the device)");
        }
        OpenClCheck.check(r, "clWaitForEvents after " + call);
        complete = true;
    }

    @Override
    public boolean isComplete() {
        if (!complete) {
            int s = status();
            complete = s == CL_COMPLETE || s < 0;
        }
        return complete;
    }
}
