package koma.engine.nnue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SIMD kernels compute exactly what the scalar ones do, for hidden sizes that fill the vector registers and
 * sizes that leave a tail, with accumulators beyond the clamp on both sides and output weights at the +-127 limit.
 * The test JVM runs with the Vector API (the build's argLine), so both paths are exercised.
 */
class KernelsTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 8, 16, 32, 48, 64, 100, 128, 256, 1000})
    void vectorEqualsScalar(int h) {
        assertTrue(Kernels.VECTOR, "the test JVM should have jdk.incubator.vector (see the surefire argLine)");
        Random r = new Random(h);
        short[] acc = new short[3 * h], ow = new short[2 * h], w = new short[6 * h];
        for (int i = 0; i < acc.length; i++) {
            acc[i] = (short) (r.nextInt(700) - 200);
        }
        for (int i = 0; i < ow.length; i++) {
            ow[i] = (short) (r.nextInt(255) - 127);
        }
        for (int i = 0; i < w.length; i++) {
            w[i] = (short) (r.nextInt(1000) - 500);
        }
        for (int off : new int[]{0, h}) {
            assertEquals(Kernels.halfScalar(acc, off, ow, 0, h, 255), VectorKernels.half(acc, off, ow, 0, h, 255));
            assertEquals(Kernels.halfScalar(acc, off, ow, h, h, 255), VectorKernels.half(acc, off, ow, h, h, 255));
            short[] a = new short[3 * h], b = new short[3 * h];
            Kernels.updateScalar(acc, a, off, w, 0, 2 * h, h, 5 * h, h);
            VectorKernels.update(acc, b, off, w, 0, 2 * h, h, 5 * h, h);
            assertArrayEquals(a, b);
        }
        // all at the clamp and the weight limit: the largest sum, still exact
        java.util.Arrays.fill(acc, (short) 300);
        java.util.Arrays.fill(ow, (short) 127);
        assertEquals(255L * 255 * 127 * h, VectorKernels.half(acc, 0, ow, 0, h, 255));
        assertEquals(255L * 255 * 127 * h, Kernels.halfScalar(acc, 0, ow, 0, h, 255));
    }

    /**
     * The vector halving equals Java's {@code /= 2} (rounding toward 0) on every short value, at lengths that fill
     * the registers and lengths with a tail.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 15, 16, 65536, 65536 + 7})
    void vectorHalvingEqualsScalar(int n) {
        short[] a = new short[n];
        for (int i = 0; i < n; i++) {
            a[i] = (short) (i * 40503 + Short.MIN_VALUE);
        }
        a[0] = Short.MIN_VALUE;
        short[] b = a.clone();
        Kernels.halveScalar(a);
        VectorKernels.halve(b);
        assertArrayEquals(a, b);
        assertEquals(Short.MIN_VALUE / 2, b[0]);
    }
}
