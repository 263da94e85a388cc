package dev.tessera.gpu;

/**
 * A compiled kernel of a {@link Program}, launched with {@link Queue#launch}. Arguments are
 * {@link DeviceBuffer}s of the same accelerator and boxed {@code Integer} (C {@code int}),
 * {@code Long} (C {@code long}, 64 bits), {@code Float} and {@code Double} values, in the
 * order of the kernel's parameters.
 */
public abstract class Kernel {

    private final Program program;
    private final String name;

    protected Kernel(Program program, String name) {
        this.program = program;
        this.name = name;
    }

    public String name() {
        return name;
    }

    public Program program() {
        return program;
    }

    @Override
    public String toString() {
        return "kernel " + name + " of " + program.sourceName();
    }
}
