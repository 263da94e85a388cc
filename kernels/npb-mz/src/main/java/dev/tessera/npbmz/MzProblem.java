package dev.tessera.npbmz;

/**
 * One class of one NPB-MZ benchmark, as the reference's setparams/npbparams.h define it.
 *
 * @param problemClass class letter
 * @param gx,gy,gz     aggregate grid points in x, y, z (gx_size, gy_size, gz_size)
 * @param xZones,yZones zones in x and y (x_zones, y_zones)
 * @param iterations   time steps (niter / itmax)
 * @param dt           time step
 */
public record MzProblem(char problemClass, int gx, int gy, int gz, int xZones, int yZones, int iterations, double dt) {

    public int zones() {
        return xZones * yZones;
    }
}
