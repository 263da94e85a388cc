package dev.tessera.launch;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * The class loader of one smp rank: loads the application's classes from its class path
 * separately for each rank, so that each rank has its own static state (as FastMPJ's
 * smpdev does). Tessera's own classes come from the parent, shared by all ranks, since
 * the ranks talk through them.
 */
final class RankClassLoader extends URLClassLoader {

    static {
        registerAsParallelCapable();
    }

    RankClassLoader(int rank, URL[] classPath, ClassLoader parent) {
        super("rank-" + rank, classPath, parent);
    }
}
