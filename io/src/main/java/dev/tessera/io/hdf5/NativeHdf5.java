package dev.tessera.io.hdf5;

import static org.bytedeco.hdf5.global.hdf5.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.hdf5.H5E_error2_t;
import org.bytedeco.hdf5.H5E_walk2_t;
import org.bytedeco.hdf5.H5G_info_t;
import org.bytedeco.hdf5.H5O_info2_t;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

/**
 * The {@link Hdf5Backend#NATIVE} backend: libhdf5's C API as bundled by JavaCPP
 * ({@code org.bytedeco:hdf5}). Every call into the library holds {@link #LOCK} (the bundled
 * build is not thread-safe). libhdf5's automatic error printing is turned off; a failed call
 * throws with the innermost messages of libhdf5's error stack, the file and the object.
 *
 * <p>Data move between Java arrays and the library through native memory (one copy of the
 * part being written or read), so a part is limited by what one Java array holds, as in the
 * pure-Java backend.
 */
final class NativeHdf5 {

    static final Object LOCK = new Object();
    private static final String UNAVAILABLE = load();

    private NativeHdf5() {
    }

    private static String load() {
        try {
            synchronized (LOCK) {
                if (H5open() < 0) {
                    return "libhdf5's H5open failed";
                }
                H5Eset_auto2(H5E_DEFAULT, null, null);
                if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) {
                    return "the bundled libhdf5 has no deflate filter";
                }
            }
            return null;
        } catch (LinkageError | RuntimeException e) {
            String platform = System.getProperty("os.name") + " " + System.getProperty("os.arch");
            return "the bundled libhdf5 (org.bytedeco:hdf5) did not load on " + platform + ": " + e
                    + "; the io module ships the native library for linux-x86_64 (Maven property javacpp.platform)";
        }
    }

    /** Null when the library loaded, else why not. */
    static String unavailableReason() {
        return UNAVAILABLE;
    }

    static void requireAvailable(Path path, String call) {
        if (UNAVAILABLE != null) {
            throw new UnsupportedOperationException(path + " " + call + ": the native HDF5 backend is unavailable: " + UNAVAILABLE);
        }
    }

    /** The innermost messages of libhdf5's error stack (then cleared), for an exception message. */
    private static String errorStack() {
        List<String> lines = new ArrayList<>();
        H5E_walk2_t walker = new H5E_walk2_t() {
            @Override
            public int call(int n, H5E_error2_t error, Pointer data) {
                String desc = error.desc() == null ? "" : error.desc().getString();
                String func = error.func_name() == null ? "" : error.func_name().getString();
                lines.add(func + ": " + desc);
                return 0;
            }
        };
        H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walker, null);
        H5Eclear2(H5E_DEFAULT);
        walker.close();
        if (lines.isEmpty()) {
            return "libhdf5 reported an error";
        }
        // The last entries are the deepest: the actual cause (errno, signature not found).
        return "libhdf5: " + String.join("; ", lines.subList(Math.max(0, lines.size() - 2), lines.size()));
    }

    private static long check(long result, String what) {
        if (result < 0) {
            throw new NativeFailure(what + ": " + errorStack());
        }
        return result;
    }

    /** A failed libhdf5 call; converted by the callers into the exception type of their API. */
    static final class NativeFailure extends RuntimeException {
        NativeFailure(String message) {
            super(message);
        }
    }

    // ------------------------------------------------------------------------------- types

    private static long fileType(Hdf5Type t) {
        return switch (t) {
            case DOUBLE -> H5T_IEEE_F64LE_g();
            case FLOAT -> H5T_IEEE_F32LE_g();
            case LONG -> H5T_STD_I64LE_g();
            case INT -> H5T_STD_I32LE_g();
            case SHORT -> H5T_STD_I16LE_g();
            case BYTE -> H5T_STD_I8LE_g();
        };
    }

    private static long memoryType(Hdf5Type t) {
        return switch (t) {
            case DOUBLE -> H5T_NATIVE_DOUBLE_g();
            case FLOAT -> H5T_NATIVE_FLOAT_g();
            case LONG -> H5T_NATIVE_INT64_g();
            case INT -> H5T_NATIVE_INT32_g();
            case SHORT -> H5T_NATIVE_INT16_g();
            case BYTE -> H5T_NATIVE_INT8_g();
        };
    }

    /** The Hdf5Type of a stored numeric datatype, or null (strings, compounds, ...). */
    private static Hdf5Type typeOf(long typeId) {
        int cls = H5Tget_class(typeId);
        long size = H5Tget_size(typeId);
        if (cls == H5T_FLOAT) {
            return size == 8 ? Hdf5Type.DOUBLE : size == 4 ? Hdf5Type.FLOAT : null;
        }
        if (cls == H5T_INTEGER) {
            return switch ((int) size) {
                case 8 -> Hdf5Type.LONG;
                case 4 -> Hdf5Type.INT;
                case 2 -> Hdf5Type.SHORT;
                case 1 -> Hdf5Type.BYTE;
                default -> null;
            };
        }
        return null;
    }

    /** A JavaCPP pointer onto native memory owned by an {@link Arena} (no copy, no size limit of a ByteBuffer). */
    private static final class Raw extends Pointer {
        Raw(MemorySegment segment) {
            this.address = segment.address();
            this.limit = segment.byteSize();
            this.capacity = segment.byteSize();
        }
    }

    private static long dataspace(long[] dims) {
        if (dims.length == 0) {
            return check(H5Screate(H5S_SCALAR), "H5Screate");
        }
        return check(H5Screate_simple(dims.length, dims.clone(), null), "H5Screate_simple " + Arrays.toString(dims));
    }

    // ------------------------------------------------------------------------------- writing

    /** A file being written through libhdf5. */
    static final class Writer {
        private final Path path;
        private long file;

        Writer(Path path) {
            requireAvailable(path, "create");
            this.path = path;
            synchronized (LOCK) {
                long fapl = check(H5Pcreate(H5P_CLS_FILE_ACCESS_ID_g()), "H5Pcreate");
                try {
                    // Format versions of libhdf5 1.8 (what the pure-Java backend writes; ParaView's readers are older).
                    check(H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18), "H5Pset_libver_bounds");
                    this.file = check(H5Fcreate(path.toString(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), "H5Fcreate");
                } catch (NativeFailure e) {
                    throw new UncheckedIOException(path + ": cannot create: " + e.getMessage(), new IOException(e.getMessage()));
                } finally {
                    H5Pclose(fapl);
                }
            }
        }

        Path path() {
            return path;
        }

        void createGroup(String groupPath) {
            synchronized (LOCK) {
                try {
                    H5Gclose(check(H5Gcreate2(file, groupPath, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "H5Gcreate2"));
                } catch (NativeFailure e) {
                    throw new UncheckedIOException(path + ": cannot create group " + groupPath + ": " + e.getMessage(),
                            new IOException(e.getMessage()));
                }
            }
        }

        /** Creates a dataset and returns its identifier (open until {@link #close}). */
        long createDataset(String datasetPath, Hdf5Type type, long[] shape, Hdf5Layout layout) {
            synchronized (LOCK) {
                long space = -1;
                long dcpl = -1;
                try {
                    space = dataspace(shape);
                    dcpl = check(H5Pcreate(H5P_CLS_DATASET_CREATE_ID_g()), "H5Pcreate");
                    if (layout.isChunked()) {
                        long[] chunk = new long[layout.chunk().length];
                        for (int d = 0; d < chunk.length; d++) {
                            chunk[d] = layout.chunk()[d];
                        }
                        check(H5Pset_chunk(dcpl, chunk.length, chunk), "H5Pset_chunk " + Arrays.toString(chunk));
                        if (layout.deflateLevel() > 0) {
                            check(H5Pset_deflate(dcpl, layout.deflateLevel()), "H5Pset_deflate");
                        }
                    }
                    long id = check(H5Dcreate2(file, datasetPath, fileType(type), space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                            "H5Dcreate2");
                    datasets.add(id);
                    return id;
                } catch (NativeFailure e) {
                    throw new UncheckedIOException(path + ": cannot create dataset " + datasetPath + ": " + e.getMessage(),
                            new IOException(e.getMessage()));
                } finally {
                    if (dcpl >= 0) {
                        H5Pclose(dcpl);
                    }
                    if (space >= 0) {
                        H5Sclose(space);
                    }
                }
            }
        }

        private final List<Long> datasets = new ArrayList<>();

        /** Writes the box {@code box} of dataset {@code id} (of {@code shape}) from the flat array {@code data}. */
        void write(long id, String datasetPath, Hdf5Type type, long[] shape, Hyperslab box, Object data) {
            if (box.volume() == 0) {
                return;
            }
            long bytes = box.volume() * type.size();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment staging = arena.allocate(bytes, 64);
                MemorySegment.copy(Hdf5Type.segmentOf(data), 0, staging, 0, bytes);
                synchronized (LOCK) {
                    long fileSpace = -1;
                    long memSpace = -1;
                    try (Raw buffer = new Raw(staging)) {
                        if (shape.length > 0) {
                            fileSpace = check(H5Dget_space(id), "H5Dget_space");
                            check(H5Sselect_hyperslab(fileSpace, H5S_SELECT_SET, box.offset().clone(), null, box.count().clone(), null),
                                    "H5Sselect_hyperslab");
                            memSpace = dataspace(box.count());
                        }
                        check(H5Dwrite(id, memoryType(type), shape.length > 0 ? memSpace : H5S_ALL,
                                shape.length > 0 ? fileSpace : H5S_ALL, H5P_DEFAULT, buffer), "H5Dwrite");
                    } catch (NativeFailure e) {
                        throw new UncheckedIOException(path + " write(" + datasetPath + ") of box " + box + ": " + e.getMessage(),
                                new IOException(e.getMessage()));
                    } finally {
                        if (memSpace >= 0) {
                            H5Sclose(memSpace);
                        }
                        if (fileSpace >= 0) {
                            H5Sclose(fileSpace);
                        }
                    }
                }
            }
        }

        /** Sets attribute {@code name} of the object at {@code objectPath}, replacing an earlier one. */
        void attribute(String objectPath, String name, Object value) {
            synchronized (LOCK) {
                long object = -1;
                long type = -1;
                long space = -1;
                try (Arena arena = Arena.ofConfined()) {
                    object = check(H5Oopen(file, objectPath, H5P_DEFAULT), "H5Oopen");
                    if (check(H5Aexists(object, name), "H5Aexists") > 0) {
                        check(H5Adelete(object, name), "H5Adelete");
                    }
                    MemorySegment raw;
                    long memType;
                    if (value instanceof String s) {
                        byte[] b = s.getBytes(StandardCharsets.UTF_8);
                        type = check(H5Tcopy(H5T_C_S1_g()), "H5Tcopy");
                        check(H5Tset_size(type, Math.max(1, b.length)), "H5Tset_size");
                        check(H5Tset_cset(type, H5T_CSET_UTF8), "H5Tset_cset");
                        check(H5Tset_strpad(type, H5T_STR_NULLPAD), "H5Tset_strpad");
                        space = dataspace(new long[0]);
                        raw = arena.allocate(Math.max(1, b.length));
                        MemorySegment.copy(MemorySegment.ofArray(b), 0, raw, 0, b.length);
                        memType = type;
                        long attr = check(H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT), "H5Acreate2");
                        try (Raw buffer = new Raw(raw)) {
                            check(H5Awrite(attr, memType, buffer), "H5Awrite");
                        } finally {
                            H5Aclose(attr);
                        }
                        return;
                    }
                    Object array = switch (value) {
                        case Double d -> new double[] {d};
                        case Float f -> new float[] {f};
                        case Long l -> new long[] {l};
                        case Integer i -> new int[] {i};
                        case Short s -> new short[] {s};
                        case Byte b -> new byte[] {b};
                        default -> value;
                    };
                    Hdf5Type t = Hdf5Type.ofArray(array);
                    int n = Hdf5Type.arrayLength(array);
                    space = dataspace(array == value ? new long[] {n} : new long[0]);
                    raw = arena.allocate(Math.max(1, (long) n * t.size()), 8);
                    MemorySegment.copy(Hdf5Type.segmentOf(array), 0, raw, 0, (long) n * t.size());
                    long attr = check(H5Acreate2(object, name, fileType(t), space, H5P_DEFAULT, H5P_DEFAULT), "H5Acreate2");
                    try (Raw buffer = new Raw(raw)) {
                        check(H5Awrite(attr, memoryType(t), buffer), "H5Awrite");
                    } finally {
                        H5Aclose(attr);
                    }
                } catch (NativeFailure e) {
                    throw new UncheckedIOException(path + ": cannot write attribute " + objectPath + "@" + name + ": "
                            + e.getMessage(), new IOException(e.getMessage()));
                } finally {
                    if (space >= 0) {
                        H5Sclose(space);
                    }
                    if (type >= 0) {
                        H5Tclose(type);
                    }
                    if (object >= 0) {
                        H5Oclose(object);
                    }
                }
            }
        }

        /** Flushes libhdf5's buffers to the file and the file to the storage device (fsync). */
        void force() {
            synchronized (LOCK) {
                try {
                    check(H5Fflush(file, H5F_SCOPE_LOCAL), "H5Fflush");
                } catch (NativeFailure e) {
                    throw new UncheckedIOException(path + ": flush failed: " + e.getMessage(), new IOException(e.getMessage()));
                }
            }
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
                ch.force(true); // fsync applies to the file, whichever descriptor asks
            } catch (IOException e) {
                throw new UncheckedIOException(path + ": fsync failed: " + e, e);
            }
        }

        void close() {
            synchronized (LOCK) {
                if (file < 0) {
                    return;
                }
                for (long id : datasets) {
                    H5Dclose(id);
                }
                datasets.clear();
                long f = file;
                file = -1;
                try {
                    check(H5Fclose(f), "H5Fclose");
                } catch (NativeFailure e) {
                    throw new UncheckedIOException(path + ": close failed: " + e.getMessage(), new IOException(e.getMessage()));
                }
            }
        }
    }

    // ------------------------------------------------------------------------------- reading

    /** A file read through libhdf5. */
    static final class Reader {
        private final Path path;
        private long file;
        private final Map<String, DatasetInfo> infos = new HashMap<>();

        Reader(Path path) {
            requireAvailable(path, "open");
            this.path = path;
            synchronized (LOCK) {
                if (!java.nio.file.Files.isRegularFile(path)) {
                    throw new UncheckedIOException(path + ": cannot open for reading: no such file",
                            new java.nio.file.NoSuchFileException(path.toString()));
                }
                long f = H5Fopen(path.toString(), H5F_ACC_RDONLY, H5P_DEFAULT);
                if (f < 0) {
                    throw new Hdf5FormatException(path + ": not an HDF5 file (" + errorStack() + ")");
                }
                this.file = f;
            }
        }

        /** Throws naming the file when {@code objectPath} is absent or not absolute. */
        private void requireObject(String objectPath) {
            if (objectPath == null || !objectPath.startsWith("/")) {
                throw new IllegalArgumentException(path + ": object paths are absolute ('/a/b'), got '" + objectPath + "'");
            }
            String current = "";
            for (String part : objectPath.split("/")) {
                if (part.isEmpty()) {
                    continue;
                }
                String next = current + "/" + part;
                if (H5Lexists(file, next, H5P_DEFAULT) <= 0) {
                    H5Eclear2(H5E_DEFAULT);
                    throw new Hdf5FormatException(path + ": no object " + next
                            + (next.equals(objectPath) ? "" : " (in " + objectPath + ")"));
                }
                current = next;
            }
        }

        List<String> list(String groupPath) {
            synchronized (LOCK) {
                requireObject(groupPath);
                long group = -1;
                try (H5G_info_t info = new H5G_info_t()) {
                    group = check(H5Gopen2(file, groupPath, H5P_DEFAULT), "H5Gopen2");
                    check(H5Gget_info(group, info), "H5Gget_info");
                    List<String> names = new ArrayList<>();
                    for (long i = 0; i < info.nlinks(); i++) {
                        long length = check(H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, (byte[]) null, 0,
                                H5P_DEFAULT), "H5Lget_name_by_idx");
                        byte[] name = new byte[(int) length + 1];
                        check(H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, name.length, H5P_DEFAULT),
                                "H5Lget_name_by_idx");
                        names.add(new String(name, 0, (int) length, StandardCharsets.UTF_8));
                    }
                    return names;
                } catch (NativeFailure e) {
                    throw new Hdf5FormatException(path + ": cannot list group " + groupPath + ": " + e.getMessage());
                } finally {
                    if (group >= 0) {
                        H5Gclose(group);
                    }
                }
            }
        }

        /** Numbers (boxed scalars or 1-d arrays) and strings (fixed or variable length); other types are left out. */
        Map<String, Object> attributes(String objectPath) {
            synchronized (LOCK) {
                requireObject(objectPath);
                Map<String, Object> out = new LinkedHashMap<>();
                long object = -1;
                try (H5O_info2_t info = new H5O_info2_t()) {
                    object = check(H5Oopen(file, objectPath, H5P_DEFAULT), "H5Oopen");
                    check(H5Oget_info3(object, info, H5O_INFO_NUM_ATTRS), "H5Oget_info3");
                    // Past num_attrs as well: libhdf5 counts a version-2 header's attributes from its
                    // attribute info message, which files written before Tessera added it lack.
                    for (long i = 0; ; i++) {
                        long attr = H5Aopen_by_idx(object, ".", H5_INDEX_NAME, H5_ITER_INC, i, H5P_DEFAULT, H5P_DEFAULT);
                        if (attr < 0) {
                            H5Eclear2(H5E_DEFAULT);
                            if (i < info.num_attrs()) {
                                throw new NativeFailure("H5Aopen_by_idx " + i + " of " + info.num_attrs());
                            }
                            break;
                        }
                        try {
                            readAttribute(attr, out);
                        } finally {
                            H5Aclose(attr);
                        }
                    }
                    return out;
                } catch (NativeFailure e) {
                    throw new Hdf5FormatException(path + ": cannot read attributes of " + objectPath + ": " + e.getMessage());
                } finally {
                    if (object >= 0) {
                        H5Oclose(object);
                    }
                }
            }
        }

        private void readAttribute(long attr, Map<String, Object> out) {
            long length = check(H5Aget_name(attr, 0, (byte[]) null), "H5Aget_name");
            byte[] nameBytes = new byte[(int) length + 1];
            check(H5Aget_name(attr, nameBytes.length, nameBytes), "H5Aget_name");
            String name = new String(nameBytes, 0, (int) length, StandardCharsets.UTF_8);
            long type = check(H5Aget_type(attr), "H5Aget_type");
            long space = check(H5Aget_space(attr), "H5Aget_space");
            try (Arena arena = Arena.ofConfined()) {
                int rank = H5Sget_simple_extent_ndims(space);
                long n = H5Sget_simple_extent_npoints(space);
                if (H5Tget_class(type) == H5T_STRING && n == 1) {
                    if (H5Tis_variable_str(type) > 0) {
                        long mem = check(H5Tcopy(H5T_C_S1_g()), "H5Tcopy");
                        try (PointerPointer<?> strings = new PointerPointer<>(1)) {
                            check(H5Tset_size(mem, H5T_VARIABLE), "H5Tset_size");
                            check(H5Tset_cset(mem, H5Tget_cset(type)), "H5Tset_cset");
                            check(H5Aread(attr, mem, strings), "H5Aread");
                            out.put(name, strings.getString(0, StandardCharsets.UTF_8));
                            H5Treclaim(mem, space, H5P_DEFAULT, strings);
                        } finally {
                            H5Tclose(mem);
                        }
                    } else {
                        long size = H5Tget_size(type);
                        MemorySegment raw = arena.allocate(Math.max(1, size));
                        try (Raw buffer = new Raw(raw)) {
                            check(H5Aread(attr, type, buffer), "H5Aread");
                        }
                        byte[] b = raw.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                        int end = b.length;
                        while (end > 0 && b[end - 1] == 0) {
                            end--;
                        }
                        out.put(name, new String(b, 0, end, StandardCharsets.UTF_8));
                    }
                    return;
                }
                Hdf5Type t = typeOf(type);
                if (t == null || rank > 1 || n > Integer.MAX_VALUE) {
                    return; // compound, enum, reference, n-d attributes: not represented
                }
                Object array = t.newArray((int) n);
                MemorySegment raw = arena.allocate(Math.max(1, n * t.size()), 8);
                try (Raw buffer = new Raw(raw)) {
                    check(H5Aread(attr, memoryType(t), buffer), "H5Aread");
                }
                MemorySegment.copy(raw, 0, Hdf5Type.segmentOf(array), 0, n * t.size());
                out.put(name, rank == 0 ? java.lang.reflect.Array.get(array, 0) : array);
            } finally {
                H5Sclose(space);
                H5Tclose(type);
            }
        }

        DatasetInfo dataset(String datasetPath) {
            synchronized (LOCK) {
                DatasetInfo known = infos.get(datasetPath);
                if (known != null) {
                    return known;
                }
                requireObject(datasetPath);
                long dataset = -1;
                long type = -1;
                long space = -1;
                long dcpl = -1;
                try {
                    dataset = H5Dopen2(file, datasetPath, H5P_DEFAULT);
                    if (dataset < 0) {
                        throw new Hdf5FormatException(path + ": " + datasetPath + " is not a dataset (" + errorStack() + ")");
                    }
                    type = check(H5Dget_type(dataset), "H5Dget_type");
                    Hdf5Type t = typeOf(type);
                    if (t == null) {
                        throw new Hdf5FormatException(path + ": dataset " + datasetPath + " has an element type other than "
                                + "double, float or a signed integer of 1-8 bytes", true);
                    }
                    space = check(H5Dget_space(dataset), "H5Dget_space");
                    int rank = (int) check(H5Sget_simple_extent_ndims(space), "H5Sget_simple_extent_ndims");
                    long[] shape = new long[rank];
                    if (rank > 0) {
                        check(H5Sget_simple_extent_dims(space, shape, null), "H5Sget_simple_extent_dims");
                    }
                    dcpl = check(H5Dget_create_plist(dataset), "H5Dget_create_plist");
                    int[] chunk = null;
                    boolean deflated = false;
                    if (H5Pget_layout(dcpl) == H5D_CHUNKED) {
                        long[] c = new long[rank];
                        check(H5Pget_chunk(dcpl, rank, c), "H5Pget_chunk");
                        chunk = new int[rank];
                        for (int d = 0; d < rank; d++) {
                            chunk[d] = (int) c[d];
                        }
                        int filters = H5Pget_nfilters(dcpl);
                        for (int i = 0; i < filters; i++) {
                            int[] flags = new int[1];
                            int[] values = new int[8];
                            byte[] fname = new byte[64];
                            int[] config = new int[1];
                            try (org.bytedeco.javacpp.SizeTPointer nValues = new org.bytedeco.javacpp.SizeTPointer(1)) {
                                nValues.put(0, values.length);
                                if (H5Pget_filter2(dcpl, i, flags, nValues, values, fname.length, fname, config) == H5Z_FILTER_DEFLATE) {
                                    deflated = true;
                                }
                            }
                        }
                    }
                    DatasetInfo info = new DatasetInfo(datasetPath, t, shape, MetadataBuffer.UNDEFINED_ADDRESS, chunk, deflated,
                            MetadataBuffer.UNDEFINED_ADDRESS, null);
                    infos.put(datasetPath, info);
                    return info;
                } catch (NativeFailure e) {
                    throw new Hdf5FormatException(path + ": cannot describe dataset " + datasetPath + ": " + e.getMessage());
                } finally {
                    if (dcpl >= 0) {
                        H5Pclose(dcpl);
                    }
                    if (space >= 0) {
                        H5Sclose(space);
                    }
                    if (type >= 0) {
                        H5Tclose(type);
                    }
                    if (dataset >= 0) {
                        H5Dclose(dataset);
                    }
                }
            }
        }

        /** Reads box {@code box} of {@code info}'s dataset into {@code dst} (host byte order, row-major). */
        void read(DatasetInfo info, Hyperslab box, MemorySegment dst) {
            if (box.volume() == 0) {
                return;
            }
            long bytes = box.volume() * info.type().size();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment staging = arena.allocate(bytes, 64);
                synchronized (LOCK) {
                    long dataset = -1;
                    long fileSpace = -1;
                    long memSpace = -1;
                    try (Raw buffer = new Raw(staging)) {
                        dataset = check(H5Dopen2(file, info.path(), H5P_DEFAULT), "H5Dopen2");
                        boolean scalar = info.shape().length == 0;
                        if (!scalar) {
                            fileSpace = check(H5Dget_space(dataset), "H5Dget_space");
                            check(H5Sselect_hyperslab(fileSpace, H5S_SELECT_SET, box.offset().clone(), null, box.count().clone(), null),
                                    "H5Sselect_hyperslab");
                            memSpace = dataspace(box.count());
                        }
                        check(H5Dread(dataset, memoryType(info.type()), scalar ? H5S_ALL : memSpace, scalar ? H5S_ALL : fileSpace,
                                H5P_DEFAULT, buffer), "H5Dread");
                    } catch (NativeFailure e) {
                        throw new Hdf5FormatException(path + " read(" + info.path() + ") of box " + box + ": " + e.getMessage());
                    } finally {
                        if (memSpace >= 0) {
                            H5Sclose(memSpace);
                        }
                        if (fileSpace >= 0) {
                            H5Sclose(fileSpace);
                        }
                        if (dataset >= 0) {
                            H5Dclose(dataset);
                        }
                    }
                }
                MemorySegment.copy(staging, 0, dst, 0, bytes);
            }
        }

        void close() {
            synchronized (LOCK) {
                if (file >= 0) {
                    H5Fclose(file);
                    file = -1;
                }
            }
        }
    }
}
