package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.ObjectRequest;
import java.nio.ByteBuffer;
import mpjbuf.BufferException;

/**
 * MPJ Express's packing on {@code mpjbuf.Buffer}: {@link Comm#Pack} and {@link Comm#Unpack}
 * of its form, and sends and receives of a packed buffer ({@link MPI#PACKED} with an
 * {@code mpjbuf.Buffer} as the buffer). A packed buffer travels as one object message
 * holding its static and dynamic bytes, so it is received whole whatever its size, into
 * an {@code mpjbuf.Buffer} (which grows as needed) and committed, ready for Unpack.
 */
final class Packing {

    /** First element of the object message that carries a packed buffer. */
    private static final String MARK = "mpjbuf.Buffer";

    private Packing() {
    }

    /** The section type of a datatype's base elements. */
    static mpjbuf.Type sectionType(Datatype datatype) {
        if (datatype.base == null) {
            return mpjbuf.Type.BYTE;
        }
        return switch (datatype.base) {
            case BYTE -> mpjbuf.Type.BYTE;
            case CHAR -> mpjbuf.Type.CHAR;
            case SHORT -> mpjbuf.Type.SHORT;
            case BOOLEAN -> mpjbuf.Type.BOOLEAN;
            case INT -> mpjbuf.Type.INT;
            case LONG -> mpjbuf.Type.LONG;
            case FLOAT -> mpjbuf.Type.FLOAT;
            case DOUBLE -> mpjbuf.Type.DOUBLE;
            case OBJECT -> mpjbuf.Type.OBJECT;
        };
    }

    static int pack(Comm comm, Object inbuf, int offset, int incount, Datatype type, mpjbuf.Buffer outbuf, int position) {
        String call = "Pack";
        if (type == null) {
            throw new TesseraException(ErrorClass.TYPE, comm.where(call) + ": datatype is null");
        }
        if (outbuf == null) {
            throw new TesseraException(ErrorClass.BUFFER, comm.where(call) + ": output mpjbuf.Buffer is null");
        }
        Datatype datatype = type.on(inbuf);
        int n = datatype.checkBuffer(call, "input ", inbuf, offset, incount);
        if (!outbuf.isWritable()) {
            throw new TesseraException(ErrorClass.BUFFER, comm.where(call) + ": the output mpjbuf.Buffer is committed "
                    + "(it was sent or received); clear() it to pack into it again");
        }
        if (position != outbuf.getSize()) {
            throw new TesseraException(ErrorClass.ARG, comm.where(call) + ": position " + position
                    + " is not the end of the data in the mpjbuf.Buffer (" + outbuf.getSize()
                    + " bytes): pass 0 for an empty buffer, then the position the previous Pack returned");
        }
        Object packed = n == 0 ? datatype.newArray(0) : datatype.pack(inbuf, offset, incount);
        try {
            outbuf.putSectionHeader(sectionType(datatype));
            switch (packed) {
                case byte[] a -> outbuf.write(a, 0, n);
                case char[] a -> outbuf.write(a, 0, n);
                case short[] a -> outbuf.write(a, 0, n);
                case boolean[] a -> outbuf.write(a, 0, n);
                case int[] a -> outbuf.write(a, 0, n);
                case long[] a -> outbuf.write(a, 0, n);
                case float[] a -> outbuf.write(a, 0, n);
                case double[] a -> outbuf.write(a, 0, n);
                default -> outbuf.write((Object[]) packed, 0, n);
            }
        } catch (BufferException e) {
            throw new TesseraException(ErrorClass.BUFFER, comm.where(call) + ": " + e.getMessage(), e);
        }
        return outbuf.getSize();
    }

    static int unpack(Comm comm, mpjbuf.Buffer inbuf, int position, Object outbuf, int offset, int outcount, Datatype type) {
        String call = "Unpack";
        if (type == null) {
            throw new TesseraException(ErrorClass.TYPE, comm.where(call) + ": datatype is null");
        }
        if (inbuf == null) {
            throw new TesseraException(ErrorClass.BUFFER, comm.where(call) + ": input mpjbuf.Buffer is null");
        }
        if (inbuf.isWritable()) {
            throw new TesseraException(ErrorClass.BUFFER, comm.where(call) + ": the input mpjbuf.Buffer is still being "
                    + "written; commit() it first (a received buffer is committed already)");
        }
        if (position < 0) {
            throw new TesseraException(ErrorClass.ARG, comm.where(call) + ": position " + position + " is negative");
        }
        Datatype datatype = type.on(outbuf);
        int room = datatype.checkBuffer(call, "output ", outbuf, offset, outcount);
        mpjbuf.Type want = sectionType(datatype);
        try {
            mpjbuf.Type got = inbuf.getSectionHeader();
            int n = inbuf.getSectionSize();
            if (got != want) {
                throw new TesseraException(ErrorClass.TYPE, comm.where(call) + ": the next section of the mpjbuf.Buffer holds "
                        + got + " elements, but " + type + " needs " + want);
            }
            if (n > room) {
                throw new TesseraException(ErrorClass.TRUNCATE, comm.where(call) + ": the section holds " + n
                        + " elements but the output holds " + room + " (" + outcount + " items of " + type + ")");
            }
            Object elements = datatype.newArray(n);
            switch (elements) {
                case byte[] a -> inbuf.read(a, 0, n);
                case char[] a -> inbuf.read(a, 0, n);
                case short[] a -> inbuf.read(a, 0, n);
                case boolean[] a -> inbuf.read(a, 0, n);
                case int[] a -> inbuf.read(a, 0, n);
                case long[] a -> inbuf.read(a, 0, n);
                case float[] a -> inbuf.read(a, 0, n);
                case double[] a -> inbuf.read(a, 0, n);
                default -> inbuf.read((Object[]) elements, 0, n);
            }
            if (n > 0) {
                datatype.unpack(elements, 0, outbuf, offset, n);
            }
            int start = (position + mpjbuf.Buffer.ALIGNMENT_UNIT - 1) / mpjbuf.Buffer.ALIGNMENT_UNIT * mpjbuf.Buffer.ALIGNMENT_UNIT;
            int staticBytes = want == mpjbuf.Type.OBJECT ? 0 : n * (int) datatype.base.byteSize();
            return start + mpjbuf.Buffer.SECTION_OVERHEAD + staticBytes;
        } catch (BufferException e) {
            throw new TesseraException(ErrorClass.BUFFER, comm.where(call) + ": " + e.getMessage(), e);
        }
    }

