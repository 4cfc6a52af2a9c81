package koma.server.browser;

import java.io.IOException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import koma.server.ServerConfig;

/**
 * The common frame of a browser test class: one server ({@link TestSite}, a fresh database) and one browser profile
 * for all its tests, both closed after them. A class names its site and may give the server other limits.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SiteBrowserTest {
    protected TestSite site;
    protected Browser browser;

    /** The site's name (its temporary folder). */
    protected abstract String siteName();

    /** The server's limits; null for the defaults. */
    protected ServerConfig.Limits limits() {
        return null;
    }

    @BeforeAll
    void startSite() throws IOException {
        site = TestSite.start(siteName(), limits());
        browser = new Browser(site.base);
    }

    @AfterAll
    void stopSite() throws IOException {
        if (browser != null) {
            browser.close();
        }
        if (site != null) {
            site.close();
        }
    }

    /** A text of the page's language file (the web app's own resource), the expected value of a translated text. */
    protected static String uiText(String lang, String key) {
        try (var in = SiteBrowserTest.class.getResourceAsStream("/web/i18n/" + lang + ".json")) {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(in).get(key).asText();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
