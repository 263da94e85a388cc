package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Type maps, bounds and packing of derived datatypes (no job needed). */
class DatatypeTest {

    @Test
    void vectorOfVectorHasTheNestedTypeMap() throws MPIException {
        Datatype inner = Datatype.Vector(2, 1, 3, MPI.INT);          // 0, 3; extent 4
        Datatype outer = Datatype.Vector(2, 1, 2, inner);            // copies at 0 and 8
        assertArrayEquals(new int[] {0, 3, 8, 11}, outer.displacements());
        assertEquals(12, outer.Extent());
        assertEquals(4, outer.Size());
    }

    @Test
    void lbAndUbMarkersSetTheBounds() throws MPIException {
        Datatype t = Datatype.Struct(new int[] {1, 2, 1}, new int[] {-2, 1, 6}, new Datatype[] {MPI.LB, MPI.DOUBLE, MPI.UB});
        assertEquals(-2, t.Lb());
        assertEquals(6, t.Ub());
        assertEquals(8, t.Extent());
        assertEquals(2, t.Size());
        assertArrayEquals(new int[] {1, 2}, t.displacements());
    }

    @Test
    void indexedBlocksMayComeInAnyOrder() throws MPIException {
        Datatype t = Datatype.Indexed(new int[] {1, 2}, new int[] {5, 0}, MPI.CHAR);
        assertArrayEquals(new int[] {5, 0, 1}, t.displacements());
        assertEquals(0, t.Lb());
        assertEquals(6, t.Ub());
        char[] src = "abcdefghijkl".toCharArray();
        char[] packed = (char[]) t.pack(src, 0, 2);
        assertEquals("fablgh", new String(packed));
        char[] back = new char[12];
        t.unpack(packed, 0, back, 0, 6);
        assertEquals("ab\0\0\0fgh\0\0\0l", new String(back));
    }

    @Test
    void contiguousTypesAreSentInPlace() throws MPIException {
        assertTrue(Datatype.Contiguous(3, MPI.DOUBLE).contiguous);
        assertTrue(MPI.INT2.contiguous);
        assertTrue(!Datatype.Vector(2, 1, 2, MPI.DOUBLE).contiguous);
    }

    @Test
    void badConstructionsAreMpiExceptions() {
        MPIException mixed = assertThrows(MPIException.class,
                () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1}, new Datatype[] {MPI.INT, MPI.LONG}));
        assertEquals(MPI.ERR_TYPE, mixed.getErrorClass());
        assertTrue(mixed.getMessage().contains("Datatype.Struct") && mixed.getMessage().contains("INT"), mixed.getMessage());
        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class,
                () -> Datatype.Indexed(new int[] {-1}, new int[] {0}, MPI.INT)).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> Datatype.Hindexed(new int[] {1, 2}, new int[] {0}, MPI.INT)).getErrorClass());
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, () -> MPI.DOUBLE.Free()).getErrorClass());
    }

    @Test
    void statusCountsItemsOfTheDatatype() throws MPIException {
        Status s = new Status(1, 2, 6, false);
        assertEquals(3, s.Get_count(MPI.INT2));
        assertEquals(6, s.Get_elements(MPI.INT2));
        assertEquals(MPI.UNDEFINED, s.Get_count(Datatype.Contiguous(4, MPI.INT)));
    }
}
