package koma.engine.nnue;

/**
 * The net's two inner loops (the accumulator update and one perspective's share of the output), and the halving of
 * the search's history tables between searches ({@link #halve}), in scalar Java and,
 * when the JVM has the incubating Vector API ({@code --add-modules jdk.incubator.vector}; {@code ./koma} passes it),
 * on SIMD registers through {@link VectorKernels}. {@code -Dkoma.nnue.scalar=true} forces the scalar path. The
 * vector class is only loaded when chosen, so a JVM without the module never touches it.
 */
public final class Kernels {
    /** Whether the vector kernels are used. */
    static final boolean VECTOR = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
            && !Boolean.getBoolean("koma.nnue.scalar");

    private Kernels() {
    }

    /**
     * Each entry divided by 2, rounded toward 0 (Java's {@code /= 2}): the search's continuation history between
     * searches, 800 k entries in chess and up to 8 M elsewhere, which scalar code took a fifth of a 2000-node search
     * over.
     */
    public static void halve(short[] a) {
        if (VECTOR) {
            VectorKernels.halve(a);
        } else {
            halveScalar(a);
        }
    }

    static void halveScalar(short[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] /= 2;
        }
    }

    /** dst[off..off+h) = src[off..] + w[a0..] + w[a1..] - w[r0..] - w[r1..] (row offsets into w). */
    static void update(short[] src, short[] dst, int off, short[] w, int a0, int a1, int r0, int r1, int h) {
        if (VECTOR) {
            VectorKernels.update(src, dst, off, w, a0, a1, r0, r1, h);
        } else {
            updateScalar(src, dst, off, w, a0, a1, r0, r1, h);
        }
    }

    static void updateScalar(short[] src, short[] dst, int off, short[] w, int a0, int a1, int r0, int r1, int h) {
        for (int j = 0; j < h; j++) {
            dst[off + j] = (short) (src[off + j] + w[a0 + j] + w[a1 + j] - w[r0 + j] - w[r1 + j]);
        }
    }

    /** The sum over i below h of clamp(acc[off + i], 0, qa)^2 x ow[wOff + i]. */
    static long half(short[] acc, int off, short[] ow, int wOff, int h, int qa) {
        return VECTOR ? VectorKernels.half(acc, off, ow, wOff, h, qa) : halfScalar(acc, off, ow, wOff, h, qa);
    }

    /**
     * The scalar share: summed in int over blocks of 128 (a term is at most 255 x 127 x 255 = 8.3M, since output
     * weights beyond 127 are refused, so a block stays below 2^31), the blocks added as long.
     */
    static long halfScalar(short[] acc, int off, short[] ow, int wOff, int h, int qa) {
        long sum = 0;
        for (int from = 0; from < h; from += 128) {
            int to = Math.min(h, from + 128);
            int block = 0;
            for (int i = from; i < to; i++) {
                int v = Math.min(Math.max(acc[off + i], 0), qa);
                block += v * ow[wOff + i] * v;
            }
            sum += block;
        }
        return sum;
    }
}
