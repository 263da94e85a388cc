package dev.tessera.io.checkpoint;

import dev.tessera.comm.Datatype;
import java.io.IOException;
import java.io.Serializable;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.zip.CRC32C;

/**
 * The table of contents of a checkpoint, written last (by rank 0) and checksummed itself:
 * a checkpoint is complete exactly when its directory has its final name and its manifest
 * parses with a matching checksum; the files it lists must then have the recorded sizes
 * and checksums.
 *
 * <pre>
 *   tessera-checkpoint 1
 *   step 42
 *   ranks 4
 *   time 2026-11-24T01:02:03Z
 *   meta &lt;key&gt; &lt;value&gt;                       (URL-encoded; rank 0's metadata)
 *   file rank-00000.bin &lt;bytes&gt; &lt;crc32c&gt;
 *   dist &lt;name&gt; &lt;type&gt; &lt;sizes&gt; &lt;bytes&gt; &lt;chunk crc32c,...&gt;   (file dist-&lt;name&gt;.raw)
 *   block &lt;name&gt; &lt;rank&gt; &lt;starts&gt; &lt;subsizes&gt;          (the block each rank wrote)
 *   end &lt;crc32c of every line above&gt;
 * </pre>
 */
record Manifest(int version, long step, int ranks, String time, Map<String, String> metadata,
                List<FileEntry> files, List<DistEntry> dists) implements Serializable {

    static final String NAME = "MANIFEST";
    static final int VERSION = 1;

    record FileEntry(String name, long bytes, int crc) implements Serializable {
    }

    /** A distributed array: global shape, its file, chunk checksums and the block each saving rank wrote. */
    record DistEntry(String name, Datatype type, int[] sizes, long bytes, int[] chunkCrcs, List<int[][]> blocks)
            implements Serializable {
        String file() {
            return "dist-" + name + ".raw";
        }
    }

    void write(Path file) throws IOException {
        StringBuilder s = new StringBuilder();
        s.append("tessera-checkpoint ").append(version).append('\n');
        s.append("step ").append(step).append('\n');
        s.append("ranks ").append(ranks).append('\n');
        s.append("time ").append(time).append('\n');
        metadata.forEach((k, v) -> s.append("meta ").append(enc(k)).append(' ').append(enc(v)).append('\n'));
        for (FileEntry f : files) {
            s.append("file ").append(f.name()).append(' ').append(f.bytes()).append(' ').append(hex(f.crc())).append('\n');
        }
        for (DistEntry d : dists) {
            s.append("dist ").append(d.name()).append(' ').append(d.type()).append(' ').append(csv(d.sizes())).append(' ')
                    .append(d.bytes()).append(' ')
                    .append(Arrays.stream(d.chunkCrcs()).mapToObj(Manifest::hex).collect(Collectors.joining(",", "[", "]")))
                    .append('\n');
            for (int r = 0; r < d.blocks().size(); r++) {
                int[][] b = d.blocks().get(r);
                s.append("block ").append(d.name()).append(' ').append(r).append(' ').append(csv(b[0])).append(' ')
                        .append(csv(b[1])).append('\n');
            }
        }
        CRC32C crc = new CRC32C();
        byte[] body = s.toString().getBytes(StandardCharsets.UTF_8);
        crc.update(body);
        s.append("end ").append(hex((int) crc.getValue())).append('\n');
        Files.writeString(file, s, StandardCharsets.UTF_8);
    }

    /** Parses and verifies a manifest; the exception says what is wrong. */
    static Manifest read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int endAt = text.lastIndexOf("end ");
        if (endAt < 0 || !text.endsWith("\n")) {
            throw new IOException("manifest " + file + " is torn (no end line)");
        }
        CRC32C crc = new CRC32C();
        crc.update(text.substring(0, endAt).getBytes(StandardCharsets.UTF_8));
        String recorded = text.substring(endAt + 4).trim();
        if (!recorded.equals(hex((int) crc.getValue()))) {
            throw new IOException("manifest " + file + " checksum mismatch (CRC32C " + hex((int) crc.getValue())
                    + ", recorded " + recorded + ")");
        }
        int version = -1;
        long step = -1;
        int ranks = -1;
        String time = "";
        Map<String, String> meta = new LinkedHashMap<>();
        List<FileEntry> files = new ArrayList<>();
        Map<String, DistEntry> dists = new LinkedHashMap<>();
        Map<String, List<int[][]>> blocks = new LinkedHashMap<>();
        for (String line : text.substring(0, endAt).split("\n")) {
            String[] w = line.split(" ");
            try {
                switch (w[0]) {
                    case "tessera-checkpoint" -> version = Integer.parseInt(w[1]);
                    case "step" -> step = Long.parseLong(w[1]);
                    case "ranks" -> ranks = Integer.parseInt(w[1]);
                    case "time" -> time = w[1];
                    case "meta" -> meta.put(dec(w[1]), dec(w.length > 2 ? w[2] : ""));
                    case "file" -> files.add(new FileEntry(w[1], Long.parseLong(w[2]), parseHex(w[3])));
                    case "dist" -> {
                        String body = w[5].substring(1, w[5].length() - 1);
                        int[] crcs = body.isEmpty() ? new int[0]
                                : Arrays.stream(body.split(",")).mapToInt(Manifest::parseHex).toArray();
                        List<int[][]> bl = new ArrayList<>();
                        blocks.put(w[1], bl);
                        dists.put(w[1], new DistEntry(w[1], Datatype.valueOf(w[2]), parseCsv(w[3]), Long.parseLong(w[4]), crcs, bl));
                    }
                    case "block" -> blocks.get(w[1]).add(new int[][] {parseCsv(w[3]), parseCsv(w[4])});
                    default -> throw new IOException("unknown line");
                }
            } catch (RuntimeException | IOException e) {
                throw new IOException("manifest " + file + ": bad line '" + line + "': " + e.getMessage(), e);
            }
        }
        if (version != VERSION) {
            throw new IOException("manifest " + file + ": format version " + version + ", this reader knows " + VERSION);
        }
        return new Manifest(version, step, ranks, time, meta, files, new ArrayList<>(dists.values()));
    }

    DistEntry dist(String name) {
        for (DistEntry d : dists) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        return null;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String dec(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    static String hex(int v) {
        return String.format("%08x", v);
    }

    private static int parseHex(String s) {
        return Integer.parseUnsignedInt(s, 16);
    }

    private static String csv(int[] a) {
        return Arrays.stream(a).mapToObj(Integer::toString).collect(Collectors.joining(","));
    }

    private static int[] parseCsv(String s) {
        return Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
    }
}
