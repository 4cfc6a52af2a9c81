package koma.protocol.match;

import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;

/**
 * One running engine, seen from the referee: a protocol client over a child process. The referee owns the game
 * (positions, legality, clocks); a client only relays. {@link UciClient} speaks UCI and USI, {@link XBoardClient} XBoard
 * (keeping track of the moves it has already sent).
 */
public interface EngineClient extends AutoCloseable {
    /** The configured name, else the engine's own ({@code id name}), else the command. */
    String name();

    /** The coordinate style of the move strings this engine reads and writes. */
    MoveNotation.Style style();

    /** Prepares a new game (UCI {@code ucinewgame} + {@code isready}); throws when the engine does not answer. */
    void newGame() throws EngineException;

    /**
     * Asks for a move and waits for it at most {@code timeoutMs} of wall time. Never throws: a late, missing or
     * broken answer comes back as {@link Reply.Kind#TIMEOUT} or {@link Reply.Kind#CRASH}.
     */
    Reply think(ThinkRequest request, long timeoutMs);

    /**
     * Tells the engine the game is over; {@code result} from its point of view: {@code +1} won, {@code 0} drawn,
     * {@code -1} lost. Optional for the protocol (USI {@code gameover}).
     */
    default void gameOver(int result) {
    }

    /** False once the engine has crashed or failed to answer: the owner should close it and start a new one. */
    boolean healthy();

    /** Asks the engine to quit, then ends the process (and its children) if it does not. */
    @Override
    void close();

    /** Ends the engine process at once (an aborted match, a shutdown hook). */
    void kill();

    /** Starts an engine for the rule set: process, handshake, options, ready. */
    static EngineClient start(EngineConfig config, RuleSet rules) throws EngineException {
        return switch (config.protocol()) {
            case UCI, USI -> UciClient.start(config, rules);
            case XBOARD -> XBoardClient.start(config, rules);
        };
    }
}
