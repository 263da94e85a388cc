package dev.tessera.io.hdf5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes an XDMF 3 master file describing per-rank HDF5 blocks as one spatial collection
 * of uniform grids: each block a 2-d or 3-d co-rectilinear mesh (its cells are the block's
 * elements, so blocks meet without gaps) whose cell-centred attributes are the fields in
 * the rank's file. Dimensions, origins and spacings are written slowest dimension first,
 * the order XDMF's CoRectMesh topologies and ORIGIN_DXDY(DZ) geometries use. File names are
 * relative to the master's directory, so the set of files can be moved together.
 */
final class XdmfMaster {

    private XdmfMaster() {
    }

    static void write(Path master, List<Path> files, List<long[][]> blocks, Map<String, Hdf5Type> fields,
            double[] origin, double[] spacing) {
        int n = blocks.getFirst()[1].length;
        if (n != 2 && n != 3) {
            throw new IllegalArgumentException(master + ": XDMF masters describe 2-d or 3-d blocks, these have " + n
                    + " dimensions (the per-rank files are written; read them directly)");
        }
        StringBuilder x = new StringBuilder();
        x.append("<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n");
        x.append("  <Grid Name=\"blocks\" GridType=\"Collection\" CollectionType=\"Spatial\">\n");
        for (int r = 0; r < files.size(); r++) {
            long[] off = blocks.get(r)[0];
            long[] cnt = blocks.get(r)[1];
            String file = master.getParent() == null ? files.get(r).toString()
                    : master.getParent().relativize(files.get(r)).toString();
            x.append("   <Grid Name=\"rank").append(r).append("\" GridType=\"Uniform\">\n");
            x.append("    <Topology TopologyType=\"").append(n).append("DCoRectMesh\" Dimensions=\"")
                    .append(dims(cnt, 1)).append("\"/>\n");
            x.append("    <Geometry GeometryType=\"ORIGIN_").append(n == 3 ? "DXDYDZ" : "DXDY").append("\">\n");
            double[] o = new double[n];
            for (int d = 0; d < n; d++) {
                o[d] = origin[d] + off[d] * spacing[d];
            }
            x.append("     <DataItem Dimensions=\"").append(n).append("\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">")
                    .append(values(o)).append("</DataItem>\n");
            x.append("     <DataItem Dimensions=\"").append(n).append("\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">")
                    .append(values(spacing)).append("</DataItem>\n");
            x.append("    </Geometry>\n");
            for (Map.Entry<String, Hdf5Type> f : fields.entrySet()) {
                x.append("    <Attribute Name=\"").append(escape(f.getKey())).append("\" AttributeType=\"Scalar\" Center=\"Cell\">\n");
                x.append("     <DataItem Dimensions=\"").append(dims(cnt, 0)).append("\" NumberType=\"")
                        .append(numberType(f.getValue())).append("\" Precision=\"").append(f.getValue().size())
                        .append("\" Format=\"HDF\">").append(escape(file)).append(":/").append(escape(f.getKey()))
                        .append("</DataItem>\n");
                x.append("    </Attribute>\n");
            }
            x.append("   </Grid>\n");
        }
        x.append("  </Grid>\n </Domain>\n</Xdmf>\n");
        try {
            Path tmp = master.resolveSibling(master.getFileName() + ".tmp");
            Files.writeString(tmp, x);
            Files.move(tmp, master, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(master + ": writing the XDMF master failed: " + e, e);
        }
    }

    private static String dims(long[] count, int plus) {
        StringBuilder b = new StringBuilder();
        for (long c : count) {
            b.append(b.isEmpty() ? "" : " ").append(c + plus);
        }
        return b.toString();
    }

    private static String values(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double d : v) {
            b.append(b.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.17g", d));
        }
        return b.toString();
    }

    private static String numberType(Hdf5Type t) {
        return switch (t) {
            case DOUBLE, FLOAT -> "Float";
            case BYTE -> "Char";
            default -> "Int";
        };
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace("\"", "&quot;");
    }
}
