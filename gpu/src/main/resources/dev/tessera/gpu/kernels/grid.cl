/*
 * Tessera's built-in grid kernels, one source for OpenCL C and CUDA C++ through the
 * macros of dev.tessera.gpu.KernelPrelude. Fields are padded 3D blocks, dimension 2
 * fastest: cell (i, j, k) is at (i * p1 + j) * p2 + k. A box is (i0, j0, k0) + [0, ni) x
 * [0, nj) x [0, nk); box kernels run over WorkSize (nk, nj, ni), so work-item dimension 0
 * walks the contiguous k.
 * The CPU backend runs the Java bodies in dev.tessera.gpu.GridKernels: keep them in step.
 */

KERNEL fill_double(GLOBAL double* RESTRICT a, long n, double v) {
    long i = GLOBAL_ID(0);
    if (i < n) {
        a[i] = v;
    }
}

/* y += alpha * x */
KERNEL axpy_double(GLOBAL double* RESTRICT y, GLOBAL const double* RESTRICT x, double alpha, long n) {
    long i = GLOBAL_ID(0);
    if (i < n) {
        y[i] += alpha * x[i];
    }
}

/* out[outOffset + (i * nj + j) * nk + k] = field(i0 + i, j0 + j, k0 + k) */
KERNEL pack_box_double(GLOBAL const double* RESTRICT field, GLOBAL double* RESTRICT out, long outOffset,
                       int p1, int p2, int i0, int j0, int k0, int ni, int nj, int nk) {
    long k = GLOBAL_ID(0);
    long j = GLOBAL_ID(1);
    long i = GLOBAL_ID(2);
    if (i < ni && j < nj && k < nk) {
        out[outOffset + (i * nj + j) * nk + k] = field[((i0 + i) * p1 + (j0 + j)) * p2 + (k0 + k)];
    }
}

/* field(i0 + i, j0 + j, k0 + k) = in[inOffset + (i * nj + j) * nk + k] */
KERNEL unpack_box_double(GLOBAL const double* RESTRICT in, long inOffset, GLOBAL double* RESTRICT field,
                         int p1, int p2, int i0, int j0, int k0, int ni, int nj, int nk) {
    long k = GLOBAL_ID(0);
    long j = GLOBAL_ID(1);
    long i = GLOBAL_ID(2);
    if (i < ni && j < nj && k < nk) {
        field[((i0 + i) * p1 + (j0 + j)) * p2 + (k0 + k)] = in[inOffset + (i * nj + j) * nk + k];
    }
}

/*
 * One explicit Euler step of u_t = laplace(u) with the 7-point Laplacian over the box:
 * out = in + r * (sum of the six neighbours - 6 in), r = dt / h^2. The expression is
 * written in the order of the Java reference (Heat3D), and contraction is off, so both
 * round alike.
 */
KERNEL laplace_step_double(GLOBAL const double* RESTRICT in, GLOBAL double* RESTRICT out, double r,
                           int p1, int p2, int i0, int j0, int k0, int ni, int nj, int nk) {
    long k = GLOBAL_ID(0);
    long j = GLOBAL_ID(1);
    long i = GLOBAL_ID(2);
    if (i < ni && j < nj && k < nk) {
        long si = (long) p1 * p2;
        long sj = p2;
        long c = ((i0 + i) * p1 + (j0 + j)) * p2 + (k0 + k);
        out[c] = in[c] + r * (in[c - si] + in[c + si] + in[c - sj] + in[c + sj] + in[c - 1] + in[c + 1] - 6.0 * in[c]);
    }
}
