package dev.tessera.gpu.cpu;

import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.ElementType;
import java.lang.foreign.MemorySegment;

/** A CPU-backend buffer: a Java array of the element type, which the Java kernel bodies index directly. */
public final class CpuBuffer extends DeviceBuffer {

    private final Object array;
    private final MemorySegment segment;

    CpuBuffer(Accelerator owner, ElementType type, long count) {
        super(owner, type, count);
        int n = Math.toIntExact(count);
        this.array = switch (type) {
            case DOUBLE -> new double[n];
            case FLOAT -> new float[n];
            case LONG -> new long[n];
            case INT -> new int[n];
            case BYTE -> new byte[n];
        };
        this.segment = switch (array) {
            case double[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case byte[] a -> MemorySegment.ofArray(a);
            default -> throw new AssertionError();
        };
    }

    /** The backing array ({@code double[]} for DOUBLE, ...): for CPU kernel bodies only. */
    public Object array() {
        return array;
    }

    MemorySegment segment() {
        return segment;
    }

    @Override
    protected void release() {
        // Garbage collected.
    }
}
