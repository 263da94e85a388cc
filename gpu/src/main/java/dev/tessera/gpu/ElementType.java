package dev.tessera.gpu;

/** Element types of device buffers, with their size and their name in kernel source. */
public enum ElementType {
    BYTE(1, "char"),
    INT(4, "int"),
    LONG(8, "long"),
    FLOAT(4, "float"),
    DOUBLE(8, "double");

    private final int byteSize;
    private final String kernelName;

    ElementType(int byteSize, String kernelName) {
        this.byteSize = byteSize;
        this.kernelName = kernelName;
    }

    public int byteSize() {
        return byteSize;
    }

    /** The type's name in the kernel dialect (OpenCL C and CUDA C++ agree on these on 64-bit Linux). */
    public String kernelName() {
        return kernelName;
    }

    /** The element type of a primitive array ({@code double[]} gives DOUBLE), or an error for other objects. */
    static ElementType ofArray(Object array) {
        return switch (array) {
            case double[] a -> DOUBLE;
            case float[] a -> FLOAT;
            case long[] a -> LONG;
            case int[] a -> INT;
            case byte[] a -> BYTE;
            default -> throw new IllegalArgumentException("not an array of a device element type: " + array.getClass().getSimpleName());
        };
    }
}
