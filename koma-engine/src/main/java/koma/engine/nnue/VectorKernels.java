package koma.engine.nnue;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The net's two inner loops and the history tables' halving on SIMD registers (the incubating Vector API), chosen by {@link Kernels} when the JVM
 * runs with {@code --add-modules jdk.incubator.vector} (as {@code ./koma} starts it). Each computes exactly what its
 * scalar twin in {@link Kernels} does; {@code KernelsTest} compares them.
 */
final class VectorKernels {
    private static final VectorSpecies<Short> S = ShortVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_PREFERRED;

    private VectorKernels() {
    }

    /**
     * Each entry divided by 2, rounded toward 0: the sign bit (1 for a negative entry) is added before the arithmetic
     * shift, so that -3 gives -1 as {@code -3 / 2} does; a negative entry plus 1 cannot overflow.
     */
    static void halve(short[] a) {
        int i = 0;
        for (int bound = S.loopBound(a.length); i < bound; i += S.length()) {
            ShortVector v = ShortVector.fromArray(S, a, i);
            v.add(v.lanewise(VectorOperators.LSHR, 15)).lanewise(VectorOperators.ASHR, 1).intoArray(a, i);
        }
        for (; i < a.length; i++) {
            a[i] /= 2;
        }
    }

    /** dst[off..off+h) = src[off..] + w[a0..] + w[a1..] - w[r0..] - w[r1..] (row offsets into w). */
    static void update(short[] src, short[] dst, int off, short[] w, int a0, int a1, int r0, int r1, int h) {
        int j = 0;
        for (int bound = S.loopBound(h); j < bound; j += S.length()) {
            ShortVector.fromArray(S, src, off + j)
                    .add(ShortVector.fromArray(S, w, a0 + j)).add(ShortVector.fromArray(S, w, a1 + j))
                    .sub(ShortVector.fromArray(S, w, r0 + j)).sub(ShortVector.fromArray(S, w, r1 + j))
                    .intoArray(dst, off + j);
        }
        for (; j < h; j++) {
            dst[off + j] = (short) (src[off + j] + w[a0 + j] + w[a1 + j] - w[r0 + j] - w[r1 + j]);
        }
    }

    /**
     * The sum over i of clamp(acc[off + i], 0, qa)^2 x ow[wOff + i] for i below h. clamp x weight fits int16
     * (255 x 127), and each int lane gathers at most 16 terms of at most 8.3M before it is added into the long.
     */
    static long half(short[] acc, int off, short[] ow, int wOff, int h, int qa) {
        long sum = 0;
        int i = 0;
        int per = S.length();
        for (int bound = S.loopBound(h); i < bound; ) {
            IntVector lanes = IntVector.zero(I);
            for (int k = 0; k < 8 && i < bound; k++, i += per) {
                ShortVector v = ShortVector.fromArray(S, acc, off + i).max((short) 0).min((short) qa);
                ShortVector vw = v.mul(ShortVector.fromArray(S, ow, wOff + i));
                for (int part = 0; part < S.length() / I.length(); part++) {
                    IntVector a = (IntVector) v.convertShape(VectorOperators.S2I, I, part);
                    IntVector b = (IntVector) vw.convertShape(VectorOperators.S2I, I, part);
                    lanes = lanes.add(a.mul(b));
                }
            }
            sum += lanes.reduceLanes(VectorOperators.ADD);
        }
        for (; i < h; i++) {
            int v = Math.min(Math.max(acc[off + i], 0), qa);
            sum += (long) v * ow[wOff + i] * v;
        }
        return sum;
    }
}
