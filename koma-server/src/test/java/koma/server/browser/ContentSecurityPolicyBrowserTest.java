package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;

/**
 * The pages under the Content-Security-Policy the server is to send (docs/server-api.md), whether or not the
 * server in this checkout sends it yet: a small HTTP proxy in front of it adds the header to every answer (and
 * passes no WebSocket, so the game page also shows that it keeps up by polling). A script installed through
 * DevTools before the page's own records every violation; the rules page, the new-game form and a hot-seat game
 * with a move must cause none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ContentSecurityPolicyBrowserTest {
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            + "frame-ancestors 'none'";

    /** Headers not copied between the proxy's two sides (hop by hop, or set by the HTTP libraries). */
    private static final Set<String> SKIPPED = Set.of("connection", "content-length", "host", "transfer-encoding",
            "upgrade", "expect", "keep-alive", "date");

    private TestSite site;
    private HttpServer proxy;
    private String backend;
    private Browser browser;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() throws IOException {
        site = TestSite.start("csp", null);
        backend = site.base;
        proxy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        proxy.createContext("/", this::forward);
        proxy.setExecutor(Executors.newFixedThreadPool(4));
        proxy.start();
        browser = new Browser("http://127.0.0.1:" + proxy.getAddress().getPort());
        browser.driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
                "window.__csp = []; document.addEventListener('securitypolicyviolation',"
                        + " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));"));
    }

    @AfterAll
    void stop() throws IOException {
        if (browser != null) {
            browser.close();
        }
        if (proxy != null) {
            proxy.stop(0);
        }
        if (site != null) {
            site.close();
        }
    }

    /** One request passed to the Koma server (Origin rewritten to its own), its answer passed back with the CSP. */
    private void forward(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(backend + ex.getRequestURI()))
                    .timeout(Duration.ofSeconds(30))
                    .method(ex.getRequestMethod(), body.length == 0 && ex.getRequestMethod().equals("GET")
                            ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            ex.getRequestHeaders().forEach((k, vs) -> {
                if (!SKIPPED.contains(k.toLowerCase())) {
                    vs.forEach(v -> b.header(k, k.equalsIgnoreCase("origin") ? backend : v));
                }
            });
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            r.headers().map().forEach((k, vs) -> {
                if (!SKIPPED.contains(k.toLowerCase()) && !k.equalsIgnoreCase("content-security-policy") && !k.startsWith(":")) {
                    ex.getResponseHeaders().put(k, List.copyOf(vs));
                }
            });
            ex.getResponseHeaders().set("Content-Security-Policy", CSP);
            ex.sendResponseHeaders(r.statusCode(), r.body().length == 0 ? -1 : r.body().length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(r.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Object violations() {
        return browser.js("return (window.__csp || ['the recording script did not run']).join('\\n');");
    }

    @Test
    void pagesCauseNoViolation() {
        browser.open("/rules/washogi-drops");
        browser.waitFor(".piece-card");
        assertEquals("", violations(), "rules page");

        browser.newGame("shogi", "hotseat", 0, null, null);
        assertEquals("", violations(), "new-game form and game page");
        browser.clickMove("g3g4", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        browser.driver.findElement(By.cssSelector("[data-nav='prev']")).click();
        browser.waiting(10).until(d -> browser.shownPly() == 0);
        browser.screenshot("csp-shogi");
        assertEquals("", violations(), "a move, stepping back");

        // the policy is really there: a style attribute set by a script is refused and recorded
        browser.js("document.body.setAttribute('style', 'outline: 1px solid red');");
        browser.waiting(5).until(d -> !"".equals(violations()));
        assertTrue(violations().toString().contains("style-src"), violations().toString());
    }
}
