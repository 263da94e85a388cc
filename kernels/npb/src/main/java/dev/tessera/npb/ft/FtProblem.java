package dev.tessera.npb.ft;

/**
 * One FT problem class: grid nx x ny x nz, iterations, and the reference checksums of
 * every iteration.
 *
 * <p>Sources: sizes and iteration counts from NPB3.4-MPI/sys/setparams.c
 * ({@code write_ft_info}); checksums from NPB3.4-MPI/FT/ft.f ({@code verify},
 * {@code csum_ref}); tolerance 1e-12 relative from the same routine.
 */
record FtProblem(char problemClass, int nx, int ny, int nz, int iterations, double[] checksumRe, double[] checksumIm) {

    /** Relative tolerance of each checksum (FT/ft.f verify: epsilon = 1.0d-12). */
    static final double EPSILON = 1.0e-12;

    /** Total grid points. */
    long points() {
        return (long) nx * ny * nz;
    }

    /** The class, or IllegalArgumentException naming the allowed letters. */
    static FtProblem of(char problemClass) {
        return switch (Character.toUpperCase(problemClass)) {
            case 'S' -> new FtProblem('S', 64, 64, 64, 6,
                    new double[] {5.546087004964e+02, 5.546385409189e+02, 5.546148406171e+02,
                        5.545423607415e+02, 5.544255039624e+02, 5.542683411902e+02},
                    new double[] {4.845363331978e+02, 4.865304269511e+02, 4.883910722336e+02,
                        4.901273169046e+02, 4.917475857993e+02, 4.932597244941e+02});
            case 'W' -> new FtProblem('W', 128, 128, 32, 6,
                    new double[] {5.673612178944e+02, 5.631436885271e+02, 5.594024089970e+02,
                        5.560698047020e+02, 5.530898991250e+02, 5.504159734538e+02},
                    new double[] {5.293246849175e+02, 5.282149986629e+02, 5.270996558037e+02,
                        5.260027904925e+02, 5.249400845633e+02, 5.239212247086e+02});
            case 'A' -> new FtProblem('A', 256, 256, 128, 6,
                    new double[] {5.046735008193e+02, 5.059412319734e+02, 5.069376896287e+02,
                        5.077892868474e+02, 5.085233095391e+02, 5.091487099959e+02},
                    new double[] {5.114047905510e+02, 5.098809666433e+02, 5.098144042213e+02,
                        5.101336130759e+02, 5.104914655194e+02, 5.107917842803e+02});
            case 'B' -> new FtProblem('B', 512, 256, 256, 20,
                    new double[] {5.177643571579e+02, 5.154521291263e+02, 5.146409228649e+02,
                        5.142378756213e+02, 5.139626667737e+02, 5.137423460082e+02,
                        5.135547056878e+02, 5.133910925466e+02, 5.132470705390e+02,
                        5.131197729984e+02, 5.130070319283e+02, 5.129070537032e+02,
                        5.128182883502e+02, 5.127393733383e+02, 5.126691062020e+02,
                        5.126064276004e+02, 5.125504076570e+02, 5.125002331720e+02,
                        5.124551951846e+02, 5.124146770029e+02},
                    new double[] {5.077803458597e+02, 5.088249431599e+02, 5.096208912659e+02,
                        5.101023387619e+02, 5.103976610617e+02, 5.105948019802e+02,
                        5.107404165783e+02, 5.108576573661e+02, 5.109577278523e+02,
                        5.110460304483e+02, 5.111252433800e+02, 5.111968077718e+02,
                        5.112616233064e+02, 5.113203605551e+02, 5.113735928093e+02,
                        5.114218460548e+02, 5.114656139760e+02, 5.115053595966e+02,
                        5.115415130407e+02, 5.115744692211e+02});
            case 'C' -> new FtProblem('C', 512, 512, 512, 20,
                    new double[] {5.195078707457e+02, 5.155422171134e+02, 5.144678022222e+02,
                        5.140150594328e+02, 5.137550426810e+02, 5.135811056728e+02,
                        5.134569343165e+02, 5.133651975661e+02, 5.132955192805e+02,
                        5.132410471738e+02, 5.131971141679e+02, 5.131605205716e+02,
                        5.131290734194e+02, 5.131012720314e+02, 5.130760908195e+02,
                        5.130528295923e+02, 5.130310107773e+02, 5.130103090133e+02,
                        5.129905029333e+02, 5.129714421109e+02},
                    new double[] {5.149019699238e+02, 5.127578201997e+02, 5.122251847514e+02,
                        5.121090289018e+02, 5.121143685824e+02, 5.121496764568e+02,
                        5.121870921893e+02, 5.122193250322e+02, 5.122454735794e+02,
                        5.122663649603e+02, 5.122830879827e+02, 5.122965869718e+02,
                        5.123075927445e+02, 5.123166486553e+02, 5.123241541685e+02,
                        5.123304037599e+02, 5.123356167976e+02, 5.123399592211e+02,
                        5.123435588985e+02, 5.123465164008e+02});
            default -> throw new IllegalArgumentException("FT: unknown class '" + problemClass
                    + "' (FT runs classes S, W, A, B, C)");
        };
    }

    /**
     * Operation count of a run, the formula of NPB3.4-MPI/FT/ft.f (main program):
     * ntotal * (14.8157 + 7.19641 ln ntotal + (5.23518 + 7.21113 ln ntotal) * niter).
     */
    double operations() {
        double nt = points();
        return nt * (14.8157 + 7.19641 * Math.log(nt) + (5.23518 + 7.21113 * Math.log(nt)) * iterations);
    }
}
