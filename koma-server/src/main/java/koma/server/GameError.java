package koma.server;

/**
 * A change a live game refuses, as a domain type: what kind of refusal and a message naming the field or the
 * rule. The web layer alone maps the kind to an HTTP status ({@link KomaServer}).
 */
final class GameError extends RuntimeException {
    /** Why the change was refused. */
    enum Kind {
        /** Malformed or illegal input (HTTP 400). */
        INVALID,
        /** The caller holds no seat, or not the right one (403). */
        FORBIDDEN,
        /** No such game (404). */
        NOT_FOUND,
        /** The game's state does not allow it now: over, not started, stale ply (409). */
        CONFLICT,
        /** A per-client limit is reached (429). */
        TOO_MANY,
        /** A server-wide bound is reached or the database failed; try again later (503). */
        UNAVAILABLE
    }

    private final Kind kind;
    /** Seconds after which a retry may succeed (Retry-After), 0 when not said. */
    private final long retryAfter;
    /** The refusal's stable code for translations ({@code err.<code>} on the page), or null when it has none. */
    private String code;
    /** The values the translation of the code fills in, by name. */
    private java.util.Map<String, String> params = java.util.Map.of();

    GameError(Kind kind, String message) {
        this(kind, message, 0);
    }

    GameError(Kind kind, String message, long retryAfter) {
        super(message, null, false, false);
        this.kind = kind;
        this.retryAfter = retryAfter;
    }

    Kind kind() {
        return kind;
    }

    long retryAfter() {
        return retryAfter;
    }

    /**
     * Gives the refusal a stable code and the values its translation needs (name, value, name, value...), so that
     * the page can say it in the reader's language; the English message stays for API clients and logs.
     */
    GameError coded(String code, Object... nameValues) {
        this.code = code;
        this.params = ErrorCodes.params(nameValues);
        return this;
    }

    String code() {
        return code;
    }

    java.util.Map<String, String> params() {
        return params;
    }

    static GameError invalid(String m) {
        return new GameError(Kind.INVALID, m);
    }

    static GameError forbidden(String m) {
        return new GameError(Kind.FORBIDDEN, m);
    }

    static GameError notFound(String m) {
        return new GameError(Kind.NOT_FOUND, m);
    }

    static GameError conflict(String m) {
        return new GameError(Kind.CONFLICT, m);
    }

    static GameError tooMany(String m) {
        return new GameError(Kind.TOO_MANY, m);
    }

    static GameError unavailable(String m) {
        return new GameError(Kind.UNAVAILABLE, m);
    }
}
