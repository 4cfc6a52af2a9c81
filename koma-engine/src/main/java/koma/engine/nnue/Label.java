package koma.engine.nnue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import koma.engine.Limits;
import koma.engine.Search;
import koma.engine.TimeManager;
import koma.engine.tune.Sample;
import koma.engine.tune.SelfPlay;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.GameRecord;
import koma.rules.notation.MoveNotation;

/**
 * Training data from games already played (against other engines, between people on the server, from any record):
 * each position of each game, from ply {@code skipPlies} on, is searched by Koma at {@code nodes} nodes and kept
 * when it is quiet ({@link SelfPlay#isQuiet}), with the search's score and the game's result for its side to move,
 * as {@link DataGen}'s self-play data is. Shard {@code k} holds games {@code [k * gamesPerShard, (k + 1) *
 * gamesPerShard)} in the order given, written as {@link DataGen} writes its shards (resumable, skipped when there);
 * each game is searched from an empty hash table, so the same games and settings give the same files whatever the
 * thread count. An unfinished game (result {@code *}) gives nothing: it has no result to learn from.
 */
public final class Label {
    /** What to label: {@code games} (of rule set {@code rs}) into the shards of {@code dir}. */
    public record Settings(RuleSet rs, List<GameRecord> games, Path dir, int gamesPerShard, long nodes, int skipPlies,
                           int threads, Network net) {
        public Settings {
            games = List.copyOf(games);
            if (gamesPerShard < 1) {
                throw new IllegalArgumentException("games per shard must be at least 1, got " + gamesPerShard);
            }
            if (nodes < 1) {
                throw new IllegalArgumentException("nodes per position must be at least 1, got " + nodes);
            }
            if (skipPlies < 0) {
                throw new IllegalArgumentException("plies to skip must be 0 or more, got " + skipPlies);
            }
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            }
            for (int i = 0; i < games.size(); i++) {
                if (!games.get(i).variant().equals(rs.id)) {
                    throw new IllegalArgumentException("game " + (i + 1) + " is " + games.get(i).variant()
                            + ", not " + rs.id);
                }
            }
        }

        /** The number of shards the games fill. */
        public int shards() {
            return (games.size() + gamesPerShard - 1) / gamesPerShard;
        }
    }

    private Label() {
    }

    /** Labels the games of the shards not yet on disk; returns the number of positions written by this run. */
    public static long run(Settings s, Consumer<String> progress) throws IOException {
        if (s.games().isEmpty()) {
            return 0;
        }
        return DataGen.runShards(s.dir(), 0, s.shards(), s.threads(), shard -> {
            List<Sample> samples = new ArrayList<>();
            int end = Math.min(s.games().size(), (shard + 1) * s.gamesPerShard());
            for (int g = shard * s.gamesPerShard(); g < end; g++) {
                samples.addAll(game(s, g));
            }
            return samples;
        }, progress);
    }

    /**
     * The kept positions of game {@code index} (numbered from 0; error messages count from 1). A move the rules
     * refuse is reported with its game and ply.
     */
    public static List<Sample> game(Settings s, int index) {
        GameRecord g = s.games().get(index);
        double first = switch (g.result()) {
            case "1-0" -> 1;
            case "0-1" -> 0;
            case "1/2-1/2" -> 0.5;
            default -> -1;
        };
        List<Sample> out = new ArrayList<>();
        if (first < 0) {
            return out;
        }
        Position pos;
        try {
            pos = g.startFen() == null ? Position.start(s.rs()) : Fen.parse(s.rs(), g.startFen());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("game " + (index + 1) + ": bad start position: " + e.getMessage(), e);
        }
        Search search = SelfPlay.newSearch(s.rs(), s.net());
        TimeManager time = new TimeManager(0);
        for (int ply = 0; ply < g.moves().size(); ply++) {
            int move;
            try {
                move = MoveNotation.parseUci(pos, g.moves().get(ply));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("game " + (index + 1) + ", ply " + (ply + 1) + ": "
                        + e.getMessage(), e);
            }
            if (ply >= s.skipPlies()) {
                search.resetStop();
                Search.Result r = search.search(pos, Limits.nodes(s.nodes()), time, null);
                if (r.bestMove() != Move.NONE && SelfPlay.isQuiet(pos, r.bestMove(), r.score())) {
                    int stm = pos.sideToMove();
                    out.add(new Sample(index, Fen.format(pos), stm == 0 ? first : 1 - first, r.score()));
                }
            }
            pos.doMove(move);
        }
        return out;
    }
}
