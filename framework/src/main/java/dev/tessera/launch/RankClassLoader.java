package dev.tessera.launch;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * The class loader of one smp rank: loads the application's classes from its class path
 * separately for each rank, so that each rank has its own static state (as FastMPJ's
 * smpdev does). Tessera's own classes come from the parent, shared by all ranks, since
 * the ranks talk through them.
 *
 * <p>The exception is the mpiJava facade, package {@code mpi}: its classes hold per-rank
 * static state ({@code MPI.COMM_WORLD}), so this loader defines its own copy of every
 * {@code mpi.*} class (child-first), reading the class bytes through the parent (from the
 * framework jar, or wherever the parent finds them); only when the parent has no such
 * class does the rank's own class path supply it.
 */
final class RankClassLoader extends URLClassLoader {

    /** Packages defined per rank even though the parent can load them. */
    private static final String PER_RANK_PREFIX = "mpi.";

    static {
        registerAsParallelCapable();
    }

    RankClassLoader(int rank, URL[] classPath, ClassLoader parent) {
        super("rank-" + rank, classPath, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(PER_RANK_PREFIX)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] bytes = parentBytes(name);
                c = bytes != null ? defineClass(name, bytes, 0, bytes.length) : findClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private byte[] parentBytes(String name) throws ClassNotFoundException {
        ClassLoader parent = getParent();
        String resource = name.replace('.', '/') + ".class";
        try (InputStream in = parent == null ? ClassLoader.getSystemResourceAsStream(resource)
                : parent.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name + ": cannot read " + resource + " (" + e + ")", e);
        }
    }
}
