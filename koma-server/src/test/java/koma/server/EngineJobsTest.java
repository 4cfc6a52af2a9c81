package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.ObjectMapper;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * The engine job contract: a job is checked field by field when made, travels as JSON unchanged, and
 * {@link EngineJobs#run} answers it from the position its start and moves give; {@link EngineQueue#submit} runs jobs by
 * priority and refuses past its bounds.
 */
class EngineJobsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHESS = Fen.format(Position.start(RuleSet.of("chess")));

    /** A job's fields, one bad at a time, and the field its error names. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "null     | chess  | START | e2e4 | 0  | 100    | 0  | 1  | kind",
            "MOVE     | checkers | START | e2e4 | 0 | 100  | 0  | 1  | rules",
            "MOVE     | chess  | ''    | e2e4 | 0  | 100    | 0  | 1  | fen",
            "MOVE     | chess  | START | ''   | 0  | 100    | 0  | 1  | moves[0]",
            "MOVE     | chess  | START | e2e4 | 21 | 100    | 0  | 1  | level",
            "MOVE     | chess  | START | e2e4 | -1 | 100    | 0  | 1  | level",
            "ANALYSIS | chess  | START | e2e4 | 3  | 100    | 0  | 1  | level",
            "MOVE     | chess  | START | e2e4 | 0  | 0      | 0  | 1  | timeMs",
            "MOVE     | chess  | START | e2e4 | 0  | 600000 | 0  | 1  | timeMs",
            "MOVE     | chess  | START | e2e4 | 0  | 100    | -1 | 1  | depth",
            "MOVE     | chess  | START | e2e4 | 0  | 100    | 65 | 1  | depth",
            "MOVE     | chess  | START | e2e4 | 0  | 100    | 0  | 2  | multiPv",
            "ANALYSIS | chess  | START | e2e4 | 0  | 100    | 0  | 0  | multiPv",
            "ANALYSIS | chess  | START | e2e4 | 0  | 100    | 0  | 17 | multiPv",
    })
    void aBadFieldIsNamed(String kind, String rules, String fen, String move, int level, long timeMs, int depth,
                          int multiPv, String field) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new EngineJob(
                kind == null ? null : EngineJob.Kind.valueOf(kind), rules, fen.equals("START") ? CHESS : fen,
                List.of(move), level, timeMs, depth, multiPv, 0));
        assertTrue(e.getMessage().startsWith(field + ":"), e.getMessage());
    }

    @Test
    void tooManyMovesAndNullListsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> EngineJob.move("chess", CHESS, null, 0, 100, 0));
        List<String> many = Collections.nCopies(EngineJob.MAX_MOVES + 1, "e2e4");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineJob.move("chess", CHESS, many, 0, 100, 0));
        assertTrue(e.getMessage().startsWith("moves:"), e.getMessage());
    }

    @Test
    void jobsAndResultsTravelAsJsonUnchanged() throws Exception {
        EngineJob job = EngineJob.analysis("shogi", Fen.format(Position.start(RuleSet.of("shogi"))),
                List.of("c3c4", "g7g6"), 300, 12, 3);
        String text = JSON.writeValueAsString(job);
        assertEquals(job, JSON.readValue(text, EngineJob.class));
        EngineResult r = new EngineResult("e2e4", List.of(new EngineResult.Line(9, 31, null, List.of("e2e4", "e7e5")),
                new EngineResult.Line(9, null, -2, List.of("a2a3"))));
        assertEquals(r, JSON.readValue(JSON.writeValueAsString(r), EngineResult.class));
        // a bad field in the JSON is refused with the field named (Jackson wraps the constructor's error)
        String bad = text.replace("\"multiPv\":3", "\"multiPv\":0");
        Exception e = assertThrows(Exception.class, () -> JSON.readValue(bad, EngineJob.class));
        assertTrue(e.getMessage().contains("multiPv:"), e.getMessage());
    }

    @Test
    void aMoveJobPlaysALegalMoveWhereTheMovesLead() {
        // after 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 the computer (white) mates with Qxf7 at full strength (level 20)
        List<String> moves = List.of("e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6");
        EngineResult r = EngineJobs.run(EngineJob.move("chess", CHESS, moves, 20, 500, 1));
        assertEquals("h5f7", r.bestMove());
        assertTrue(r.lines().isEmpty());
        // and the same position as an analysis: mate in one, three lines with distinct first moves
        EngineResult a = EngineJobs.run(EngineJob.analysis("chess", CHESS, moves, 1_000, 6, 3));
        assertEquals("h5f7", a.bestMove());
        assertEquals(3, a.lines().size());
        assertEquals(1, a.lines().get(0).mate());
        assertNull(a.lines().get(0).cp());
        Set<String> first = new HashSet<>();
        for (EngineResult.Line l : a.lines()) {
            assertTrue(first.add(l.pv().get(0)), "distinct first moves: " + a.lines());
        }
    }

    @Test
    void eachRuleSetsStartIsAnswered() {
        for (String id : RuleSet.IDS) {
            Position start = Position.start(RuleSet.of(id));
            EngineResult r = EngineJobs.run(EngineJob.move(id, Fen.format(start), List.of(), 0, 50, 7));
            assertNotNull(r.bestMove(), id);
            assertTrue(start.isLegal(MoveNotation.parseUci(start, r.bestMove())), id + ": " + r.bestMove());
            EngineResult a = EngineJobs.run(EngineJob.analysis(id, Fen.format(start), List.of(), 100, 3, 2));
            assertEquals(2, a.lines().size(), id);
            assertNotNull(a.lines().get(0).cp(), id + ": no mate at the start");
        }
    }

    @Test
    void illegalMovesAndPositionsAreNamedAndAMatedSideHasNoMove() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineJobs.run(EngineJob.move("chess", CHESS, List.of("e2e4", "e2e4"), 0, 50, 0)));
        assertTrue(e.getMessage().startsWith("moves[1]:"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> EngineJobs.run(EngineJob.move("chess", "not a position", List.of(), 0, 50, 0)));
        assertTrue(e.getMessage().startsWith("fen:"), e.getMessage());
        // fool's mate: white is mated after 1.f3 e5 2.g4 Qh4#
        List<String> fools = List.of("f2f3", "e7e5", "g2g4", "d8h4");
        assertNull(EngineJobs.run(EngineJob.move("chess", CHESS, fools, 0, 50, 0)).bestMove());
        EngineResult a = EngineJobs.run(EngineJob.analysis("chess", CHESS, fools, 50, 0, 1));
        assertNull(a.bestMove());
        assertTrue(a.lines().isEmpty());
    }

    @Test
    void theQueueRunsComputerMovesFirstAndBoundsTheOthers() throws Exception {
        // one engine thread, kept busy by a first job while the others queue
        try (EngineQueue q = new EngineQueue(1, 1, 2)) {
            // level 20: a full-strength search uses its time (a weaker level's depth cap ends it in milliseconds)
            EngineJob slow = EngineJob.move("chess", CHESS, List.of(), 20, 400, 0);
            EngineJob quick = EngineJob.move("chess", CHESS, List.of(), 0, 20, 0);
            EngineJob look = EngineJob.analysis("chess", CHESS, List.of(), 20, 2, 1);
            CompletableFuture<EngineResult> first = q.submit(slow, EngineQueue.Priority.COMPUTER, "game:1");
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            List<CompletableFuture<EngineResult>> all = new ArrayList<>();
            // background: 2 waiting + 1 per thread = 3 accepted, the 4th refused
            for (int i = 0; i < 3; i++) {
                int k = i;
                all.add(q.submit(quick, EngineQueue.Priority.BACKGROUND, "c").whenComplete((r, e) -> order.add("b" + k)));
            }
            GameError full = assertThrows(GameError.class, () -> q.submit(quick, EngineQueue.Priority.BACKGROUND, "c"));
            assertEquals(GameError.Kind.UNAVAILABLE, full.kind());
            assertTrue(full.retryAfter() > 0);
            // analysis: one per client; 1 waiting + 1 per thread in all
            all.add(q.submit(look, EngineQueue.Priority.ANALYSIS, "a").whenComplete((r, e) -> order.add("a")));
            GameError busy = assertThrows(GameError.class, () -> q.submit(look, EngineQueue.Priority.ANALYSIS, "a"));
            assertEquals(GameError.Kind.TOO_MANY, busy.kind());
            all.add(q.submit(look, EngineQueue.Priority.ANALYSIS, "a2").whenComplete((r, e) -> order.add("a2")));
            assertEquals(GameError.Kind.UNAVAILABLE,
                    assertThrows(GameError.class, () -> q.submit(look, EngineQueue.Priority.ANALYSIS, "a3")).kind());
            // computer moves have no bound of their own, and jump the queue
            all.add(q.submit(quick, EngineQueue.Priority.COMPUTER, "game:2").whenComplete((r, e) -> order.add("c")));
            first.get(10, TimeUnit.SECONDS);
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            assertEquals(List.of("c", "a", "a2", "b0", "b1", "b2"), order);
            assertEquals(0, q.queued(EngineQueue.Priority.BACKGROUND));
            // once done, the client may ask again
            q.submit(look, EngineQueue.Priority.ANALYSIS, "a").get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aFailingJobCompletesItsFutureExceptionally() throws Exception {
        try (EngineQueue q = new EngineQueue(1, 4, 4)) {
            CountDownLatch done = new CountDownLatch(1);
            Throwable[] seen = new Throwable[1];
            q.submit(EngineJob.analysis("chess", CHESS, List.of("e2e5"), 50, 0, 1), EngineQueue.Priority.ANALYSIS, "x")
                    .whenComplete((r, e) -> {
                        seen[0] = e;
                        done.countDown();
                    });
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertTrue(seen[0] instanceof IllegalArgumentException, String.valueOf(seen[0]));
            assertTrue(seen[0].getMessage().startsWith("moves[0]:"), seen[0].getMessage());
        }
    }
}
