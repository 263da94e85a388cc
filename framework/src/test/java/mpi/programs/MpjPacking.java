package mpi.programs;

import java.io.Serializable;
import java.util.Arrays;
import mpi.*;
import mpjbuf.*;
import mpjdev.*;

/**
 * MPJ Express's packing on {@code mpjbuf.Buffer}, written as MPJ Express's own test
 * programs are (both packages imported with {@code *}): Pack of mixed types (an object
 * included) into a buffer made with {@code BufferFactory} and {@code MPI.SEND_OVERHEAD},
 * Send/Recv of it with {@code MPI.PACKED} (blocking, nonblocking with ANY_SOURCE, buffered,
 * persistent), Unpack; the buffer's own API (sections, static and dynamic, gather/scatter,
 * growth, its exceptions); and the facade's errors. Ranks pair up (even with the next odd);
 * an odd rank count leaves the last rank to the local checks.
 */
public class MpjPacking {

    /** A user class packed as an object (MPJ Express's packO test packs one). */
    static class Point implements Serializable {
        private static final long serialVersionUID = 1L;
        final int x;
        final String name;

        Point(int x, String name) {
            this.x = x;
            this.name = name;
        }
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.Errhandler_set(MPI.ERRORS_RETURN);
        int me = w.Rank();
        int p = w.Size();
        Check.equal(MPI.SEND_OVERHEAD, MPJDev.getSendOverhead(), "MPJDev.getSendOverhead");
        Check.equal(MPI.RECV_OVERHEAD, MPJDev.getRecvOverhead(), "MPJDev.getRecvOverhead");

        localBufferApi();
        localPackUnpack(w);
        errors(w, me);

        int partner = me % 2 == 0 ? me + 1 : me - 1;
        if (partner < p) {
            pairs(w, me, partner);
        }
        w.Barrier();
        if (me == 0) {
            System.out.println("MpjPacking ok on " + p + " ranks");
        }
        MPI.Finalize();
    }

    /** The mpjbuf.Buffer API on its own. */
    static void localBufferApi() throws Exception {
        int[] ints = {1, 2, 3, 4, 5};
        double[] doubles = {0.5, -1.5};
        mpjbuf.Buffer b = new mpjbuf.Buffer(BufferFactory.create(64 + 16), 16, 64 + 16);
        Check.equal(16, b.offset(), "offset");
        b.putSectionHeader(mpjbuf.Type.INT);
        b.write(ints, 1, 3);                                  // 2, 3, 4
        b.gather(ints, 2, 0, new int[] {4, 0});               // 5, 1: same section
        Check.equal(5, b.getSectionSize(), "size of the section being written");
        b.putSectionHeader(mpjbuf.Type.DOUBLE);
        b.write(doubles, 0, 2);
        b.putSectionHeader(mpjbuf.Type.OBJECT);
        b.write(new Object[] {"a", new Point(7, "p"), null}, 0, 3);
        b.putSectionHeader(mpjbuf.Type.LONG_DYNAMIC);
        b.write(new long[] {Long.MIN_VALUE, 42L}, 0, 2);
        b.putSectionHeader(mpjbuf.Type.BOOLEAN);
        b.write(new boolean[] {true, false, true}, 0, 3);
        // header (8) + 5 ints (20) -> 28, pad to 32, + 8 + 16 = 56, + 8 (objects) = 64, + 8 (longs) = 72, + 8 + 3 = 83
        Check.equal(83, b.getSize(), "static bytes of the sections");
        Check.that(b.getCapacity() >= 16 + 83, "the static part grew past its capacity: " + b.getCapacity());
        expect(WrongStateException.class, "read while writing", () -> b.read(new int[1], 0, 1));
        b.commit();
        expect(WrongStateException.class, "write after commit", () -> b.write(ints, 0, 1));

        for (int pass = 0; pass < 2; pass++) {                // commit() again rewinds
            Check.equal(mpjbuf.Type.INT, b.getSectionHeader(), "first section type");
            Check.equal(5, b.getSectionSize(), "first section size");
            int[] got = new int[7];
            b.read(got, 0, 2);
            b.scatter(got, 3, 0, new int[] {6, 5, 4});
            Check.equal(0, b.getRemaining(), "elements left");
            Check.equal("[2, 3, 0, 0, 1, 5, 4]", Arrays.toString(got), "read and scatter of the INT section");
            expect(TypeMismatchException.class, "double read from the INT section... after it is done",
                    () -> b.read(new double[1], 0, 1));
            Check.equal(mpjbuf.Type.DOUBLE, b.getSectionHeader(), "second section type");
            expect(SectionSizeMismatchException.class, "reading 3 of 2", () -> b.read(new double[3], 0, 3));
            double[] d = new double[2];
            b.read(d, 0, 2);
            Check.that(d[0] == 0.5 && d[1] == -1.5, "DOUBLE section " + Arrays.toString(d));
            Check.equal(mpjbuf.Type.OBJECT, b.getSectionHeader(), "third section type");
            if (pass == 0) {
                Object[] o = new Object[3];
                b.read(o, 0, 3);
                Check.that("a".equals(o[0]) && ((Point) o[1]).x == 7 && ((Point) o[1]).name.equals("p") && o[2] == null,
                        "OBJECT section " + Arrays.toString(o));
            }                                                 // pass 1 skips the unread objects
            Check.equal(mpjbuf.Type.LONG_DYNAMIC, b.getSectionHeader(), "fourth section type");
            long[] l = new long[2];
            b.read(l, 0, 2);
            Check.that(l[0] == Long.MIN_VALUE && l[1] == 42L, "LONG_DYNAMIC section " + Arrays.toString(l));
            Check.equal(mpjbuf.Type.BOOLEAN, b.getSectionHeader(), "fifth section type");
            boolean[] z = new boolean[3];
            b.read(z, 0, 3);
            Check.equal("[true, false, true]", Arrays.toString(z), "BOOLEAN section");
            expect(BufferUnderflowException.class, "past the last section", b::getSectionHeader);
            b.commit();
        }
        b.clear();
        Check.that(b.isWritable() && b.getSize() == 0, "clear empties the buffer for writing");
        expect(mpjbuf.IllegalArgumentException.class, "write past the source array", () -> {
            b.putSectionHeader(mpjbuf.Type.INT);
            b.write(ints, 3, 3);
        });
        b.free();
        expect(WrongStateException.class, "use after free", b::commit);
        BufferFactory.destroy(b.getStaticBuffer());
    }

