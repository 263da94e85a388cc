package dev.tessera.npbmz;

/**
 * The four faces across which NPB-MZ zones exchange boundary values. Zones tile the x-y plane
 * (x_zones x y_zones, periodic in both directions as in the reference's exch_qbc.f); z is never split.
 */
public enum Face {
    WEST, EAST, SOUTH, NORTH
}
