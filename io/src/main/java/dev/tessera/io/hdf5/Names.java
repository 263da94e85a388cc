package dev.tessera.io.hdf5;

/** Checks names of links and attributes: non-empty, no '/', not "." (HDF5's rules). */
final class Names {

    private Names() {
    }

    static void check(String name, String what) {
        if (name == null || name.isEmpty() || name.contains("/") || name.equals(".")) {
            throw new IllegalArgumentException("invalid name '" + name + "' for " + what
                    + ": names are non-empty and hold no '/'");
        }
    }

    static String child(String parent, String name) {
        return parent.equals("/") ? "/" + name : parent + "/" + name;
    }
}