    /** Pack and Unpack on one rank (commit between them), with a derived type and objects. */
    static void localPackUnpack(Intracomm w) throws Exception {
        mpjbuf.Buffer buf = new mpjbuf.Buffer(BufferFactory.create(8 + MPI.SEND_OVERHEAD), MPI.SEND_OVERHEAD,
                8 + MPI.SEND_OVERHEAD);                        // far too small: it grows
        int[] grid = new int[12];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = 100 + i;
        }
        Datatype column = Datatype.Vector(3, 1, 4, MPI.INT);  // items 0, 4, 8 (from the offset)
        int pos = 0;
        pos = w.Pack(grid, 1, 1, column, buf, pos);
        Check.equal(8 + 12, pos, "position after a 3-int section");
        pos = w.Pack(new Object[] {new Point(3, "three")}, 0, 1, MPI.OBJECT, buf, pos);
        Check.equal(24 + 8, pos, "an object section adds only its header to the static part");
        pos = w.Pack(new char[] {'x', 'y'}, 0, 2, MPI.CHAR, buf, pos);
        pos = w.Pack(new float[0], 0, 0, MPI.FLOAT, buf, pos);
        buf.commit();
        int[] col = new int[12];
        int at = 0;
        at = w.Unpack(buf, at, col, 2, 1, column);
        Check.equal(20, at, "Unpack advances the position as Pack did");
        Check.that(col[2] == 101 && col[6] == 105 && col[10] == 109 && col[3] == 0, "column unpacked " + Arrays.toString(col));
        Object[] o = new Object[1];
        at = w.Unpack(buf, at, o, 0, 1, MPI.OBJECT);
        Check.equal(32, at, "position after the object section");
        Check.that(((Point) o[0]).name.equals("three"), "object unpacked");
        char[] c = new char[3];
        at = w.Unpack(buf, at, c, 1, 2, MPI.CHAR);
        Check.that(c[1] == 'x' && c[2] == 'y', "chars unpacked " + Arrays.toString(c));
        at = w.Unpack(buf, at, new float[0], 0, 0, MPI.FLOAT);
        Check.equal(pos, at, "the positions of Pack and Unpack agree to the end");
        BufferFactory.destroy(buf.getStaticBuffer());
    }

    static void errors(Intracomm w, int me) throws Exception {
        mpjbuf.Buffer buf = new mpjbuf.Buffer(64);
        int pos = w.Pack(new int[] {1, 2}, 0, 2, MPI.INT, buf, 0);
        Check.fails(MPI.ERR_ARG, "Pack", () -> w.Pack(new int[] {3}, 0, 1, MPI.INT, buf, 0));
        Check.fails(MPI.ERR_BUFFER, "Unpack", () -> w.Unpack(buf, 0, new int[2], 0, 2, MPI.INT));   // not committed
        buf.commit();
        Check.fails(MPI.ERR_BUFFER, "Pack", () -> w.Pack(new int[] {3}, 0, 1, MPI.INT, buf, pos));   // committed
        Check.fails(MPI.ERR_TYPE, "Unpack", () -> w.Unpack(buf, 0, new long[2], 0, 2, MPI.LONG));
        buf.commit();
        Check.fails(MPI.ERR_TRUNCATE, "Unpack", () -> w.Unpack(buf, 0, new int[1], 0, 1, MPI.INT));
        buf.commit();
        w.Unpack(buf, 0, new int[2], 0, 2, MPI.INT);
        Check.fails(MPI.ERR_BUFFER, "Unpack", () -> w.Unpack(buf, pos, new int[2], 0, 2, MPI.INT)); // no more sections
        Check.fails(MPI.ERR_TYPE, "Send", () -> w.Send(buf, 0, pos, MPI.INT, MPI.PROC_NULL, 1));
        Check.fails(MPI.ERR_TYPE, "Recv", () -> w.Recv(buf, 0, 64, MPI.BYTE, MPI.PROC_NULL, 1));
        Check.fails(MPI.ERR_RANK, "Send", () -> w.Send(buf, 0, pos, MPI.PACKED, w.Size(), 1));
        // a message that is not a packed buffer, received into one
        w.Isend(new Object[] {"not packed"}, 0, 1, MPI.OBJECT, me, 3);
        Check.fails(MPI.ERR_TYPE, "Recv", () -> w.Recv(new mpjbuf.Buffer(16), 0, 16, MPI.PACKED, me, 3));
    }

    /** Between two ranks: rank {@code me} and {@code partner} exchange packed buffers every way MPJ Express allows. */
    static void pairs(Intracomm w, int me, int partner) throws Exception {
        final int BUF_SIZE = 100;
        boolean sender = me < partner;
        int[] n = new int[1];
        double[] b = new double[1];
        Point[] a = new Point[1];
        if (sender) {
            // packO: int, object, double; the position goes ahead as an INT message
            mpjbuf.Buffer buffer = new mpjbuf.Buffer(BufferFactory.create(BUF_SIZE + MPI.SEND_OVERHEAD),
                    MPI.SEND_OVERHEAD, BUF_SIZE + MPI.SEND_OVERHEAD);
            int pos = 0;
            pos = w.Pack(new int[] {10 + me}, 0, 1, MPI.INT, buffer, pos);
            pos = w.Pack(new Point[] {new Point(me, "from " + me)}, 0, 1, MPI.OBJECT, buffer, pos);
            pos = w.Pack(new double[] {2.2 * me}, 0, 1, MPI.DOUBLE, buffer, pos);
            w.Send(new int[] {pos}, 0, 1, MPI.INT, partner, 999);
            w.Send(buffer, 0, pos, MPI.PACKED, partner, 99);
            BufferFactory.destroy(buffer.getStaticBuffer());

            // a large buffer (grown far past its capacity), nonblocking and buffered
            mpjbuf.Buffer big = new mpjbuf.Buffer(BufferFactory.create(16), 0, 16);
            double[] data = new double[5000];
            for (int i = 0; i < data.length; i++) {
                data[i] = i * 0.5 + me;
            }
            w.Pack(data, 0, data.length, MPI.DOUBLE, big, 0);
            w.Isend(big, 0, big.getSize(), MPI.PACKED, partner, 98).Wait();
            byte[] attached = new byte[100_000];
            MPI.Buffer_attach(attached);
            mpjbuf.Buffer small = new mpjbuf.Buffer(32);
            w.Pack(new short[] {(short) me, 7}, 0, 2, MPI.SHORT, small, 0);
            w.Bsend(small, 0, small.getSize(), MPI.PACKED, partner, 97);
            MPI.Buffer_detach();

            // a persistent send: each Start sends the buffer's content
            mpjbuf.Buffer again = new mpjbuf.Buffer(32);
            Prequest ps = w.Send_init(again, 0, 0, MPI.PACKED, partner, 96);
            for (int round = 0; round < 2; round++) {
                again.clear();
                w.Pack(new int[] {round * 100 + me}, 0, 1, MPI.INT, again, 0);
                ps.Start();
                ps.Wait();
            }
        } else {
            mpjbuf.Buffer buffer = new mpjbuf.Buffer(BufferFactory.create(BUF_SIZE + MPI.RECV_OVERHEAD),
                    MPI.RECV_OVERHEAD, BUF_SIZE + MPI.RECV_OVERHEAD);
            int[] size = new int[1];
            w.Recv(size, 0, 1, MPI.INT, partner, 999);
            mpi.Status s = w.Recv(buffer, 0, size[0], MPI.PACKED, partner, 99);
            Check.that(s.source == partner && s.tag == 99, "status of the packed receive " + s);
            Check.equal(size[0], s.Get_count(MPI.PACKED), "Get_count(PACKED) is the packed buffer's static bytes");
            int pos = 0;
            pos = w.Unpack(buffer, pos, n, 0, 1, MPI.INT);
            pos = w.Unpack(buffer, pos, a, 0, 1, MPI.OBJECT);
            pos = w.Unpack(buffer, pos, b, 0, 1, MPI.DOUBLE);
            Check.equal(size[0], pos, "positions agree on both sides");
            Check.equal(10 + partner, n[0], "packed int");
            Check.that(a[0].x == partner && a[0].name.equals("from " + partner), "packed object");
            Check.equal(2.2 * partner, b[0], "packed double");
            BufferFactory.destroy(buffer.getStaticBuffer());

            mpjbuf.Buffer big = new mpjbuf.Buffer(BufferFactory.create(8), 0, 8);
            Request r = w.Irecv(big, 0, 8, MPI.PACKED, MPI.ANY_SOURCE, 98);
            mpi.Status st = r.Wait();
            Check.equal(partner, st.source, "ANY_SOURCE packed receive names the sender");
            double[] data = new double[5000];
            w.Unpack(big, 0, data, 0, data.length, MPI.DOUBLE);
            for (int i = 0; i < data.length; i++) {
                Check.that(data[i] == i * 0.5 + partner, "large packed message element " + i);
            }
            mpjbuf.Buffer small = new mpjbuf.Buffer(4);
            w.Recv(small, 0, 4, MPI.PACKED, partner, 97);
            short[] sh = new short[2];
            w.Unpack(small, 0, sh, 0, 2, MPI.SHORT);
            Check.that(sh[0] == partner && sh[1] == 7, "buffered packed message " + Arrays.toString(sh));

            mpjbuf.Buffer again = new mpjbuf.Buffer(32);
            Prequest pr = w.Recv_init(again, 0, 32, MPI.PACKED, partner, 96);
            for (int round = 0; round < 2; round++) {
                pr.Start();
                pr.Wait();
                int[] v = new int[1];
                w.Unpack(again, 0, v, 0, 1, MPI.INT);
                Check.equal(round * 100 + partner, v[0], "persistent packed receive, round " + round);
            }
        }

        // both ways at once: Sendrecv of packed buffers
        mpjbuf.Buffer out = new mpjbuf.Buffer(16);
        int outPos = w.Pack(new long[] {me, -me}, 0, 2, MPI.LONG, out, 0);
        mpjbuf.Buffer in = new mpjbuf.Buffer(16);
        mpi.Status st = w.Sendrecv(out, 0, outPos, MPI.PACKED, partner, 95, in, 0, 16, MPI.PACKED, partner, 95);
        Check.that(st.source == partner && st.tag == 95, "Sendrecv status " + st);
        long[] got = new long[2];
        w.Unpack(in, 0, got, 0, 2, MPI.LONG);
        Check.that(got[0] == partner && got[1] == -partner, "Sendrecv of packed buffers " + Arrays.toString(got));
    }

    interface Step {
        void run() throws Exception;
    }

    static void expect(Class<? extends BufferException> kind, String what, Step step) throws Exception {
        try {
            step.run();
        } catch (BufferException e) {
            Check.that(kind.isInstance(e), what + ": expected " + kind.getSimpleName() + " but got " + e);
            Check.that(e.getMessage() != null && e.getMessage().startsWith("mpjbuf.Buffer."), what + ": message names the call: " + e.getMessage());
            return;
        }
        Check.that(false, what + ": expected " + kind.getSimpleName());
    }
}
