package dev.tessera.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The processor's vendor and family as /proc/cpuinfo gives them, for the defaults that the
 * shared-memory device chooses by kind of machine (single copy, docs/performance.md, stops 42
 * and 54).
 *
 * @param vendor the {@code vendor_id} ({@code GenuineIntel}, {@code AuthenticAMD}, ...), or ""
 * @param family the {@code cpu family}, or -1 where it is missing or unreadable
 */
public record CpuKind(String vendor, int family) {

    /** This machine's ("" and -1 without a readable /proc/cpuinfo). */
    public static final CpuKind THIS = read();

    private static CpuKind read() {
        try {
            return parse(Files.readString(Path.of("/proc/cpuinfo")));
        } catch (IOException | RuntimeException e) {
            return new CpuKind("", -1);   // not Linux
        }
    }

    /** The first processor's vendor and family in the text of /proc/cpuinfo. */
    public static CpuKind parse(String cpuinfo) {
        String vendor = null;
        int family = -2;
        for (String line : cpuinfo.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            if (vendor == null && key.equals("vendor_id")) {
                vendor = value;
            } else if (family == -2 && key.equals("cpu family")) {
                try {
                    family = Integer.parseInt(value);
                } catch (NumberFormatException e) {
                    family = -1;
                }
            }
            if (vendor != null && family != -2) {
                break;
            }
        }
        return new CpuKind(vendor == null ? "" : vendor, Math.max(family, -1));
    }

    public boolean intel() {
        return vendor.equals("GenuineIntel");
    }

    public boolean amd() {
        return vendor.equals("AuthenticAMD");
    }

    /**
     * Whether the shm device sends by single copy (process_vm_readv) by default: on Intel
     * processors and on AMD before family 26 (Zen 1 to Zen 4); not on AMD family 26 (Zen 5),
     * whose ring measured 4 x faster, nor on others. docs/performance.md: on the Intel Xeon VMs a
     * ping-pong of 64 KiB-1 MiB took 0.85-0.91 x Open MPI's time by single copy, 1.2-1.7 x through
     * the ring (stop 42); on the family 26 EPYC process_vm_readv moved 1 MiB in 99-105 us, the
     * ring's two pipelined copies in 22-25 (2026-11-24); on the family 25 (Zen 3) EPYC of stop 54,
     * alternating rounds, single copy was faster at 64 KiB, 256 KiB and 1 MiB in 3 of 3 with heap
     * arrays and native segments (1 MiB 128-143 us against 183-265; Open MPI 147), in 7 of 9
     * size-rounds of a second series, in NPB IS class A 2x1 in 4 of 5 and in the two-rank bcast
     * of 256 KiB and 1 MiB in 2 of 2 (1 MiB 126-136 us against 252-264): that VM's ring and
     * slots were slow in most runs (1 MiB 45-47 us in its fast phase, 180-280 in its slow one).
     */
    public boolean singleCopyByDefault() {
        return intel() || (amd() && family >= 0 && family < 26);
    }
}
