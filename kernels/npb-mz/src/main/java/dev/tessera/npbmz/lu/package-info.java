/**
 * LU-MZ: the NPB LU solver (SSOR on the five coupled Navier-Stokes-like equations with a
 * manufactured solution) on each of the 4 x 4 equal zones of NPB3.4-MZ's LU-MZ.
 *
 * <ul>
 *   <li>{@link dev.tessera.npbmz.lu.LuMz}: the benchmark (classes, verification, Mop/s), loaded
 *       by name by the multi-zone driver;</li>
 *   <li>{@link dev.tessera.npbmz.lu.LuZone}: one zone's solver (arrays, set-up, one SSOR step
 *       over a team, boundary faces, verification norms);</li>
 *   <li>LuSweeps: the lower and upper triangular sweeps with the Jacobian blocks computed
 *       where they are used; LuResidual: the residual rhs; SweepPipeline: the counters that
 *       order the sweeps' row blocks over the team's members and the step's barriers;
 *       LuCoefficients: the class's constants and the exact solution; LuVerification:
 *       verify.f's reference values and report lines.</li>
 * </ul>
 *
 * <p>Reference: NPB3.4-MZ (NASA, github LLNL/NPB), LU-MZ in its MPI and OpenMP versions; each
 * class cites the Fortran files it follows.
 */
package dev.tessera.npbmz.lu;
