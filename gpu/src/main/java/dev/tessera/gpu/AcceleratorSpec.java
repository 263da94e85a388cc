package dev.tessera.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which accelerator a rank asks for: {@code cuda}, {@code opencl} or {@code cpu}, with an
 * optional device index ({@code opencl:1}), or automatic ({@code auto}, the default:
 * CUDA, else OpenCL, else CPU; device by node-local rank). Given as {@code --accel SPEC}
 * (or {@code --accel=SPEC}) among the program's arguments, else {@code TESSERA_ACCEL}.
 *
 * @param backend null for automatic
 * @param index null to choose by node-local rank
 */
public record AcceleratorSpec(Backend backend, Integer index) {

    public static final AcceleratorSpec AUTO = new AcceleratorSpec(null, null);

    public AcceleratorSpec {
        if (index != null && index < 0) {
            throw new IllegalArgumentException("accelerator device index must be >= 0, got " + index);
        }
        if (backend == null && index != null) {
            throw new IllegalArgumentException("a device index needs a backend (cuda:N, opencl:N, cpu:0)");
        }
    }

    /** Parses {@code auto}, {@code cuda}, {@code opencl:1}, ...; an error naming the text otherwise. */
    public static AcceleratorSpec parse(String text) {
        String t = text.trim();
        if (t.isEmpty() || t.equalsIgnoreCase("auto")) {
            return AUTO;
        }
        int colon = t.indexOf(':');
        try {
            Backend b = Backend.fromId(colon < 0 ? t : t.substring(0, colon));
            Integer index = colon < 0 ? null : Integer.valueOf(t.substring(colon + 1).trim());
            return new AcceleratorSpec(b, index);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--accel " + text + ": expected auto, cuda, opencl or cpu, optionally "
                    + "with :INDEX (" + e.getMessage() + ")");
        }
    }

    /** The spec given by {@code --accel} in {@code args}, else by TESSERA_ACCEL in {@code env}, else automatic. */
    public static AcceleratorSpec fromArgs(List<String> args, Map<String, String> env) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--accel")) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException("--accel needs a value: auto, cuda, opencl or cpu[:INDEX]");
                }
                return parse(args.get(i + 1));
            }
            if (a.startsWith("--accel=")) {
                return parse(a.substring("--accel=".length()));
            }
        }
        String e = env.get("TESSERA_ACCEL");
        return e == null ? AUTO : parse(e);
    }

    /** {@code args} without the {@code --accel} option (for a program's own argument parsing). */
    public static List<String> withoutAccelOption(List<String> args) {
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--accel")) {
                i++;
            } else if (!a.startsWith("--accel=")) {
                rest.add(a);
            }
        }
        return rest;
    }

    @Override
    public String toString() {
        return backend == null ? "auto" : backend.id() + (index == null ? "" : ":" + index);
    }
}
