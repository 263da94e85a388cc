package dev.tessera.npbmz.bt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The committed BlockOps.java is exactly what BlockOpsGenerator writes. */
class BlockOpsGeneratorTest {

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void blockOpsSourceIsTheGeneratorsOutput() throws IOException {
        Path file = Path.of("src/main/java/dev/tessera/npbmz/bt/BlockOps.java");
        assertEquals(new BlockOpsGenerator().source(), Files.readString(file),
                "BlockOps.java differs from BlockOpsGenerator's output: regenerate it");
    }
}
