package dev.tessera.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The build's version, filtered into a resource by Maven. */
final class Version {

    static final String VERSION = load();

    private Version() {
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
