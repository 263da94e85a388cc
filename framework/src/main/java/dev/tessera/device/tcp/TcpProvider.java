package dev.tessera.device.tcp;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.ConnectedRank;
import dev.tessera.device.DeviceProvider;
import dev.tessera.device.JobEnvironment;
import dev.tessera.device.PrivateDirectory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Provides the tcp device: one process per rank on one or more machines, a full mesh of
 * TCP connections authenticated by the job secret.
 *
 * <p>Rendezvous: TESSERA_ROOT=host:port (a TCP store on rank 0, with TESSERA_SECRET), else a
 * directory all ranks see (TESSERA_RENDEZVOUS_DIR; under mpirun or srun without it, one
 * derived from the job id in a directory of this user's, removed by rank 0 once the mesh is
 * complete). Every rendezvous directory must be this user's and not writable by others
 * ({@link PrivateDirectory}); one that is not is refused. Without
 * TESSERA_SECRET rank 0 writes a fresh one into the rendezvous directory. Other variables:
 * TESSERA_IFACE (interface or address to listen on), TESSERA_LOCAL_ONLY=1 (loopback),
 * TESSERA_EAGER_LIMIT (bytes).
 */
public final class TcpProvider implements DeviceProvider {

    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public String description() {
        return "one process per rank on one or more machines, TCP; eager limit " + TcpDevice.DEFAULT_EAGER_LIMIT + " B";
    }

    @Override
    public LaunchStyle launchStyle() {
        return LaunchStyle.PROCESSES;
    }

    @Override
    public Availability availability(Map<String, String> variables) {
        return Availability.usable("loopback and the machine's interfaces (TESSERA_IFACE picks one)");
    }

    @Override
    public ConnectedRank connect(JobEnvironment env, Link link) {
        TcpDevice tcp = connectDevice(env, link);
        int localRank = env.localRank() >= 0 ? env.localRank() : 0;
        int localSize = env.localSize() >= 0 ? env.localSize() : env.size();
        return new ConnectedRank(tcp, localRank, localSize, env.nodeId(), env.jobId() != null ? env.jobId() : "job");
    }

    /** Connects the mesh and returns the device itself (the auto device composes it). */
    public static TcpDevice connectDevice(JobEnvironment env, Link link) {
        int rank = env.rank();
        String secret = env.secret();
        Rendezvous rendezvous;
        String root = env.variable("TESSERA_ROOT", null);
        DirectoryRendezvous derived = null;
        if (root != null) {
            if (secret == null || secret.isBlank()) {
                throw new TesseraException(ErrorClass.ARG, "rank " + rank
                        + ": TESSERA_ROOT needs TESSERA_SECRET too (any hard-to-guess string, the same for every rank)");
            }
            rendezvous = new TcpStoreRendezvous(root, rank, secret);
        } else {
            Path where = rendezvousDir(env);
            try {
                PrivateDirectory.ensure(where);
            } catch (IOException e) {
                throw new TesseraException(ErrorClass.OTHER, "rank " + rank + ": " + e.getMessage(), e);
            }
            DirectoryRendezvous dir = new DirectoryRendezvous(where);
            if (secret == null || secret.isBlank()) {
                secret = dir.shared("secret", rank == 0, TcpProvider::newSecret, env.startTimeout());
            }
            rendezvous = dir;
            if (env.variable("TESSERA_RENDEZVOUS_DIR", null) == null) {
                derived = dir;
            }
        }
        long eager = env.longVariable("TESSERA_EAGER_LIMIT", TcpDevice.DEFAULT_EAGER_LIMIT);
        TcpDevice tcp = TcpMesh.connect(new TcpMesh.Spec(rank, env.size(), secret, rendezvous, address(env),
                env.startTimeout(), eager, env.nodeName()), link.failure(), link.engine());
        if (rank == 0 && derived != null) {
            // A directory we derived (mpirun, srun): every rank has read it once the mesh is complete.
            deleteTree(derived.directory());
        }
        return tcp;
    }

    private static Path rendezvousDir(JobEnvironment env) {
        String dir = env.variable("TESSERA_RENDEZVOUS_DIR", null);
        if (dir != null) {
            return Path.of(dir);
        }
        String ompiJob = env.variable("OMPI_MCA_ess_base_jobid", env.variable("OMPI_MCA_orte_ess_jobid", null));
        try {
            if (ompiJob != null) {
                // Not a fixed name in the shared /tmp (another user could make it first): a directory of this
                // user's, in $XDG_RUNTIME_DIR, $TMPDIR or the temporary directory.
                return PrivateDirectory.userBase(env.variables()).resolve("ompi-" + ompiJob.replaceAll("[^A-Za-z0-9_.-]", "_"));
            }
            String slurmJob = env.variable("SLURM_JOB_ID", null);
            if (slurmJob != null) {
                // Ranks on several nodes must see it: the home directory (shared on clusters), checked as above.
                Path base = PrivateDirectory.ensure(Path.of(env.variable("HOME", System.getProperty("java.io.tmpdir")), ".tessera"));
                return base.resolve("slurm-" + slurmJob);
            }
        } catch (IOException e) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + env.rank() + ": " + e.getMessage(), e);
        }
        throw new TesseraException(ErrorClass.OTHER, "rank " + env.rank()
                + ": no rendezvous: set TESSERA_RENDEZVOUS_DIR to a directory all ranks can see");
    }

    private static InetAddress address(JobEnvironment env) {
        try {
            String iface = env.variable("TESSERA_IFACE", null);
            if (iface != null) {
                NetworkInterface ni = NetworkInterface.getByName(iface);
                if (ni != null) {
                    return ni.inetAddresses().filter(a -> a.getAddress().length == 4).findFirst()
                            .orElseThrow(() -> new TesseraException(ErrorClass.ARG, "interface " + iface + " has no IPv4 address"));
                }
                return InetAddress.getByName(iface);
            }
            if ("1".equals(env.variable("TESSERA_LOCAL_ONLY"))) {
                return InetAddress.getLoopbackAddress();
            }
            return InetAddress.getLocalHost();
        } catch (UnknownHostException | SocketException e) {
            throw new TesseraException(ErrorClass.ARG, "cannot resolve the address to use (TESSERA_IFACE): " + e, e);
        }
    }

    static String newSecret() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a stale directory in /tmp is harmless, job ids differ
        }
    }
}