    /** Sends the whole packed buffer (committing it); {@code count} and {@code offset} of the call are not used. */
    static Request send(Comm comm, String call, mpjbuf.Buffer buffer, Datatype datatype, int dest, int tag, boolean buffered) {
        requirePacked(comm, call, datatype);
        Object[] message;
        try {
            buffer.commit();
            int size = buffer.getSize();
            byte[] data = new byte[size];
            ((mpjbuf.NIOBuffer) buffer.getStaticBuffer()).getBuffer().get(buffer.offset(), data, 0, size);
            byte[] dynamic = buffer.getDynamicBuffer();
            message = new Object[] {MARK, data, dynamic == null ? new byte[0] : dynamic.clone()};
        } catch (BufferException e) {
            throw new TesseraException(ErrorClass.BUFFER, comm.where(call) + ": " + e.getMessage(), e);
        }
        if (dest == MPI.PROC_NULL) {
            return Request.completed(Status.empty());
        }
        if (buffered) {
            long reserved = MPI.reserveBsend(call, ((byte[]) message[1]).length + ((byte[]) message[2]).length);
            dev.tessera.comm.Request r;
            try {
                r = comm.inner.isendObject(message, dest, tag);
            } catch (RuntimeException e) {
                MPI.releaseBsend(reserved);
                throw e;
            }
            MPI.trackBsend(r, reserved);
            return Request.completed(Status.empty());
        }
        return Request.of(comm.inner.isendObject(message, dest, tag), Status::sent);
    }

    /** A receive of a packed buffer into {@code buffer}: cleared, filled and committed when the message arrives. */
    static Request.Pending receive(Comm comm, String call, mpjbuf.Buffer buffer, Datatype datatype, int source, int tag) {
        requirePacked(comm, call, datatype);
        comm.checkSource(call, source);
        if (tag != MPI.ANY_TAG && (tag < 0 || tag > MPI.TAG_UB)) {
            throw new TesseraException(ErrorClass.TAG, comm.where(call) + ": invalid tag " + tag);
        }
        if (source == MPI.PROC_NULL) {
            return Request.completed(new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, false)).pending;
        }
        ObjectRequest<Object> r = comm.inner.irecvObject(source, tag);
        return Request.tessera(r, st -> st.cancelled() ? new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, true)
                : fill(comm, call, buffer, r.value(), st));
    }

    private static Status fill(Comm comm, String call, mpjbuf.Buffer buffer, Object value, dev.tessera.comm.Status st) {
        if (!(value instanceof Object[] m) || m.length != 3 || !MARK.equals(m[0])
                || !(m[1] instanceof byte[] data) || !(m[2] instanceof byte[] dynamic)) {
            throw new TesseraException(ErrorClass.TYPE, comm.where(call) + ": the message from rank " + st.source()
                    + " (tag " + st.tag() + ") is not a packed mpjbuf.Buffer (it was not sent with MPI.PACKED from one)");
        }
        try {
            buffer.clear();
            buffer.copy(ByteBuffer.wrap(data), 0, data.length, buffer.offset(), dynamic, dynamic.length);
            buffer.commit();
        } catch (BufferException e) {
            throw new TesseraException(ErrorClass.BUFFER, comm.where(call) + ": " + e.getMessage(), e);
        }
        return new Status(st.source(), st.tag(), data.length, false);
    }

    private static void requirePacked(Comm comm, String call, Datatype datatype) {
        if (datatype != MPI.PACKED) {
            throw new TesseraException(ErrorClass.TYPE, comm.where(call) + ": an mpjbuf.Buffer is sent and received with "
                    + "MPI.PACKED, not " + datatype);
        }
    }
}
