package koma.engine.nnue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import koma.rules.Position;
import koma.rules.RuleSet;

/** The nets shipped in the engine's resources: the ones MANIFEST.md lists, and only those, load for their rule set. */
class BuiltInNetsTest {
    /** The rule sets MANIFEST.md has a "## ID.nnue" section for. */
    static Set<String> listed() throws IOException {
        try (InputStream in = Network.class.getResourceAsStream(Network.RESOURCE_DIR + "MANIFEST.md")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = Pattern.compile("(?m)^## ([a-z0-9-]+)\\.nnue$").matcher(text);
            return m.results().map(r -> r.group(1)).collect(Collectors.toSet());
        }
    }

    @Test
    void everyListedNetLoadsAndNoOtherExists() throws IOException {
        Set<String> listed = listed();
        assertTrue(listed.contains("shogi"), "MANIFEST.md lists " + listed);
        for (String id : RuleSet.IDS) {
            RuleSet rs = RuleSet.of(id);
            var net = Network.builtIn(rs);
            assertEquals(listed.contains(id), net.isPresent(), id);
            net.ifPresent(n -> {
                assertEquals(id, n.ruleSet);
                assertEquals(new FeatureSet(rs, n.kingFiles, n.kingRanks, n.kingWindow).inputs, n.inputs, id);
            });
        }
    }

    /** The shogi net has learnt what a rook is worth: a rook in hand more is clearly better for its holder. */
    @Test
    void shogiNetValuesAnExtraRook() {
        RuleSet rs = RuleSet.of("shogi");
        Network net = Network.builtIn(rs).orElseThrow();
        String board = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
        int even = evaluate(net, rs, board + " b - 1");
        int blackRook = evaluate(net, rs, board + " b R 1");
        int whiteRookBlackToMove = evaluate(net, rs, board + " b r 1");
        assertTrue(Math.abs(even) < 150, "start position: " + even);
        assertTrue(blackRook > even + 300, "extra rook for the side to move: " + blackRook + " vs " + even);
        assertTrue(whiteRookBlackToMove < even - 300, "extra rook for the opponent: " + whiteRookBlackToMove);
        assertFalse(blackRook == whiteRookBlackToMove);
    }

    /** The Shodo net has learnt what the queen is worth: the side without it stands clearly worse. */
    @Test
    void shodoNetValuesTheQueen() {
        RuleSet rs = RuleSet.of("shodo");
        Network net = Network.builtIn(rs).orElseThrow();
        int even = evaluate(net, rs, "nnnqknnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNQKNNN w - - 0 1");
        int theirsGone = evaluate(net, rs, "nnn1knnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNQKNNN w - - 0 1");
        int oursGone = evaluate(net, rs, "nnnqknnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNN1KNNN w - - 0 1");
        assertTrue(Math.abs(even) < 150, "start position: " + even);
        assertTrue(theirsGone > even + 300, "the opponent's queen gone: " + theirsGone + " vs " + even);
        assertTrue(oursGone < even - 300, "our queen gone: " + oursGone + " vs " + even);
    }

    /**
     * The chess net has learnt what a queen is worth: in the start position without one side's queen, that side
     * stands clearly worse, whichever side is to move (the net sees the board from the side to move).
     */
    @Test
    void chessNetValuesTheQueen() {
        RuleSet rs = RuleSet.of("chess");
        Network net = Network.builtIn(rs).orElseThrow();
        int even = evaluate(net, rs, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        int theirsGone = evaluate(net, rs, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        int oursGone = evaluate(net, rs, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
        int oursGoneBlackToMove = evaluate(net, rs, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assertTrue(Math.abs(even) < 150, "start position: " + even);
        assertTrue(theirsGone > even + 500, "the opponent's queen gone: " + theirsGone + " vs " + even);
        assertTrue(oursGone < even - 500, "our queen gone: " + oursGone + " vs " + even);
        assertTrue(oursGoneBlackToMove < even - 500, "Black to move without its queen: " + oursGoneBlackToMove);
    }

    private static int evaluate(Network net, RuleSet rs, String fen) {
        Position p = Position.fromFen(rs, fen);
        Accumulators acc = new Accumulators(net, rs, 4);
        acc.refresh(p, 0);
        return acc.evaluate(0, p);
    }
}
