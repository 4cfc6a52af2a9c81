package koma.server;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The server's browser-facing defences as pure decisions on header values (no Javalin types, so each rule is
 * unit-tested on its own): which state-changing requests and which WebSocket upgrades come from another site
 * (cross-site request forgery, cross-site WebSocket hijacking), and the security headers of every response.
 * A seat cookie is SameSite=Lax, but "same site" includes every port of the host and every subdomain, so the
 * cookie alone does not stop a page on {@code http://127.0.0.1:8081} from posting a move to the server on port
 * 8080; these checks do.
 */
public final class RequestGuard {
    /** The methods that change state; every other method passes the state-change check. */
    private static final Set<String> STATE_CHANGING = Set.of("POST", "PUT", "PATCH", "DELETE");
    /** Longest header value quoted back in a refusal. */
    private static final int QUOTE_MAX = 100;

    /** The security headers of every response (page, API answer, error, 404). */
    public static final Map<String, String> HEADERS;

    static {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; "
                + "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
                + "form-action 'self'; frame-ancestors 'none'");
        h.put("X-Content-Type-Options", "nosniff");
        h.put("Referrer-Policy", "same-origin");
        h.put("X-Frame-Options", "DENY");
        h.put("Cross-Origin-Opener-Policy", "same-origin");
        HEADERS = Collections.unmodifiableMap(h);
    }

    private RequestGuard() {
    }

    /**
     * Why a request may not change state, or null when it may (or does not try to). A POST, PUT, PATCH or DELETE
     * must be {@code application/json} (an HTML form or a "simple" cross-site fetch cannot send that without a
     * CORS preflight, which this server never grants), and must come from this server's own origin: its
     * {@code Origin} equal to {@code scheme://host} of the request (or one of {@code extraOrigins}), or, without
     * {@code Origin}, {@code Sec-Fetch-Site} {@code same-origin} or {@code none}. A request with neither header
     * is refused: every current browser sends one of them on a POST, so only a non-browser client omits both, and
     * a non-browser client can send them.
     *
     * @param method       the HTTP method
     * @param contentType  the Content-Type header, or null
     * @param origin       the Origin header, or null
     * @param secFetchSite the Sec-Fetch-Site header, or null
     * @param host         the Host header (with its port when it has one), or null
     * @param scheme       the request's scheme, {@code http} or {@code https} (null: http)
     * @param extraOrigins origins besides the server's own allowed to change state ({@code --origin})
     * @return null when allowed, else the message of a 403, starting with the header it is about
     */
    public static String stateChangeRefusal(String method, String contentType, String origin, String secFetchSite,
                                            String host, String scheme, List<String> extraOrigins) {
        if (method == null || !STATE_CHANGING.contains(method.toUpperCase(Locale.ROOT))) {
            return null;
        }
        String media = contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!media.equals("application/json")) {
            return "content-type: a request that changes state must be application/json, got "
                    + (contentType == null || contentType.isBlank() ? "none" : quote(contentType));
        }
        if (origin != null) {
            Origin o = Origin.parse(origin);
            Origin own = Origin.own(host, scheme);
            if (o != null && (o.equals(own) || allowed(o, extraOrigins))) {
                return null;
            }
            return "origin: " + quote(origin) + " may not change state here (this server is "
                    + (own == null ? "unknown: no Host header" : own.text()) + ")";
        }
        if (secFetchSite != null) {
            String site = secFetchSite.strip().toLowerCase(Locale.ROOT);
            if (site.equals("same-origin") || site.equals("none")) {
                return null;
            }
            return "sec-fetch-site: a request that changes state must be same-origin, got " + quote(secFetchSite);
        }
        return "origin: a request that changes state must carry a same-origin Origin or Sec-Fetch-Site header";
    }

    /**
     * Why a WebSocket upgrade is refused, or null when it is allowed: a request without {@code Origin} is not
     * from a browser page (browsers always send it on an upgrade) and passes; otherwise the Origin's host and
     * port must be those of the {@code Host} header (the http/https of the page against the ws/wss of the
     * request do not matter; default ports count as given), or the Origin one of {@code extraOrigins}.
     *
     * @param scheme the upgrade request's scheme ({@code ws}, {@code wss}, or {@code http}/{@code https} as the
     *               server sees it; null: ws), used for the default port of a Host header without one
     * @return null when allowed, else the message of a 403, starting with "origin:"
     */
    public static String webSocketRefusal(String origin, String host, String scheme, List<String> extraOrigins) {
        if (origin == null) {
            return null;
        }
        Origin o = Origin.parse(origin);
        Origin own = Origin.own(host, scheme);
        if (o != null && (own != null && o.host.equals(own.host) && o.port == own.port || allowed(o, extraOrigins))) {
            return null;
        }
        return "origin: " + quote(origin) + " may not open a feed here (this server is "
                + (own == null ? "unknown: no Host header" : own.host + ":" + own.port) + ")";
    }

    /**
     * The normal form {@code scheme://host:port} of an origin (lower case, the default port written out), or
     * null when the text is not an origin ({@code null}, a path, no scheme...). For checking {@code --origin}
     * values at start.
     */
    public static String normalizedOrigin(String origin) {
        Origin o = origin == null ? null : Origin.parse(origin);
        return o == null ? null : o.text();
    }

    private static boolean allowed(Origin o, List<String> extraOrigins) {
        if (extraOrigins != null) {
            for (String extra : extraOrigins) {
                if (extra != null && o.equals(Origin.parse(extra))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A header value quoted for a message, cut when long. */
    private static String quote(String s) {
        String v = s.length() > QUOTE_MAX ? s.substring(0, QUOTE_MAX) + "..." : s;
        return "'" + v + "'";
    }

    /** An origin's parts: lower-case scheme and host (IPv6 in brackets), and the port (the default when omitted). */
    private record Origin(String scheme, String host, int port) {
        String text() {
            return scheme + "://" + host + ":" + port;
        }

        /** Parses {@code scheme://host[:port]}; null when malformed, when {@code null}, or with a path or user. */
        static Origin parse(String text) {
            String t = text.strip().toLowerCase(Locale.ROOT);
            int sep = t.indexOf("://");
            if (sep <= 0) {
                return null;
            }
            String scheme = t.substring(0, sep);
            if (!scheme.chars().allMatch(c -> c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '-'
                    || c == '.')) {
                return null;
            }
            Origin o = authority(t.substring(sep + 3), defaultPort(scheme));
            return o == null ? null : new Origin(scheme, o.host, o.port);
        }

        /** The server's own origin from the Host header and the request scheme; null without a usable Host. */
        static Origin own(String host, String scheme) {
            String s = scheme == null ? "http" : scheme.strip().toLowerCase(Locale.ROOT);
            s = switch (s) {
                case "ws" -> "http";
                case "wss" -> "https";
                default -> s;
            };
            Origin o = host == null ? null : authority(host.strip().toLowerCase(Locale.ROOT), defaultPort(s));
            return o == null ? null : new Origin(s, o.host, o.port);
        }

        /** {@code host[:port]} or {@code [v6][:port]}, nothing else; the scheme left empty. */
        private static Origin authority(String a, int dflt) {
            if (a.isEmpty() || a.chars().anyMatch(c -> c == '/' || c == '?' || c == '#' || c == '@' || c <= ' ')) {
                return null;
            }
            String host, port = null;
            if (a.startsWith("[")) {
                int close = a.indexOf(']');
                if (close < 0) {
                    return null;
                }
                host = a.substring(0, close + 1);
                String rest = a.substring(close + 1);
                if (!rest.isEmpty()) {
                    if (!rest.startsWith(":")) {
                        return null;
                    }
                    port = rest.substring(1);
                }
            } else {
                int colon = a.lastIndexOf(':');
                if (colon >= 0 && a.indexOf(':') != colon) {
                    return null; // an IPv6 literal without brackets
                }
                host = colon < 0 ? a : a.substring(0, colon);
                port = colon < 0 ? null : a.substring(colon + 1);
            }
            if (host.isEmpty() || host.equals("[]")) {
                return null;
            }
            int p = dflt;
            if (port != null) {
                if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    return null;
                }
                p = Integer.parseInt(port);
                if (p > 65535) {
                    return null;
                }
            }
            return new Origin("", host, p);
        }

        private static int defaultPort(String scheme) {
            return switch (scheme) {
                case "http", "ws" -> 80;
                case "https", "wss" -> 443;
                default -> -1;
            };
        }
    }
}
