package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The web app's sources keep to the rules that let it run under the server's Content-Security-Policy and never
 * parse data as HTML: no innerHTML, outerHTML, insertAdjacentHTML, document.write, eval, new Function or
 * string timers in the scripts; no inline script, style block, style attribute or on* handler attribute in
 * index.html. (A plain file check, no browser.)
 */
class WebAppSourceTest {
    private static final Path WEB = Path.of("src", "main", "resources", "web");

    private static final Pattern SCRIPT_FORBIDDEN = Pattern.compile(
            "innerHTML|outerHTML|insertAdjacentHTML|document\\.write|\\beval\\s*\\(|new\\s+Function\\b"
                    + "|set(Timeout|Interval)\\s*\\(\\s*['\"`]|createContextualFragment|DOMParser|srcdoc");

    private static final Pattern HTML_FORBIDDEN = Pattern.compile(
            "<script(?![^>]*\\bsrc=)[^>]*>|<style\\b|\\sstyle\\s*=|\\son[a-z]+\\s*=|javascript:", Pattern.CASE_INSENSITIVE);

    private static List<String> hits(Path file, Pattern p) throws IOException {
        List<String> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            if (p.matcher(lines.get(i)).find()) {
                out.add(file.getFileName() + ":" + (i + 1) + ": " + lines.get(i).strip());
            }
        }
        return out;
    }

    @Test
    void noMarkupParsingNoEvalNoInlineCode() throws IOException {
        assertTrue(Files.isDirectory(WEB.resolve("js")), "run from the koma-server module: " + WEB.toAbsolutePath());
        List<String> found = new ArrayList<>();
        int scripts = 0;
        try (Stream<Path> files = Files.list(WEB.resolve("js"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".js")).sorted().toList()) {
                scripts++;
                found.addAll(hits(f, SCRIPT_FORBIDDEN));
            }
        }
        found.addAll(hits(WEB.resolve("index.html"), HTML_FORBIDDEN));
        assertTrue(scripts >= 10, "the scripts were found: " + scripts);
        assertEquals(List.of(), found);
    }

    @Test
    void theCheckFindsWhatItLooksFor() {
        assertTrue(SCRIPT_FORBIDDEN.matcher("el.innerHTML = s;").find());
        assertTrue(SCRIPT_FORBIDDEN.matcher("setTimeout('go()', 5)").find());
        assertTrue(HTML_FORBIDDEN.matcher("<script>alert(1)</script>").find());
        assertTrue(HTML_FORBIDDEN.matcher("<div style=\"color: red\">").find());
        assertTrue(HTML_FORBIDDEN.matcher("<body onload=\"go()\">").find());
        assertTrue(!HTML_FORBIDDEN.matcher("<script type=\"module\" src=\"/js/main.js\"></script>").find());
    }
}
