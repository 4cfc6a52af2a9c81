package koma.protocol.match;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import koma.rules.Game;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * A game's opening: a root position and moves played from it before the engines take over (recorded as book
 * moves). Each opening is played twice by a match, once with each engine first.
 */
public record Opening(Position root, List<Integer> moves, String source) {
    public Opening {
        root = root.copy();
        moves = List.copyOf(moves);
    }

    /** The rule set's start position, no moves. */
    public static Opening start(RuleSet rs) {
        return new Opening(Position.start(rs), List.of(), "startpos");
    }

    /** Whether the root is the rule set's start position (so engines can be sent {@code position startpos}). */
    public boolean fromStart() {
        return Fen.format(root).equals(Fen.format(Position.start(root.ruleSet())));
    }

    /**
     * Reads an openings file: one opening per line, blank lines and lines starting with '#' skipped. A line is
     * {@code startpos [moves M...]}, {@code fen FEN [moves M...]}, {@code sfen SFEN [moves M...]}, or a bare FEN or
     * SFEN optionally followed by {@code moves M...}. Moves are USI strings for shogi and UCI strings otherwise
     * (the other style is accepted too). An opening that ends the game is refused.
     */
    public static List<Opening> readFile(RuleSet rs, Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read openings file " + file + ": " + e.getMessage());
        }
        List<Opening> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                out.add(parse(rs, line, file.getFileName() + ":" + (i + 1)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("openings file " + file + " has no opening");
        }
        return out;
    }

    /** One opening line (see {@link #readFile}). */
    public static Opening parse(RuleSet rs, String line, String source) {
        List<String> w = Arrays.asList(line.strip().split("\\s+"));
        int movesAt = w.indexOf("moves");
        List<String> head = movesAt < 0 ? w : w.subList(0, movesAt);
        List<String> moveWords = movesAt < 0 ? List.of() : w.subList(movesAt + 1, w.size());
        Position root;
        if (head.isEmpty() || head.get(0).equals("startpos")) {
            if (head.size() > 1) {
                throw new IllegalArgumentException("unexpected '" + head.get(1) + "' after startpos");
            }
            root = Position.start(rs);
        } else {
            String fen = String.join(" ", head.get(0).equals("fen") || head.get(0).equals("sfen")
                    ? head.subList(1, head.size()) : head);
            root = Fen.parse(rs, fen);
        }
        Game game = new Game(root, Match.gameOptions(rs));
        List<Integer> moves = new ArrayList<>();
        MoveNotation.Style first = rs.sfen ? MoveNotation.Style.USI : MoveNotation.Style.UCI;
        MoveNotation.Style second = rs.sfen ? MoveNotation.Style.UCI : MoveNotation.Style.USI;
        for (String m : moveWords) {
            if (game.isOver()) {
                throw new IllegalArgumentException("the game is over (" + game.result().orElseThrow() + ") before move '"
                        + m + "'");
            }
            Position p = game.position();
            int move;
            try {
                move = MoveNotation.parse(p, m, first);
            } catch (IllegalArgumentException e) {
                try {
                    move = MoveNotation.parse(p, m, second);
                } catch (IllegalArgumentException e2) {
                    throw e;
                }
            }
            game.play(move);
            moves.add(move);
        }
        if (game.isOver()) {
            throw new IllegalArgumentException("the opening ends the game: " + game.result().orElseThrow());
        }
        return new Opening(root, moves, source);
    }

    /**
     * {@code count} openings of {@code plies} random legal moves from the start position, from one seeded random
     * sequence (the same seed gives the same openings). A line that would end the game is drawn again.
     */
    public static List<Opening> random(RuleSet rs, int plies, long seed, int count) {
        if (plies < 0 || plies > 200) {
            throw new IllegalArgumentException("--random-plies must be from 0 to 200, got " + plies);
        }
        Random rng = new Random(seed);
        List<Opening> out = new ArrayList<>();
        Position start = Position.start(rs);
        for (int n = 0; n < count; n++) {
            List<Integer> moves = new ArrayList<>();
            for (int attempt = 0; attempt < 1000; attempt++) {
                moves.clear();
                Game game = new Game(start, Match.gameOptions(rs));
                for (int k = 0; k < plies && !game.isOver(); k++) {
                    int[] legal = game.position().legalMoves();
                    int m = legal[rng.nextInt(legal.length)];
                    game.play(m);
                    moves.add(m);
                }
                if (!game.isOver()) {
                    break;
                }
            }
            out.add(new Opening(start, moves, "random " + plies + " plies, seed " + seed + " #" + (n + 1)));
        }
        return out;
    }
}
