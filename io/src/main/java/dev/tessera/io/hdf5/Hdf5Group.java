package dev.tessera.io.hdf5;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A group of a file being written: named links to child groups and datasets, plus
 * attributes. Stored as a "new style" compact group (link messages in its object header).
 */
public final class Hdf5Group extends Hdf5Object {

    private final Map<String, Hdf5Object> children = new LinkedHashMap<>();

    Hdf5Group(Hdf5Writer file, String path) {
        super(file, path);
    }

    @Override
    public Hdf5Group attribute(String name, Object value) {
        super.attribute(name, value);
        return this;
    }

    /** Creates child group {@code name}. */
    public Hdf5Group createGroup(String name) {
        Hdf5Group g = add(name, new Hdf5Group(file, Names.child(path(), name)));
        if (file.nativeFile() != null) {
            file.nativeFile().createGroup(g.path());
        }
        return g;
    }

    /** The child group {@code name}, created if it does not exist yet. */
    public Hdf5Group group(String name) {
        if (children.get(name) instanceof Hdf5Group g) {
            return g;
        }
        return createGroup(name);
    }

    /** Creates a contiguous dataset of {@code type} and {@code shape}; write its parts with {@link Hdf5Dataset#write}. */
    public Hdf5Dataset createDataset(String name, Hdf5Type type, long... shape) {
        return createDataset(name, type, shape, Hdf5Layout.contiguous());
    }

    /** Creates a dataset of {@code type}, {@code shape} and {@code layout}. */
    public Hdf5Dataset createDataset(String name, Hdf5Type type, long[] shape, Hdf5Layout layout) {
        Names.check(name, "dataset in " + path());
        checkNew(name);
        return add(name, new Hdf5Dataset(file, Names.child(path(), name), type, shape, layout));
    }

    /** Creates a contiguous dataset holding all of {@code data} (a flat row-major primitive array). */
    public Hdf5Dataset writeDataset(String name, long[] shape, Object data) {
        Hdf5Dataset d = createDataset(name, Hdf5Type.ofArray(data), shape);
        d.write(data);
        return d;
    }

    /** Throws if the file is closed or {@code name} is taken (before a native backend creates anything). */
    private void checkNew(String name) {
        file.checkOpen();
        Names.check(name, "child of " + path());
        if (children.containsKey(name)) {
            throw new IllegalArgumentException(file.path() + ": " + Names.child(path(), name) + " already exists");
        }
    }

    private <T extends Hdf5Object> T add(String name, T child) {
        checkNew(name);
        children.put(name, child);
        return child;
    }

    @Override
    void flushData() {
        for (Hdf5Object c : children.values()) {
            c.flushData();
        }
    }

    @Override
    long writeHeader() {
        ObjectHeader h = new ObjectHeader();
        h.message(ObjectHeader.MSG_LINK_INFO, ObjectHeader.linkInfo(), false);
        h.message(ObjectHeader.MSG_GROUP_INFO, ObjectHeader.groupInfo(), false);
        for (Map.Entry<String, Hdf5Object> c : children.entrySet()) {
            long address = c.getValue().writeHeader();
            h.message(ObjectHeader.MSG_LINK, ObjectHeader.hardLink(c.getKey(), address), false);
        }
        addAttributeMessages(h);
        return file.writeMetadata(h.encode());
    }
}
