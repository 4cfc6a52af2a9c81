package koma.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.Semaphore;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * Password hashes: Argon2id (RFC 9106) from Bouncy Castle, written as the usual PHC string
 * {@code $argon2id$v=19$m=19456,t=2,p=1$salt$hash} so the parameters can be raised later without breaking stored
 * hashes. The default cost is OWASP's recommendation (19 MiB, 2 passes, 1 lane). Hashing is CPU- and memory-heavy
 * by design, so at most {@link #CONCURRENT} run at once; the others wait their turn (login attempts are
 * rate-limited before they get here).
 */
final class PasswordHasher {
    /** Hashes computed at once at most (each takes {@link #memoryKib} KiB). */
    static final int CONCURRENT = 2;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getDecoder();

    private final int memoryKib, iterations;
    private final Semaphore slots = new Semaphore(CONCURRENT, true);

    /** OWASP's Argon2id cost; tests may pass a lower one. */
    PasswordHasher() {
        this(19_456, 2);
    }

    PasswordHasher(int memoryKib, int iterations) {
        this.memoryKib = memoryKib;
        this.iterations = iterations;
    }

    /** A new salted hash of {@code password}, as a PHC string. */
    String hash(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        byte[] h = argon2(password, salt, memoryKib, iterations, 32);
        return "$argon2id$v=19$m=" + memoryKib + ",t=" + iterations + ",p=1$" + B64.encodeToString(salt) + "$"
                + B64.encodeToString(h);
    }

    /** True when {@code password} matches the PHC string {@code stored}; false for any malformed string. */
    boolean verify(String password, String stored) {
        if (stored == null || !stored.startsWith("$argon2id$v=19$")) {
            return false;
        }
        try {
            return verifyPhc(password, stored);
        } catch (IllegalArgumentException e) { // a number or base64 that does not parse
            return false;
        }
    }

    private boolean verifyPhc(String password, String stored) {
        String[] parts = stored.split("\\$");
        if (parts.length != 6) {
            return false;
        }
        int m = 0, t = 0;
        for (String kv : parts[3].split(",")) {
            String[] p = kv.split("=", 2);
            if (p.length == 2 && p[0].equals("m")) {
                m = Integer.parseInt(p[1]);
            } else if (p.length == 2 && p[0].equals("t")) {
                t = Integer.parseInt(p[1]);
            }
        }
        if (m < 8 || m > 1 << 20 || t < 1 || t > 10) {
            return false;
        }
        byte[] salt = B64D.decode(parts[4]);
        byte[] expected = B64D.decode(parts[5]);
        return MessageDigest.isEqual(expected, argon2(password, salt, m, t, expected.length));
    }

    private byte[] argon2(String password, byte[] salt, int m, int t, int length) {
        Argon2Parameters params = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13).withMemoryAsKB(m).withIterations(t)
                .withParallelism(1).withSalt(salt).build();
        Argon2BytesGenerator gen = new Argon2BytesGenerator();
        gen.init(params);
        byte[] out = new byte[length];
        slots.acquireUninterruptibly();
        try {
            gen.generateBytes(password.getBytes(StandardCharsets.UTF_8), out);
        } finally {
            slots.release();
        }
        return out;
    }
}
