package koma.server;

/** A request that cannot be served: the HTTP status and a message naming what is wrong. */
public final class ApiException extends RuntimeException {
    private final int status;
    /** The stable code for translations, or null; see {@link GameError#coded}. */
    private String code;
    private java.util.Map<String, String> params = java.util.Map.of();

    public ApiException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** Gives the error a stable code and its translation's values (name, value, ...), as {@link GameError#coded}. */
    public ApiException coded(String code, Object... nameValues) {
        this.code = code;
        this.params = ErrorCodes.params(nameValues);
        return this;
    }

    public String code() {
        return code;
    }

    public java.util.Map<String, String> params() {
        return params;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    public static ApiException forbidden(String message) {
        return new ApiException(403, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, message);
    }

    public static ApiException conflict(String message) {
        return new ApiException(409, message);
    }
}
