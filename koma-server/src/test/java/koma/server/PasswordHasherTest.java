package koma.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Argon2id hashes: a vector of the reference implementation, salts, and malformed stored strings. */
class PasswordHasherTest {
    private final PasswordHasher hasher = new PasswordHasher(64, 1);

    @Test
    void verifiesTheReferenceImplementationsHash() {
        // Debian's `argon2` (the reference implementation, phc-winner-argon2):
        // echo -n password | argon2 somesalt -id -t 2 -m 16 -p 1 -l 32
        String reference = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
        assertTrue(hasher.verify("password", reference));
        assertFalse(hasher.verify("Password", reference));
    }

    @Test
    void hashesAreSaltedAndVerify() {
        String a = hasher.hash("correct horse"), b = hasher.hash("correct horse");
        assertTrue(a.startsWith("$argon2id$v=19$m=64,t=1,p=1$"), a);
        assertNotEquals(a, b, "a fresh salt per hash");
        assertTrue(hasher.verify("correct horse", a));
        assertFalse(hasher.verify("correct horse!", a));
    }

    @Test
    void malformedStoredHashesNeverVerify() {
        for (String bad : new String[]{null, "", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$aGFzaA", "$argon2id$v=19$m=64",
                "$argon2id$v=19$m=99999999,t=1,p=1$c29tZXNhbHQ$CTFh", "$argon2id$v=19$m=x,t=1,p=1$c2FsdA$aGFzaA",
                "$argon2id$v=19$m=64,t=1,p=1$!!$aGFzaA", "plain"}) {
            assertFalse(hasher.verify("x", bad), String.valueOf(bad));
        }
    }
}
