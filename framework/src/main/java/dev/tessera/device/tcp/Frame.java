package dev.tessera.device.tcp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The frame header of the tcp device, 32 bytes, little endian:
 *
 * <pre>
 *  offset  size  field
 *   0      4     MAGIC ("TSRA")
 *   4      1     type: DATA, RTS, CTS, RDATA, GOODBYE, ABORT
 *   5      3     (zero)
 *   8      4     tag
 *  12      4     context
 *  16      4     element type code
 *  20      4     rendezvous id (RTS, CTS, RDATA)
 *  24      8     length: payload bytes that follow (DATA, RDATA, ABORT), or the announced
 *                message size (RTS)
 * </pre>
 *
 * The source rank is the connection's peer, fixed at the handshake. An ABORT frame's tag is
 * the rank that failed first, plus one (the sender may only relay another rank's failure);
 * its payload is that rank's reason in UTF-8.
 */
final class Frame {

    static final int MAGIC = 0x41525354;
    static final int HEADER_BYTES = 32;

    static final byte DATA = 1;
    static final byte RTS = 2;
    static final byte CTS = 3;
    static final byte RDATA = 4;
    static final byte GOODBYE = 5;
    static final byte ABORT = 6;

    static final int OFF_MAGIC = 0;
    static final int OFF_TYPE = 4;
    static final int OFF_TAG = 8;
    static final int OFF_CONTEXT = 12;
    static final int OFF_TYPE_CODE = 16;
    static final int OFF_ID = 20;
    static final int OFF_LENGTH = 24;

    /** Largest payload a frame may announce; more is a corrupt frame. */
    static final long MAX_LENGTH = 1L << 40;

    private Frame() {
    }

    static ByteBuffer header(byte type, int tag, int context, int typeCode, int id, long length) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(OFF_MAGIC, MAGIC).put(OFF_TYPE, type).putInt(OFF_TAG, tag).putInt(OFF_CONTEXT, context)
                .putInt(OFF_TYPE_CODE, typeCode).putInt(OFF_ID, id).putLong(OFF_LENGTH, length);
        return b;
    }
}
