package dev.tessera.io.hdf5;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A group or dataset of a file being written: its path and its attributes, kept in memory
 * (they are small) and written with the object header when the file closes.
 */
public abstract sealed class Hdf5Object permits Hdf5Group, Hdf5Dataset {

    final Hdf5Writer file;
    private final String path;
    private final Map<String, AttributeValue> attributes = new LinkedHashMap<>();

    Hdf5Object(Hdf5Writer file, String path) {
        this.file = file;
        this.path = path;
    }

    /** The object's absolute path in the file ("/" for the root group). */
    public String path() {
        return path;
    }

    /**
     * Sets attribute {@code name} to {@code value}: a boxed number (a scalar), a String (a
     * fixed-length UTF-8 string) or a primitive array (a 1-d array), replacing an earlier one.
     */
    public Hdf5Object attribute(String name, Object value) {
        file.checkOpen();
        Names.check(name, "attribute of " + path);
        attributes.put(name, AttributeValue.of(path + "@" + name, value));
        if (file.nativeFile() != null) {
            file.nativeFile().attribute(path, name, value);
        }
        return this;
    }

    void addAttributeMessages(ObjectHeader header) {
        if (!attributes.isEmpty()) {
            header.message(ObjectHeader.MSG_ATTRIBUTE_INFO, ObjectHeader.attributeInfo(), false);
        }
        for (Map.Entry<String, AttributeValue> a : attributes.entrySet()) {
            header.message(ObjectHeader.MSG_ATTRIBUTE, a.getValue().message(a.getKey()), false);
        }
    }

    /** Writes this object's header (after its children's) and returns its address. */
    abstract long writeHeader();

    /** Writes whatever data the object still holds in memory (pending chunks). */
    abstract void flushData();
}
