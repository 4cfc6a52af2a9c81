package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import koma.rules.RuleSet;

/**
 * Rule sets are data: no rule-set id is written in the main code of any module (Java) or of the web page
 * (JavaScript); what differs between rule sets comes from their definition files ({@code koma/rules/*.rules}, read
 * by {@code RuleSetLoader}, which is the one place allowed to name them) through {@code RuleSet.conventions} and
 * {@code GET /api/variants}. The ids are those of {@code RuleSet.IDS}, so a new rule set is checked as well.
 * <p>
 * Java: any string literal equal to an id. JavaScript: a quoted id, except that the two board families are called
 * {@code 'chess'} and {@code 'shogi'} like two rule sets; those two are flagged where they are compared with an id or
 * a variant ({@code variant.id === 'shogi'}).
 */
class RuleSetIdsInCodeTest {
    private static final Path ROOT = Path.of("..");
    private static final Path WEB_JS = Path.of("src", "main", "resources", "web", "js");

    /**
     * Known places outside this change's files, each a file and the text of its line, with why they stay for now.
     * A line is exempt only while it reads exactly so; any other line with an id fails.
     */
    /** Lines allowed to name a rule set (none: every default comes from the definitions, e.g. RuleSet.standard()). */
    private static final List<String[]> KNOWN = List.of();

    static Pattern javaPattern(Set<String> ids) {
        return Pattern.compile("\"(" + alternatives(ids) + ")\"");
    }

    static Pattern jsPattern(Set<String> ids, Set<String> families) {
        Set<String> plain = new LinkedHashSet<>(ids);
        plain.removeAll(families);
        String fam = alternatives(families);
        return Pattern.compile("['\"`](" + alternatives(plain) + ")['\"`]"
                + "|(\\bid|[vV]ariant)\\s*[!=]==?\\s*['\"](" + fam + ")['\"]"
                + "|['\"](" + fam + ")['\"]\\s*[!=]==?\\s*[\\w.]*(\\bid|[vV]ariant)\\b");
    }

    private static String alternatives(Set<String> words) {
        return String.join("|", words.stream().sorted((a, b) -> b.length() - a.length()).map(Pattern::quote).toList());
    }

    private static List<String> hits(Path file, Pattern p) throws IOException {
        List<String> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!p.matcher(line).find()) {
                continue;
            }
            boolean known = false;
            for (String[] k : KNOWN) {
                known |= file.getFileName().toString().equals(k[0]) && line.equals(k[1]);
            }
            if (!known) {
                out.add(ROOT.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize()) + ":" + (i + 1) + ": " + line);
            }
        }
        return out;
    }

    @Test
    void noRuleSetIdInMainCode() throws IOException {
        Set<String> ids = new LinkedHashSet<>(RuleSet.IDS);
        Set<String> families = new LinkedHashSet<>();
        for (String id : ids) {
            families.add(RuleSet.of(id).conventions.family().key());
        }
        List<String> found = new ArrayList<>();
        int javaFiles = 0, jsFiles = 0;
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).sorted().toList()) {
                try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
                    for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                        if (f.getFileName().toString().equals("RuleSetLoader.java")) {
                            continue; // the loader reads the definitions and names their hooks
                        }
                        javaFiles++;
                        found.addAll(hits(f, javaPattern(ids)));
                    }
                }
            }
        }
        try (Stream<Path> files = Files.list(WEB_JS)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".js")).sorted().toList()) {
                jsFiles++;
                found.addAll(hits(f, jsPattern(ids, families)));
            }
        }
        assertTrue(javaFiles > 50 && jsFiles >= 10, "the sources were found: " + javaFiles + " Java, " + jsFiles + " JS");
        assertEquals(List.of(), found, "rule-set ids in main code; put what differs into the .rules files");
    }

    @Test
    void theCheckFindsWhatItLooksFor() {
        Set<String> ids = Set.of("chess", "shogi", "washogi", "minishogi");
        Set<String> families = Set.of("chess", "shogi");
        assertTrue(javaPattern(ids).matcher("if (rs.id.equals(\"shogi\")) {").find());
        assertTrue(javaPattern(ids).matcher("RuleSet.of(\"minishogi\")").find());
        assertFalse(javaPattern(ids).matcher("String s = \"shogi family\";").find());
        Pattern js = jsPattern(ids, families);
        assertTrue(js.matcher("return id === 'shogi' || id === 'washogi';").find());
        assertTrue(js.matcher("if (variant === 'shogi') {").find());
        assertTrue(js.matcher("const f = this.variant.id === 'chess';").find());
        assertTrue(js.matcher("const ids = ['minishogi'];").find());
        assertTrue(js.matcher("if ('shogi' === v.id)").find());
        assertFalse(js.matcher("const rotate = this.family === 'shogi';").find());
        assertFalse(js.matcher("coords: family === 'shogi' ? 'shogi' : 'chess',").find());
    }
}
