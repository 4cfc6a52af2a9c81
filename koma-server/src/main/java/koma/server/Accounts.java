package koma.server;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Player accounts (docs/server-api.md, "Accounts and ratings"): sign-up with a case-insensitively unique name and an
 * Argon2id password hash, login sessions and personal API tokens (only their SHA-256 is stored), password change,
 * and deletion (the account's games stay, shown without its name). Login and sign-up attempts are rate-limited per
 * client and per name. Refusals are {@link GameError}s whose message names the field. Accounts are optional:
 * guests play exactly as without them.
 */
final class Accounts {
    static final int NAME_MIN = 2, NAME_MAX = 20, PASSWORD_MIN = 8, PASSWORD_MAX = 128;
    /** Login sessions kept per account (the oldest is ended beyond it) and API tokens per account. */
    static final int SESSIONS_PER_USER = 20, TOKENS_PER_USER = 10;
    /** How long a login session lasts, ms (the cookie's Max-Age too). */
    static final long SESSION_MS = 365L * 24 * 3600 * 1000;
    /** Sessions and tokens resolved recently, kept in memory at most. */
    static final int CACHE = 10_000;
    /** Names nobody may take (lichess refuses its own set likewise): they would pass for the site or a role. */
    static final Set<String> RESERVED = Set.of("koma", "admin", "administrator", "root", "system", "guest",
            "anonymous", "deleted", "moderator", "mod", "null", "undefined", "bot", "computer", "server", "api");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9]|[-_](?![-_]))*[A-Za-z0-9]");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

    /** An account as the server knows it. */
    record User(String id, String name, boolean bot, long createdAt) {
    }

    /** A login: the account and the session's secret, for the cookie. */
    record Session(User user, String token) {
    }

    /** An account made by an administrator and its first API token. */
    record Added(User user, String token) {
    }

    /** A personal API token as its owner sees it (the secret is shown once, at creation). */
    record TokenInfo(String id, String label, List<String> scopes, long createdAt) {
    }

    /** The scopes a token may carry (lichess's names); a login session has them all. */
    static final List<String> SCOPES = List.of("bot:play", "board:play", "challenge:read", "challenge:write");

    /** Who a request acts for: the account and what it may do. */
    record Auth(User user, Set<String> scopes) {
        boolean may(String scope) {
            return scopes.contains(scope);
        }
    }

    private final Database db;
    private final PasswordHasher hasher;
    private volatile RateLimiter perClient, perName, signups;
    /** Never matches: verified against when a name is unknown, so a wrong name costs as long as a wrong password. */
    private final String dummyHash;
    /** SHA-256 of a session or token secret → its account and scopes, least recently used first out. */
    private final Map<String, Auth> cache = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Auth> e) {
            return size() > CACHE;
        }
    };

    /**
     * @param hasher the password hash (a cheap one in tests)
     */
    Accounts(Database db, PasswordHasher hasher) {
        this.db = db;
        this.hasher = hasher;
        // 10 login attempts per client and 5 per name at once, one more every 30 s / 60 s; 5 sign-ups, one more per 10 min
        this.perClient = new RateLimiter(1 / 30.0, 10);
        this.perName = new RateLimiter(1 / 60.0, 5);
        this.signups = new RateLimiter(1 / 600.0, 5);
        this.dummyHash = hasher.hash(newSecret());
    }

    // ---- names and passwords ----

    /** Why {@code name} cannot be an account name, or null when it can. */
    static String nameRefusal(String name) {
        if (name == null || name.isEmpty()) {
            return "name: missing";
        }
        if (name.length() < NAME_MIN || name.length() > NAME_MAX) {
            return "name: must be " + NAME_MIN + " to " + NAME_MAX + " characters long, got " + name.length();
        }
        if (!NAME.matcher(name).matches()) {
            return "name: only letters A-Z, digits, '-' and '_' (not two in a row), beginning and ending with a"
                    + " letter or digit";
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            return "name: '" + name + "' is reserved";
        }
        return null;
    }

    static String passwordRefusal(String password, String name) {
        if (password == null || password.isEmpty()) {
            return "password: missing";
        }
        if (password.length() < PASSWORD_MIN || password.length() > PASSWORD_MAX) {
            return "password: must be " + PASSWORD_MIN + " to " + PASSWORD_MAX + " characters long";
        }
        if (name != null && password.equalsIgnoreCase(name)) {
            return "password: must not be the name";
        }
        return null;
    }

    // ---- sign-up, login, sessions ----

    /** Creates an account and logs it in. */
    Session signup(String name, String password, String client) {
        refuseIf(nameRefusal(name));
        refuseIf(passwordRefusal(password, name));
        limit(signups, client, "sign-ups from your address");
        User u = create(name, hasher.hash(password), false);
        return newSession(u);
    }

    /**
     * Creates an account for an administrator ({@code koma accounts add}): no password (it signs in with its API
     * token), optionally a bot. Returns the account and a first API token.
     */
    Added add(String name, boolean bot) {
        refuseIf(nameRefusal(name));
        User u = create(name, null, bot);
        return new Added(u, createToken(u, bot ? "bot" : "admin", SCOPES));
    }

    private User create(String name, String passwordHash, boolean bot) {
        long now = System.currentTimeMillis();
        User u = new User(newId(), name, bot, now);
        try {
            db.query(c -> {
                try (PreparedStatement st = c.prepareStatement("INSERT INTO users (id, name, name_key, password_hash,"
                        + " bot, created_at) VALUES (?,?,?,?,?,?)")) {
                    st.setString(1, u.id());
                    st.setString(2, name);
                    st.setString(3, name.toLowerCase(Locale.ROOT));
                    st.setString(4, passwordHash);
                    st.setInt(5, bot ? 1 : 0);
                    st.setLong(6, now);
                    st.executeUpdate();
                }
            });
        } catch (IllegalStateException e) {
            if (byName(name) != null) {
                throw GameError.conflict("name: '" + name + "' is taken").coded("nameTaken", "name", name);
            }
            throw e;
        }
        return u;
    }

    /** Checks a name and password; a wrong pair and an unknown name answer alike. */
    Session login(String name, String password, String client) {
        if (name == null || password == null || name.length() > NAME_MAX || password.length() > PASSWORD_MAX) {
            throw GameError.invalid("name or password: wrong").coded("wrongLogin");
        }
        limit(perClient, client, "login attempts from your address");
        limit(perName, name.toLowerCase(Locale.ROOT), "login attempts for '" + name + "'");
        User[] user = new User[1];
        String[] stored = new String[1];
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT id, name, bot, created_at, password_hash FROM users WHERE name_key = ?")) {
                st.setString(1, name.toLowerCase(Locale.ROOT));
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next()) {
                        user[0] = user(rs);
                        stored[0] = rs.getString(5);
                    }
                }
            }
        });
        boolean ok = hasher.verify(password, stored[0] != null ? stored[0] : dummyHash) && stored[0] != null;
        if (!ok) {
            throw GameError.forbidden("name or password: wrong").coded("wrongLogin");
        }
        return newSession(user[0]);
    }

    private Session newSession(User u) {
        String token = newSecret();
        long now = System.currentTimeMillis();
        db.transaction(c -> {
            try (PreparedStatement st = c.prepareStatement(
                    "INSERT INTO sessions (token_hash, user_id, created_at, seen_at) VALUES (?,?,?,?)")) {
                st.setString(1, GameService.hash(token));
                st.setString(2, u.id());
                st.setLong(3, now);
                st.setLong(4, now);
                st.executeUpdate();
            }
            // beyond the limit the oldest sessions end
            List<String> old = new ArrayList<>();
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT token_hash FROM sessions WHERE user_id = ? ORDER BY created_at DESC, token_hash")) {
                st.setString(1, u.id());
                try (ResultSet rs = st.executeQuery()) {
                    for (int i = 0; rs.next(); i++) {
                        if (i >= SESSIONS_PER_USER) {
                            old.add(rs.getString(1));
                        }
                    }
                }
            }
            for (String h : old) {
                deleteSession(c, h);
            }
        });
        return new Session(u, token);
    }

    private void deleteSession(Connection c, String tokenHash) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("DELETE FROM sessions WHERE token_hash = ?")) {
            st.setString(1, tokenHash);
            st.executeUpdate();
        }
        uncache(tokenHash);
    }

    /** The account of a session cookie's secret, or null (unknown, expired, or the account is deleted). */
    User bySession(String token) {
        Auth a = resolve(token, "SELECT u.id, u.name, u.bot, u.created_at, '" + String.join(" ", SCOPES) + "' FROM sessions s"
                + " JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? AND s.created_at > ? AND u.deleted_at IS NULL",
                SESSION_MS);
        return a == null ? null : a.user();
    }

    /** The account and scopes of a personal API token ({@code Authorization: Bearer ...}), or null. */
    Auth byToken(String token) {
        return resolve(token, "SELECT u.id, u.name, u.bot, u.created_at, t.scopes FROM api_tokens t JOIN users u"
                + " ON u.id = t.user_id WHERE t.token_hash = ? AND t.created_at > ? AND u.deleted_at IS NULL", -1);
    }

    private Auth resolve(String token, String sql, long maxAgeMs) {
        if (token == null || token.isEmpty() || token.length() > 100) {
            return null;
        }
        String h = GameService.hash(token);
        synchronized (cache) {
            Auth a = cache.get(h);
            if (a != null) {
                return a;
            }
        }
        Auth[] out = new Auth[1];
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement(sql)) {
                st.setString(1, h);
                st.setLong(2, maxAgeMs < 0 ? Long.MIN_VALUE : System.currentTimeMillis() - maxAgeMs);
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next()) {
                        out[0] = new Auth(user(rs),
                                Set.of(rs.getString(5).split(" ")));
                    }
                }
            }
        });
        if (out[0] != null) {
            synchronized (cache) {
                cache.put(h, out[0]);
            }
        }
        return out[0];
    }

    private void uncache(String tokenHash) {
        synchronized (cache) {
            cache.remove(tokenHash);
        }
        signOuts.accept("t:" + tokenHash);
    }

    private void uncacheUser(String userId) {
        synchronized (cache) {
            cache.values().removeIf(a -> a.user().id().equals(userId));
        }
        signOuts.accept("u:" + userId);
    }

    /** Told of each session or token this node forgets (several nodes: the others forget it too). */
    private volatile java.util.function.Consumer<String> signOuts = x -> { };

    /**
     * Several nodes: sign-outs are told to the others over {@code relay}, and the login and sign-up limits are
     * shared through it (the same allowances as a node alone).
     */
    void useRelay(Relay relay) {
        signOuts = relay::publishAuth;
        perClient = new RateLimiter(1 / 30.0, 10, relay, "login");
        perName = new RateLimiter(1 / 60.0, 5, relay, "loginname");
        signups = new RateLimiter(1 / 600.0, 5, relay, "signup");
    }

    /** Another node forgot a session or token ({@code t:<hash>}) or an account's ({@code u:<id>}): so does this one. */
    void signedOutElsewhere(String invalidation) {
        synchronized (cache) {
            if (invalidation.startsWith("t:")) {
                cache.remove(invalidation.substring(2));
            } else if (invalidation.startsWith("p:")) {
                String prefix = invalidation.substring(2);
                cache.keySet().removeIf(h -> h.startsWith(prefix));
            } else if (invalidation.startsWith("u:")) {
                String id = invalidation.substring(2);
                cache.values().removeIf(a -> a.user().id().equals(id));
            }
        }
    }

    /** Ends a login session. */
    void logout(String token) {
        if (token == null || token.length() > 100) {
            return;
        }
        db.query(c -> deleteSession(c, GameService.hash(token)));
    }

    /** Changes the password (the current one is asked); every other session of the account ends. */
    Session changePassword(User u, String current, String next) {
        refuseIf(passwordRefusal(next, u.name()));
        requirePassword(u, current);
        String h = hasher.hash(next);
        db.transaction(c -> {
            try (PreparedStatement st = c.prepareStatement("UPDATE users SET password_hash = ? WHERE id = ?")) {
                st.setString(1, h);
                st.setString(2, u.id());
                st.executeUpdate();
            }
            try (PreparedStatement st = c.prepareStatement("DELETE FROM sessions WHERE user_id = ?")) {
                st.setString(1, u.id());
                st.executeUpdate();
            }
        });
        uncacheUser(u.id());
        return newSession(u);
    }

    /**
     * Deletes an account (its password is asked): its name, password, sessions, tokens and ratings go; its games
     * and their rating history stay, shown without a name. The name becomes free again.
     */
    void delete(User u, String password) {
        requirePassword(u, password);
        db.transaction(c -> {
            for (String sql : new String[]{"DELETE FROM sessions WHERE user_id = ?", "DELETE FROM api_tokens WHERE user_id = ?",
                    "DELETE FROM ratings WHERE user_id = ?",
                    "UPDATE users SET name = NULL, name_key = NULL, password_hash = NULL, deleted_at = "
                            + System.currentTimeMillis() + " WHERE id = ?"}) {
                try (PreparedStatement st = c.prepareStatement(sql)) {
                    st.setString(1, u.id());
                    st.executeUpdate();
                }
            }
        });
        uncacheUser(u.id());
    }

    private void requirePassword(User u, String password) {
        String[] stored = new String[1];
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT password_hash FROM users WHERE id = ?")) {
                st.setString(1, u.id());
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next()) {
                        stored[0] = rs.getString(1);
                    }
                }
            }
        });
        limit(perName, u.name().toLowerCase(Locale.ROOT), "password attempts for '" + u.name() + "'");
        if (password == null || password.length() > PASSWORD_MAX || !hasher.verify(password, stored[0])) {
            throw GameError.forbidden("password: wrong").coded("wrongPassword");
        }
    }

    // ---- API tokens ----

    /** A new personal API token for {@code u} with these scopes: the secret, shown once. */
    String createToken(User u, String label, List<String> scopes) {
        if (label == null || label.isBlank() || label.length() > 40) {
            throw GameError.invalid("label: 1 to 40 characters");
        }
        if (scopes.isEmpty() || !SCOPES.containsAll(scopes)) {
            throw GameError.invalid("scopes: one or more of " + String.join(", ", SCOPES) + ", got " + scopes);
        }
        String token = "koma_" + newSecret();
        long now = System.currentTimeMillis();
        db.transaction(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT COUNT(*) FROM api_tokens WHERE user_id = ?")) {
                st.setString(1, u.id());
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) >= TOKENS_PER_USER) {
                        throw GameError.tooMany("tokens: an account holds " + TOKENS_PER_USER
                                + " API tokens at most; revoke one first");
                    }
                }
            }
            try (PreparedStatement st = c.prepareStatement(
                    "INSERT INTO api_tokens (token_hash, user_id, label, created_at, scopes) VALUES (?,?,?,?,?)")) {
                st.setString(1, GameService.hash(token));
                st.setString(2, u.id());
                st.setString(3, label.strip());
                st.setLong(4, now);
                st.setString(5, String.join(" ", new java.util.LinkedHashSet<>(scopes)));
                st.executeUpdate();
            }
        });
        return token;
    }

    /** The account's tokens; a token's id is the first 12 hex digits of its hash. */
    List<TokenInfo> tokens(User u) {
        List<TokenInfo> out = new ArrayList<>();
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT token_hash, label, created_at, scopes FROM api_tokens WHERE user_id = ? ORDER BY created_at")) {
                st.setString(1, u.id());
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        out.add(new TokenInfo(rs.getString(1).substring(0, 12), rs.getString(2),
                                List.of(rs.getString(4).split(" ")), rs.getLong(3)));
                    }
                }
            }
        });
        return out;
    }

    void revokeToken(User u, String id) {
        if (id == null || !id.matches("[0-9a-f]{12}")) {
            throw GameError.invalid("id: 12 hex digits, as the token list shows");
        }
        int[] n = {0};
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement(
                    "DELETE FROM api_tokens WHERE user_id = ? AND token_hash LIKE ?")) {
                st.setString(1, u.id());
                st.setString(2, id + "%");
                n[0] = st.executeUpdate();
            }
        });
        if (n[0] == 0) {
            throw GameError.notFound("id: you have no token " + id);
        }
        synchronized (cache) {
            cache.keySet().removeIf(h -> h.startsWith(id));
        }
        signOuts.accept("p:" + id);
    }

    /**
     * Makes the account a bot (lichess's {@code POST /api/bot/account/upgrade}): only an account that has not played
     * a game yet, and for good (a bot plays through the bot API and never in the lobby's seeks and pool).
     */
    User upgradeToBot(User u) {
        if (u.bot()) {
            throw GameError.conflict("account: already a bot");
        }
        int[] games = {0};
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT COUNT(*) FROM games WHERE first_user = ? OR second_user = ?")) {
                st.setString(1, u.id());
                st.setString(2, u.id());
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    games[0] = rs.getInt(1);
                }
            }
            if (games[0] == 0) {
                try (PreparedStatement st = c.prepareStatement("UPDATE users SET bot = 1 WHERE id = ?")) {
                    st.setString(1, u.id());
                    st.executeUpdate();
                }
            }
        });
        if (games[0] > 0) {
            throw GameError.conflict("account: only an account that has played no game can become a bot; it has "
                    + games[0]);
        }
        uncacheUser(u.id());
        return new User(u.id(), u.name(), true, u.createdAt());
    }

    // ---- reading ----

    /** The live account named {@code name} (any case), or null. */
    User byName(String name) {
        if (name == null || name.length() > NAME_MAX) {
            return null;
        }
        User[] out = new User[1];
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT id, name, bot, created_at FROM users WHERE name_key = ? AND deleted_at IS NULL")) {
                st.setString(1, name.toLowerCase(Locale.ROOT));
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next()) {
                        out[0] = user(rs);
                    }
                }
            }
        });
        return out[0];
    }

    /** The account's rating in a rule set (the start rating when it has played none). */
    Glicko2.Rating rating(String userId, String variant) {
        Glicko2.Rating[] out = {Glicko2.Rating.START};
        db.query(c -> out[0] = rating(c, userId, variant));
        return out[0];
    }

    static Glicko2.Rating rating(Connection c, String userId, String variant) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(
                "SELECT rating, deviation, volatility FROM ratings WHERE user_id = ? AND variant = ?")) {
            st.setString(1, userId);
            st.setString(2, variant);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? new Glicko2.Rating(rs.getDouble(1), rs.getDouble(2), rs.getDouble(3))
                        : Glicko2.Rating.START;
            }
        }
    }

    /** The account as a game seats it: name and rating in {@code variant} now. */
    PlayerAccount seat(User u, String variant) {
        Glicko2.Rating r = rating(u.id(), variant);
        return new PlayerAccount(u.id(), u.name(), (int) Math.round(r.rating()), r.provisional(), u.bot());
    }

    // ---- helpers ----

    /** The account of a row whose first columns are id, name, bot, created_at. */
    private static User user(ResultSet rs) throws SQLException {
        return new User(rs.getString(1), rs.getString(2), rs.getInt(3) == 1, rs.getLong(4));
    }

    private static void refuseIf(String refusal) {
        if (refusal != null) {
            throw GameError.invalid(refusal);
        }
    }

    private static void limit(RateLimiter l, String key, String what) {
        long wait = l.acquire(key);
        if (wait > 0) {
            throw new GameError(GameError.Kind.TOO_MANY, "too many " + what + "; retry after " + wait + " s", wait)
                    .coded("rateLimited", "wait", wait);
        }
    }

    static String newSecret() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static String newId() {
        StringBuilder sb = new StringBuilder(12);
        for (int i = 0; i < 12; i++) {
            sb.append(ID_ALPHABET.charAt(RANDOM.nextInt(ID_ALPHABET.length())));
        }
        return sb.toString();
    }
}
