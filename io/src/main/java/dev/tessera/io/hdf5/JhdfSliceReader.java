package dev.tessera.io.hdf5;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import java.lang.reflect.Array;
import java.nio.file.Path;

/**
 * Reads a box of a dataset through jHDF, for files {@link Hdf5Reader} does not handle
 * (dense groups, other layouts, filters or types jHDF knows). jHDF's slicing reads only the
 * box; its nested Java arrays are flattened row-major here.
 */
final class JhdfSliceReader {

    private JhdfSliceReader() {
    }

    static Object read(Path file, String datasetPath, long[] offset, long[] count, String who) {
        try (HdfFile hdf = new HdfFile(file)) {
            Dataset d = dataset(hdf, file, datasetPath, who);
            int[] dims = new int[count.length];
            for (int i = 0; i < dims.length; i++) {
                dims[i] = Math.toIntExact(count[i]);
            }
            Object nested = d.getData(offset, dims);
            Class<?> component = nested.getClass();
            while (component.isArray()) {
                component = component.getComponentType();
            }
            long volume = new Hyperslab(offset, count).volume();
            Object flat = Array.newInstance(component, Math.toIntExact(volume));
            flatten(nested, flat, new int[] {0});
            return flat;
        }
    }

    static long[] shape(Path file, String datasetPath) {
        try (HdfFile hdf = new HdfFile(file)) {
            return dataset(hdf, file, datasetPath, "").getDimensionsAsLong();
        }
    }

    private static Dataset dataset(HdfFile hdf, Path file, String datasetPath, String who) {
        Node n;
        try {
            n = hdf.getByPath(datasetPath);
        } catch (RuntimeException e) {
            throw new Hdf5FormatException(file + ": no dataset " + datasetPath + who + " (" + e.getMessage() + ")");
        }
        if (!(n instanceof Dataset d)) {
            throw new Hdf5FormatException(file + ": " + datasetPath + " is not a dataset" + who);
        }
        return d;
    }

    private static void flatten(Object nested, Object flat, int[] at) {
        if (nested.getClass().getComponentType().isArray()) {
            for (int i = 0, n = Array.getLength(nested); i < n; i++) {
                flatten(Array.get(nested, i), flat, at);
            }
        } else {
            int n = Array.getLength(nested);
            System.arraycopy(nested, 0, flat, at[0], n);
            at[0] += n;
        }
    }
}
