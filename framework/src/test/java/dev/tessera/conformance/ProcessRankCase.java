package dev.tessera.conformance;

import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.io.ObjectInputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Main of a rank process in a test job: runs the serialized {@link RankCase} in its file over the world communicator. */
public final class ProcessRankCase {

    private ProcessRankCase() {
    }

    public static void main(String[] args) throws Exception {
        RankCase body;
        try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(Path.of(args[0])))) {
            body = (RankCase) in.readObject();
        }
        String level = args.length > 1 ? args[1] : null;
        try (Session rt = Tessera.init(new String[0],
                level == null ? null : dev.tessera.comm.ThreadLevel.valueOf(level))) {
            RankSessions.bind(rt);
            body.run(rt.world());
        }
    }
}
