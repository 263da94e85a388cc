package dev.tessera.comm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code NodeCollectives.same}, which decides whether a lane entry's stored signature may stay
 * in place for a new call (then nothing is stored: no G1 write-barrier fence per call). It must
 * be true only when every field the agreement check compares is equal; a false true would leave
 * an older call's signature for the deferred comparisons.
 */
@Timeout(10)
class LaneSignatureTest {

    private static CollectiveCheck.Signature sig(String call, int type, long count, int root, int op) {
        return new CollectiveCheck.Signature(call, type, count, root, op);
    }

    @Test
    void equalInEveryFieldIsTheSame() {
        CollectiveCheck.Signature a = sig("Comm.bcast", 3, 8, 0, -1);
        assertTrue(NodeCollectives.same(a, a));
        assertTrue(NodeCollectives.same(a, sig("Comm.bcast", 3, 8, 0, -1)));
        // a call name equal in content but not the same String object still agrees
        assertTrue(NodeCollectives.same(a, sig(new String("Comm.bcast"), 3, 8, 0, -1)));
    }

    @Test
    void anyFieldThatDiffersIsNotTheSame() {
        CollectiveCheck.Signature a = sig("Comm.reduce", 3, 8, 0, 1);
        assertFalse(NodeCollectives.same(a, sig("Comm.bcast", 3, 8, 0, 1)), "call");
        assertFalse(NodeCollectives.same(a, sig("Comm.reduce", 4, 8, 0, 1)), "element type");
        assertFalse(NodeCollectives.same(a, sig("Comm.reduce", 3, 9, 0, 1)), "count");
        assertFalse(NodeCollectives.same(a, sig("Comm.reduce", 3, 8 + (1L << 32), 0, 1)), "count above 32 bits");
        assertFalse(NodeCollectives.same(a, sig("Comm.reduce", 3, 8, 1, 1)), "root");
        assertFalse(NodeCollectives.same(a, sig("Comm.reduce", 3, 8, 0, 2)), "operation");
        assertFalse(NodeCollectives.same(a, sig("Comm.reduce", 3, 8, 0, -1)), "operation none");
    }
}
