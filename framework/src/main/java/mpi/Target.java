package mpi;

import dev.tessera.comm.Buffer;

/**
 * Where received elements go: {@code count} items of a datatype at {@code offset} of a
 * user array. Contiguous types receive straight into the array; other types receive into
 * a contiguous staging array that {@link #finish} unpacks.
 */
final class Target {

    final Object buf;
    final int offset;
    final Datatype type;
    /** Number of base elements. */
    final int elements;
    private final Object stage;
    /** The Tessera buffer to receive into (primitive types only). */
    final Buffer buffer;

    Target(String call, Object buf, int offset, int count, Datatype type) {
        this.buf = buf;
        this.offset = offset;
        type = type == null ? null : type.on(buf);
        this.type = type;
        this.elements = type == null ? Datatype.nullType(call) : type.checkBuffer(call, "receive ", buf, offset, count);
        if (type.isObject()) {
            stage = null;
            buffer = null;
        } else if (type.contiguous && buf != null) {
            stage = null;
            buffer = Datatype.wrap(buf, offset, elements);
        } else {
            stage = type.newArray(elements);
            buffer = Datatype.wrap(stage, 0, elements);
        }
    }

    /** Copies the user's data into the staging array (a root's part of a broadcast). */
    Target fillFromUser() {
        if (stage != null && elements > 0) {
            System.arraycopy(type.pack(buf, offset, elements / type.size0()), 0, stage, 0, elements);
        }
        return this;
    }

    /** Unpacks {@code n} received base elements (if staged). */
    void unpack(int n) {
        if (stage != null && n > 0) {
            type.unpack(stage, 0, buf, offset, n);
        }
    }

    /** Finishes a receive: unpacks, and converts the status. */
    Status finish(dev.tessera.comm.Status s) {
        if (!s.cancelled()) {
            unpack(s.count());
        }
        return Status.of(s);
    }

    /** Stores received objects into the user's array (at most {@link #elements}). */
    void unpackObjects(Object[] got) {
        if (got.length > 0) {
            type.unpack(got, 0, buf, offset, got.length);
        }
    }
}
