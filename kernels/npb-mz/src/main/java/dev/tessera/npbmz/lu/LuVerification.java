package dev.tessera.npbmz.lu;

import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneBenchmark.Verification;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * LU-MZ's verification (reference: verify.f of NPB3.4-MZ LU-MZ): the zone-summed RMS norms
 * of the residual (5) and of the solution error (5) and the zone-summed surface integral
 * (1), each compared with the class's reference value at relative tolerance 1e-8; the run
 * must also use the class's dt and iteration count. The detail lines follow verify.f's
 * format (E20.13 columns: computed, reference, relative difference).
 */
final class LuVerification {

    static final double EPSILON = 1.0e-08;

    /** Reference values per class: dt, itmax, rsdnm(1..5), errnm(1..5), frc. */
    private record Reference(double dt, int itmax, double[] residual, double[] error, double surface) {
    }

    private LuVerification() {
    }

    private static Reference reference(char c) {
        return switch (c) {
            case 'S' -> new Reference(5.0e-1, 50,
                    new double[] {0.3778579699366e+01, 0.3120418698065e+00, 0.8386213407018e+00,
                        0.4452165980488e+00, 0.7808656756434e+01},
                    new double[] {0.2429480066305e+02, 0.9072817470024e+01, 0.1032621825644e+02,
                        0.9256791727838e+01, 0.1639045777714e+02},
                    0.4964435445706e+02);
            case 'W' -> new Reference(1.5e-3, 300,
                    new double[] {0.8285060230339e+03, 0.5753415004693e+02, 0.2023477570531e+03,
                        0.1586275182502e+03, 0.1733925947816e+04},
                    new double[] {0.7514670702651e+02, 0.9776687033238e+01, 0.2141754291209e+02,
                        0.1685405918675e+02, 0.1856944519722e+03},
                    0.3781055348911e+03);
            case 'A' -> new Reference(2.0e+0, 250,
                    new double[] {0.1131574877175e+04, 0.7965206944742e+02, 0.2705587159526e+03,
                        0.2129567530746e+03, 0.2260584655432e+04},
                    new double[] {0.1115694885382e+03, 0.1089257673798e+02, 0.2905379922066e+02,
                        0.2216126755530e+02, 0.2501762341026e+03},
                    0.5904992211511e+03);
            case 'B' -> new Reference(2.0e+0, 250,
                    new double[] {0.1734656959567e+05, 0.1238977748533e+04, 0.4123885357100e+04,
                        0.3613705834056e+04, 0.3531187871586e+05},
                    new double[] {0.1781612313296e+04, 0.1177971120769e+03, 0.4233792871440e+03,
                        0.3577260438230e+03, 0.3659958544012e+04},
                    0.6107041476456e+04);
            case 'C' -> new Reference(2.0e+0, 250,
                    new double[] {0.4108743427233e+05, 0.3439004802235e+04, 0.9961331392486e+04,
                        0.8321426758084e+04, 0.7463792419218e+05},
                    new double[] {0.3429276307955e+04, 0.2336680861825e+03, 0.8216363109621e+03,
                        0.7143809828225e+03, 0.7057470798773e+04},
                    0.1125826349653e+05);
            default -> null;
        };
    }

    /** Compares {@code norms} (rsdnm 5, errnm 5, frc 1, summed over zones) with class {@code p.problemClass()}. */
    static Verification verify(MzProblem p, double[] norms) {
        if (norms == null || norms.length != 11) {
            throw new IllegalArgumentException("LU-MZ verify: expected 11 norms (rsdnm 5, errnm 5, frc 1), got "
                    + (norms == null ? "null" : norms.length));
        }
        StringBuilder out = new StringBuilder();
        out.append(" Verification being performed for class ").append(p.problemClass()).append('\n');
        out.append(" Accuracy setting for epsilon = ").append(e20(EPSILON)).append('\n');
        Reference ref = reference(p.problemClass());
        if (ref == null) {
            out.append(" No reference values for class ").append(p.problemClass()).append('\n');
            out.append(" Verification failed\n");
            return new Verification(false, out.toString());
        }
        boolean verified = true;
        if (Math.abs(p.dt() - ref.dt) > EPSILON) {
            verified = false;
            out.append(" DT does not match the reference value of ").append(e15(ref.dt)).append('\n');
        } else if (p.iterations() != ref.itmax) {
            verified = false;
            out.append(" ITMAX does not match the reference value of ").append(String.format("%5d", ref.itmax)).append('\n');
        }
        out.append(" Comparison of RMS-norms of residual\n");
        for (int m = 0; m < 5; m++) {
            verified &= line(out, m + 1, norms[m], ref.residual[m]);
        }
        out.append(" Comparison of RMS-norms of solution error\n");
        for (int m = 0; m < 5; m++) {
            verified &= line(out, m + 1, norms[5 + m], ref.error[m]);
        }
        out.append(" Comparison of surface integral\n");
        verified &= line(out, 0, norms[10], ref.surface);
        out.append(verified ? " Verification Successful\n" : " Verification failed\n");
        return new Verification(verified, out.toString());
    }

    /** One comparison line; returns whether it is within tolerance (NaN never is). */
    private static boolean line(StringBuilder out, int m, double computed, double reference) {
        double diff = Math.abs((computed - reference) / reference);
        boolean ok = !Double.isNaN(diff) && diff <= EPSILON;
        out.append(ok ? "          " : " FAILURE: ");
        out.append(m > 0 ? String.format("%2d  ", m) : "    ");
        out.append(e20(computed)).append(e20(reference)).append(e20(diff)).append('\n');
        return ok;
    }

    /** Fortran's E20.13: right-aligned in 20 columns, 0.ddddddddddddd E+xx. */
    static String e20(double x) {
        return String.format("%20s", fortranE(x, 13));
    }

    private static String e15(double x) {
        return String.format("%15s", fortranE(x, 8));
    }

    private static String fortranE(double x, int digits) {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            return Double.toString(x);
        }
        if (x == 0.0) {
            return "0." + "0".repeat(digits) + "E+00";
        }
        BigDecimal b = new BigDecimal(Math.abs(x)).round(new MathContext(digits, RoundingMode.HALF_EVEN));
        int exponent = b.precision() - b.scale();   // x = 0.ddd * 10^exponent
        String mantissa = b.unscaledValue().toString();
        mantissa = (mantissa + "0".repeat(digits)).substring(0, digits);
        String sign = x < 0 ? "-" : "";
        return sign + "0." + mantissa + "E" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
    }
}
