package koma.protocol.match;

/** An engine could not be started or did not answer a protocol request (handshake, isready) in time. */
public class EngineException extends Exception {
    private static final long serialVersionUID = 1L;

    public EngineException(String message) {
        super(message);
    }

    public EngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
