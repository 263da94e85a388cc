package dev.tessera.device.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.io.DataOutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Rendezvous through a TCP store on rank 0 (TESSERA_ROOT). */
@Timeout(60)
class TcpStoreRendezvousTest {

    /**
     * Rank 0's store listening on a port the system chose (port 0) and kept open: a port
     * found free, closed and bound again could be taken by another process in between.
     */
    private static TcpStoreRendezvous rootStore(String secret) {
        return new TcpStoreRendezvous("127.0.0.1:0", 0, secret);
    }

    @Test
    void everyRankGetsEveryLineAndStrangersAreDropped() throws Exception {
        int size = 4;
        TcpStoreRendezvous store0 = rootStore("sekret");
        assertTrue(store0.port() > 0);
        String root = "127.0.0.1:" + store0.port();
        // A stranger with the wrong secret connects first; it must not disturb the job.
        try (Socket s = new Socket("127.0.0.1", Integer.parseInt(root.split(":")[1]))) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(0x54535452);
            out.writeUTF("wrong");
            out.writeInt(1);
            out.writeUTF("evil");
            out.flush();
        }
        List<CompletableFuture<String[]>> tables = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(size);
        for (int r = 0; r < size; r++) {
            int rank = r;
            tables.add(CompletableFuture.supplyAsync(() -> {
                TcpStoreRendezvous store = rank == 0 ? store0 : new TcpStoreRendezvous(root, rank, "sekret");
                store.publish(rank, "line-" + rank);
                return store.gather(rank, size, Duration.ofSeconds(20));
            }, pool));
        }
        String[] expected = {"line-0", "line-1", "line-2", "line-3"};
        for (CompletableFuture<String[]> t : tables) {
            assertArrayEquals(expected, t.get(30, TimeUnit.SECONDS));
        }
        pool.shutdownNow();
    }

    @Test
    void ranksThatNeverArriveAreNamed() throws Exception {
        TcpStoreRendezvous store = rootStore("s");
        store.publish(0, "x");
        TesseraException e = assertThrows(TesseraException.class, () -> store.gather(0, 3, Duration.ofSeconds(1)));
        assertEquals(ErrorClass.PROC_FAILED, e.errorClass());
        assertTrue(e.getMessage().contains("[1, 2]"), e.getMessage());
    }
}
