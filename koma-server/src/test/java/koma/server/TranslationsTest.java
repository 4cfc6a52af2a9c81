package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The page's six language files against each other and against the server's error codes: the same keys with
 * the same {placeholders} in every language, and a text for every code the server gives a refusal
 * (docs/server-api.md, Errors), so that no refusal reaches a reader untranslated.
 */
class TranslationsTest {
    private static final List<String> LANGS = List.of("en", "cs", "it", "ru", "pl", "ja");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{[a-zA-Z]+\\}");

    private static JsonNode lang(String lang) throws IOException {
        try (InputStream in = TranslationsTest.class.getResourceAsStream("/web/i18n/" + lang + ".json")) {
            return new ObjectMapper().readTree(in);
        }
    }

    /**
     * The keys every language must have: all but the piece names, which fall back to English by design (Japanese
     * calls Wa shogi's pieces by their kanji, ja.json's piece.byKanji flag, and has no words for them).
     */
    private static Set<String> keys(JsonNode n) {
        Set<String> s = new TreeSet<>();
        n.fieldNames().forEachRemaining(k -> {
            if (!k.startsWith("piece.")) {
                s.add(k);
            }
        });
        return s;
    }

    private static Set<String> placeholders(String text) {
        Set<String> s = new TreeSet<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            s.add(m.group());
        }
        return s;
    }

    @Test
    void everyLanguageHasEnglishsKeysAndPlaceholders() throws IOException {
        JsonNode en = lang("en");
        for (String l : LANGS) {
            JsonNode d = lang(l);
            Set<String> missing = new TreeSet<>(keys(en));
            missing.removeAll(keys(d));
            Set<String> extra = new TreeSet<>(keys(d));
            extra.removeAll(keys(en));
            assertEquals(Set.of(), missing, l + ": keys missing");
            assertEquals(Set.of(), extra, l + ": keys English does not have");
            for (String k : keys(en)) {
                assertFalse(d.get(k).asText().isBlank(), l + ": " + k + " is empty");
                assertEquals(placeholders(en.get(k).asText()), placeholders(d.get(k).asText()), l + ": " + k);
            }
        }
    }

    /** Every code in the server's {@code .coded("...")} calls (and the impasse's pair) has its err.* text. */
    @Test
    void everyErrorCodeIsTranslated() throws IOException {
        Set<String> codes = new TreeSet<>();
        Pattern coded = Pattern.compile("\\.coded\\((?:[^\"]*\\? )?\"([a-zA-Z]+)\"(?: : \"([a-zA-Z]+)\")?");
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> s = Files.walk(Path.of("src/main/java"))) {
            s.filter(p -> p.toString().endsWith(".java")).forEach(sources::add);
        }
        for (Path p : sources) {
            Matcher m = coded.matcher(Files.readString(p));
            while (m.find()) {
                codes.add(m.group(1));
                if (m.group(2) != null) {
                    codes.add(m.group(2));
                }
            }
        }
        // 55 codes when written (docs/server-api.md lists them); the scan must find them, not an empty set
        assertTrue(codes.size() >= 50, "codes found: " + codes);
        assertTrue(codes.contains("impasseKings") && codes.contains("impasseRefused"), codes.toString());
        JsonNode en = lang("en");
        for (String c : codes) {
            assertTrue(en.has("err." + c), "no text for error code " + c);
        }
        for (String side : List.of("first", "second")) {
            assertTrue(en.has("err.side." + side), side);
        }
    }
}
