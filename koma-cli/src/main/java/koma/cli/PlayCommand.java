package koma.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import koma.engine.Limits;
import koma.engine.Search;
import koma.engine.TimeManager;
import koma.engine.TranspositionTable;
import koma.protocol.Board;
import koma.rules.Game;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.NotationException;
import koma.rules.notation.San;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code koma play}: a game against the engine in the terminal. The board is drawn in text with coordinates;
 * moves are typed in the rule set's notation (UCI strings such as {@code e2e4}, {@code d9d10+},
 * {@code P@e5}; USI for shogi; SAN also for chess and Shodo); {@code undo}, {@code hint}, {@code resign},
 * {@code moves}, {@code fen} and {@code quit} are commands.
 */
@Command(name = "play", mixinStandardHelpOptions = true,
        description = {"Plays a game against the engine in the terminal. Type moves in the rule set's notation "
                + "(e2e4, Nf3, d9d10+, P@e5; shogi in USI: 7g7f, P*5e), or: undo, hint, moves, fen, claim, resign, quit."})
public final class PlayCommand implements Callable<Integer> {
    @Mixin
    VariantOption variant;

    @Option(names = "--color", defaultValue = "first", description = "Your side: first or second. Default: first.")
    String color;

    @Option(names = "--movetime", defaultValue = "1000", description = "Engine thinking time per move, ms.")
    long moveTime;

    @Option(names = "--skill", defaultValue = "20", description = "Engine skill level 0..20 (20 = full strength).")
    int skill;

    @Option(names = "--fen", description = "Start from this FEN (SFEN for shogi).")
    String fen;

    private final PrintStream out = System.out;

    @Override
    public Integer call() throws Exception {
        RuleSet rs = variant.rules();
        if (!color.equals("first") && !color.equals("second")) {
            throw new IllegalArgumentException("--color must be first or second, got '" + color + "'");
        }
        if (skill < 0 || skill > 20) {
            throw new IllegalArgumentException("--skill must be from 0 to 20, got " + skill);
        }
        Position start = fen == null ? Position.start(rs) : Position.fromFen(rs, fen);
        int human = color.equals("first") ? 0 : 1;
        MoveNotation.Style style = Variants.style(rs);
        boolean shogiStyle = style == MoveNotation.Style.USI;
        Search search = new Search(rs, new TranspositionTable(32));
        search.setSkill(skill, System.nanoTime());
        TimeManager time = new TimeManager(0);
        List<Integer> moves = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (true) {
            Game game = replay(start, moves);
            Position p = game.position();
            out.println();
            out.print(Board.draw(p, shogiStyle));
            if (game.isOver()) {
                out.println("Game over: " + game.result().get());
                return 0;
            }
            if (p.sideToMove() != human) {
                search.resetStop();
                Search.Result r = search.search(p.copyWithHistory(), Limits.moveTime(moveTime), time, null);
                out.println("Koma plays " + MoveNotation.format(p, r.bestMove(), style));
                moves.add(r.bestMove());
                continue;
            }
            out.print("Your move> ");
            out.flush();
            String line = in.readLine();
            if (line == null || line.strip().equals("quit")) {
                return 0;
            }
            line = line.strip();
            switch (line) {
                case "" -> {
                }
                case "help" -> out.println("moves like e2e4, Nf3, d9d10+, P@e5 (shogi: 7g7f, P*5e); undo, hint, moves, "
                        + "fen, claim (a draw by repetition or the 50-move rule), resign, quit");
                case "undo" -> {
                    int back = Math.min(moves.size(), moves.size() >= 2 ? 2 : moves.size());
                    for (int i = 0; i < back; i++) {
                        moves.remove(moves.size() - 1);
                    }
                }
                case "hint" -> {
                    search.resetStop();
                    Search.Result r = search.search(p.copyWithHistory(), Limits.moveTime(Math.min(moveTime, 500)), time, null);
                    out.println("Hint: " + MoveNotation.format(p, r.bestMove(), style));
                }
                case "moves" -> {
                    List<String> names = new ArrayList<>();
                    for (int m : p.legalMoves()) {
                        names.add(MoveNotation.format(p, m, style));
                    }
                    out.println(String.join(" ", names));
                }
                case "fen" -> out.println(Fen.format(p));
                case "resign" -> {
                    out.println("Game over: " + game.resign(human));
                    return 0;
                }
                case "claim" -> {
                    if (game.canClaimDraw()) {
                        out.println("Game over: " + game.claimDraw());
                        return 0;
                    }
                    out.println("No draw can be claimed now.");
                }
                default -> {
                    try {
                        moves.add(parse(p, line, style));
                    } catch (NotationException e) {
                        out.println(e.getMessage());
                    }
                }
            }
        }
    }

    /** The game from the start position after the moves (rebuilt after each change, so undo is simple). */
    private static Game replay(Position start, List<Integer> moves) {
        Game g = new Game(start, Game.Options.DEFAULT);
        for (int m : moves) {
            g.play(m);
        }
        return g;
    }

    /** A move in the protocol notation, or SAN in chess and Shodo. */
    private static int parse(Position p, String text, MoveNotation.Style style) {
        try {
            return MoveNotation.parse(p, text, style);
        } catch (NotationException e) {
            if (!p.ruleSet().sfen && p.geometry().files == 8) {
                return San.parse(p, text);
            }
            throw e;
        }
    }
}
