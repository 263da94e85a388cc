package dev.tessera.npb;

/**
 * What one NPB kernel run produced, as the report prints it. Every rank returns one; the
 * report uses rank 0's.
 *
 * @param name        benchmark name as the reference prints it ("EP", "MG", ...)
 * @param problemClass class letter (S, W, A, B, C)
 * @param size        problem size as printed ("256x256x256", "33554432" ...), dims joined by 'x'
 * @param iterations  iterations timed
 * @param seconds     timed wall-clock seconds (maximum over ranks, as the reference reports)
 * @param mops        Mop/s total, from the reference's operation count
 * @param operationType the reference's "Operation type" text ("Random numbers generated", "floating point", "keys ranked")
 * @param verified    whether the reference's verification passed
 * @param verificationDetail lines describing the verification (computed vs reference value), printed after the report
 * @param warmUp      the untimed work done before the timer started, next to what the reference does there
 *                    (for example "12 iterations (reference: 1)"); the report prints it under the options
 */
public record KernelResult(String name, char problemClass, String size, int iterations, double seconds,
        double mops, String operationType, boolean verified, String verificationDetail, String warmUp) {

    /** A result whose untimed part is not described. */
    public KernelResult(String name, char problemClass, String size, int iterations, double seconds,
            double mops, String operationType, boolean verified, String verificationDetail) {
        this(name, problemClass, size, iterations, seconds, mops, operationType, verified, verificationDetail, "");
    }
}
