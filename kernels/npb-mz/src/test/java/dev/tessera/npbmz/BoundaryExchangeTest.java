package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.launch.SmpJob;
import dev.tessera.task.Team;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * exch_qbc: every zone receives, across each face, exactly what its neighbour across that face
 * gave, whether the neighbour is on the same rank (copy) or another (message).
 */
@Timeout(60)
class BoundaryExchangeTest {

    /** A zone whose faces carry its id, the face and the step, and which records what it receives. */
    static final class TaggedZone implements ZoneSolver {
        final int id;
        final int nx;
        final int ny;
        int step;
        final Map<Face, double[]> received = new EnumMap<>(Face.class);

        TaggedZone(int id, int nx, int ny) {
            this.id = id;
            this.nx = nx;
            this.ny = ny;
        }

        static double value(int zone, Face face, int step, int index) {
            return zone * 1e6 + face.ordinal() * 1e5 + step * 1e4 + index;
        }

        @Override public int nx() { return nx; }
        @Override public int ny() { return ny; }
        @Override public int nz() { return 3; }
        @Override public void initialize() { }
        @Override public void step(Team team) { step++; }
        @Override public double[] verificationNorms(Team team) { return new double[0]; }

        @Override
        public int faceLength(Face face) {
            return face == Face.WEST || face == Face.EAST ? 2 * ny : 2 * nx;
        }

        @Override
        public void packFace(Face face, double[] buf, int off) {
            for (int i = 0; i < faceLength(face); i++) {
                buf[off + i] = value(id, face, step, i);
            }
        }

        @Override
        public void unpackFace(Face face, double[] buf, int off) {
            received.put(face, java.util.Arrays.copyOfRange(buf, off, off + faceLength(face)));
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5})
    void everyFaceArrivesFromTheNeighbourAcrossIt(int ranks) {
        // BT-MZ class A widths (13, 21, 36, 58): faces of different lengths
        ZoneLayout layout = ZoneLayout.of(new MzProblem('A', 128, 128, 16, 4, 4, 200, 0.0008), 4.5);
        AtomicInteger checked = new AtomicInteger();
        SmpJob.run(ranks, new String[] {"--threads", "2"}, Duration.ofSeconds(50), session -> {
            int[] threads = new int[ranks];
            java.util.Arrays.fill(threads, 1);
            ZoneMapping mapping = ZoneMapping.map(layout, ranks, threads, false);
            TaggedZone[] zones = new TaggedZone[layout.zones()];
            for (int z : mapping.zonesOf(session.rank())) {
                zones[z] = new TaggedZone(z, layout.nx(z), layout.ny(z));
            }
            BoundaryExchange exchange = new BoundaryExchange(session.world(), mapping, zones);
            for (int step = 0; step < 3; step++) {
                exchange.exchange(session.team());
                for (TaggedZone zone : zones) {
                    if (zone == null) {
                        continue;
                    }
                    for (Face f : Face.values()) {
                        int nb = layout.neighbour(zone.id, f);
                        Face back = ZoneLayout.opposite(f);
                        double[] expected = new double[zone.faceLength(f)];
                        for (int i = 0; i < expected.length; i++) {
                            expected[i] = TaggedZone.value(nb, back, step, i);
                        }
                        assertArrayEquals(expected, zone.received.get(f), "zone " + zone.id + " " + f + " step " + step);
                        checked.incrementAndGet();
                    }
                    zone.step(null);
                }
            }
            exchange.close();
        });
        assertEquals(3 * 16 * 4, checked.get());
    }
}
