package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** {@link RequestGuard}: each branch of the cross-site checks, and the security headers. */
class RequestGuardTest {
    private static final String JSON = "application/json";
    private static final String HOST = "127.0.0.1:8080";
    private static final String SELF = "http://127.0.0.1:8080";

    /** The state-change check of a POST from the given origin and fetch site, JSON body, no extra origin. */
    private static String post(String origin, String site) {
        return RequestGuard.stateChangeRefusal("POST", JSON, origin, site, HOST, "http", List.of());
    }

    @Test
    void readsAreNotChecked() {
        for (String m : List.of("GET", "HEAD", "OPTIONS")) {
            assertNull(RequestGuard.stateChangeRefusal(m, "text/plain", "http://evil.example", "cross-site", HOST,
                    "http", List.of()), m);
        }
        for (String m : List.of("POST", "PUT", "PATCH", "DELETE", "post", "delete")) {
            assertTrue(RequestGuard.stateChangeRefusal(m, "text/plain", SELF, null, HOST, "http", List.of()) != null,
                    m);
        }
    }

    @Test
    void stateChangesMustBeJson() {
        // the "simple" content types a cross-site form or no-preflight fetch can send
        for (String ct : List.of("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                "application/jsonp", "application/json-seq", "text/json")) {
            String r = RequestGuard.stateChangeRefusal("POST", ct, SELF, null, HOST, "http", List.of());
            assertEquals("content-type: a request that changes state must be application/json, got '" + ct + "'", r);
        }
        assertEquals("content-type: a request that changes state must be application/json, got none",
                RequestGuard.stateChangeRefusal("POST", null, SELF, null, HOST, "http", List.of()));
        assertEquals("content-type: a request that changes state must be application/json, got none",
                RequestGuard.stateChangeRefusal("DELETE", " ", SELF, null, HOST, "http", List.of()));
        // parameters, case and spaces do not matter
        for (String ct : List.of("application/json", "application/json; charset=utf-8", "Application/JSON",
                " application/json ;charset=UTF-8")) {
            assertNull(RequestGuard.stateChangeRefusal("POST", ct, SELF, null, HOST, "http", List.of()), ct);
        }
        // the content type is checked before the origin: a form post from anywhere is named by its content type
        assertTrue(RequestGuard.stateChangeRefusal("POST", "text/plain", "http://evil.example", null, HOST, "http",
                List.of()).startsWith("content-type:"));
    }

    @Test
    void originMustBeTheServersOwn() {
        assertNull(post(SELF, null));
        assertNull(post("HTTP://127.0.0.1:8080", null), "case does not matter");
        assertNull(post(SELF, "cross-site"), "Origin decides when present");
        // another port of the same host is another origin (and the same site: SameSite cookies do not stop it)
        String r = post("http://127.0.0.1:8081", null);
        assertEquals("origin: 'http://127.0.0.1:8081' may not change state here (this server is "
                + "http://127.0.0.1:8080)", r);
        assertTrue(post("https://127.0.0.1:8080", null).startsWith("origin:"), "another scheme");
        assertTrue(post("http://localhost:8080", null).startsWith("origin:"), "another host name");
        assertTrue(post("http://evil.example", null).startsWith("origin:"));
        assertTrue(post("http://127.0.0.1:8080.evil.example", null).startsWith("origin:"));
        assertTrue(post("http://127.0.0.1:8080/", null).startsWith("origin:"), "an origin has no path");
        assertTrue(post("http://user@127.0.0.1:8080", null).startsWith("origin:"));
        assertTrue(post("127.0.0.1:8080", null).startsWith("origin:"), "no scheme");
        assertEquals("origin: 'null' may not change state here (this server is http://127.0.0.1:8080)",
                post("null", "same-origin"), "an opaque origin (sandboxed frame, file:) is refused");
        assertTrue(RequestGuard.stateChangeRefusal("POST", JSON, SELF, null, null, "http", List.of())
                .contains("no Host header"));
        // a long origin is quoted cut
        String longOrigin = "http://" + "a".repeat(300) + ".example";
        assertTrue(post(longOrigin, null).length() < 200);
    }

    @Test
    void defaultPortsAreEquivalent() {
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, "http://koma.example", null, "koma.example", "http",
                List.of()));
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, "http://koma.example:80", null, "koma.example",
                "http", List.of()));
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, "http://koma.example", null, "koma.example:80",
                "http", List.of()));
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, "https://koma.example", null, "koma.example:443",
                "https", List.of()));
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, "https://Koma.Example:443", null, "KOMA.example",
                "https", List.of()));
        assertTrue(RequestGuard.stateChangeRefusal("POST", JSON, "http://koma.example:8080", null, "koma.example",
                "http", List.of()) != null);
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, "http://[::1]:8080", null, "[::1]:8080", "http",
                List.of()), "IPv6 host");
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, SELF, null, HOST, null, List.of()),
                "no scheme given: http");
    }

    @Test
    void extraOriginsAreAllowed() {
        // a TLS proxy in front: the server sees http://127.0.0.1:8080, the browser says https://koma.example
        List<String> extra = List.of("https://koma.example", "not an origin");
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, "https://koma.example", null, HOST, "http", extra));
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, "https://koma.example:443", null, HOST, "http",
                extra));
        assertTrue(RequestGuard.stateChangeRefusal("POST", JSON, "http://koma.example", null, HOST, "http", extra)
                != null, "http is not the https origin");
        assertTrue(RequestGuard.stateChangeRefusal("POST", JSON, "https://evil.example", null, HOST, "http", extra)
                != null);
        assertNull(RequestGuard.stateChangeRefusal("POST", JSON, SELF, null, HOST, "http", null), "null list");
        assertEquals("https://koma.example:443", RequestGuard.normalizedOrigin("https://Koma.example"));
        assertEquals("http://[::1]:80", RequestGuard.normalizedOrigin("http://[::1]"));
        assertNull(RequestGuard.normalizedOrigin("koma.example"));
        assertNull(RequestGuard.normalizedOrigin("http://koma.example/app"));
        assertNull(RequestGuard.normalizedOrigin("http://koma.example:99999"));
        assertNull(RequestGuard.normalizedOrigin("null"));
    }

    @Test
    void withoutOriginSecFetchSiteDecides() {
        assertNull(post(null, "same-origin"));
        assertNull(post(null, "Same-Origin"));
        assertNull(post(null, "none"), "a navigation the user typed");
        assertEquals("sec-fetch-site: a request that changes state must be same-origin, got 'cross-site'",
                post(null, "cross-site"));
        assertEquals("sec-fetch-site: a request that changes state must be same-origin, got 'same-site'",
                post(null, "same-site"), "another port or subdomain of the same site");
        assertEquals("origin: a request that changes state must carry a same-origin Origin or Sec-Fetch-Site header",
                post(null, null));
    }

    @Test
    void webSocketUpgradesFromOtherOriginsAreRefused() {
        assertNull(RequestGuard.webSocketRefusal(null, HOST, "ws", List.of()), "not a browser");
        assertNull(RequestGuard.webSocketRefusal(SELF, HOST, "ws", List.of()));
        assertNull(RequestGuard.webSocketRefusal(SELF, HOST, "http", List.of()));
        // a page served over https opens wss to the same host: ports 443 on both sides
        assertNull(RequestGuard.webSocketRefusal("https://koma.example", "koma.example", "wss", List.of()));
        assertNull(RequestGuard.webSocketRefusal("http://koma.example", "koma.example", "ws", List.of()));
        assertNull(RequestGuard.webSocketRefusal("https://koma.example:8443", "koma.example:8443", "ws", List.of()),
                "http/https against ws/wss does not matter when the port is given");
        assertEquals("origin: 'http://evil.example' may not open a feed here (this server is 127.0.0.1:8080)",
                RequestGuard.webSocketRefusal("http://evil.example", HOST, "ws", List.of()));
        assertTrue(RequestGuard.webSocketRefusal("http://127.0.0.1:8081", HOST, "ws", List.of()) != null,
                "another port");
        assertTrue(RequestGuard.webSocketRefusal("null", HOST, "ws", List.of()) != null);
        assertTrue(RequestGuard.webSocketRefusal("https://koma.example", "koma.example", "ws", List.of()) != null,
                "https page (443) against a ws request on port 80");
        assertTrue(RequestGuard.webSocketRefusal(SELF, null, "ws", List.of()).contains("no Host header"));
        assertNull(RequestGuard.webSocketRefusal("https://koma.example", HOST, "ws",
                List.of("https://koma.example")), "an extra origin");
    }

    @Test
    void securityHeaders() {
        assertEquals(5, RequestGuard.HEADERS.size());
        assertEquals("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                + "frame-ancestors 'none'", RequestGuard.HEADERS.get("Content-Security-Policy"));
        assertEquals("nosniff", RequestGuard.HEADERS.get("X-Content-Type-Options"));
        assertEquals("same-origin", RequestGuard.HEADERS.get("Referrer-Policy"));
        assertEquals("DENY", RequestGuard.HEADERS.get("X-Frame-Options"));
        assertEquals("same-origin", RequestGuard.HEADERS.get("Cross-Origin-Opener-Policy"));
        org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class,
                () -> RequestGuard.HEADERS.put("X-Frame-Options", "ALLOW"));
    }
}
