package koma.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

import io.javalin.http.Context;

/**
 * The web app's files from the classpath folder {@code /web}: {@code index.html} for the pages ({@code /},
 * {@code /game/...}, {@code /rules/...}) and the other files by path. A missing file is a plain 404.
 */
final class StaticFiles {
    private static final Map<String, String> TYPES = Map.ofEntries(Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("js", "text/javascript; charset=utf-8"), Map.entry("mjs", "text/javascript; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"), Map.entry("json", "application/json; charset=utf-8"),
            Map.entry("svg", "image/svg+xml"), Map.entry("png", "image/png"), Map.entry("ico", "image/x-icon"),
            Map.entry("woff2", "font/woff2"), Map.entry("txt", "text/plain; charset=utf-8"),
            Map.entry("webmanifest", "application/manifest+json"));

    private StaticFiles() {
    }

    static void index(Context ctx) throws IOException {
        serve(ctx, "index.html");
    }

    /** A file under /web named by the request path; traversal and unknown files are 404. */
    static void file(Context ctx) throws IOException {
        String path = ctx.path().substring(1);
        if (path.isEmpty()) {
            serve(ctx, "index.html");
            return;
        }
        if (path.contains("..") || path.contains("//") || path.contains("\\") || !path.matches("[A-Za-z0-9._/-]+")) {
            notFound(ctx, path);
            return;
        }
        serve(ctx, path);
    }

    private static void serve(Context ctx, String path) throws IOException {
        InputStream in = StaticFiles.class.getResourceAsStream("/web/" + path);
        if (in == null || path.endsWith("/")) {
            notFound(ctx, path);
            return;
        }
        try (in) {
            byte[] body = in.readAllBytes();
            String ext = path.substring(path.lastIndexOf('.') + 1);
            ctx.contentType(TYPES.getOrDefault(ext, "application/octet-stream"));
            ctx.header("Cache-Control", path.equals("index.html") ? "no-cache" : "max-age=300");
            ctx.result(body);
        }
    }

    private static void notFound(Context ctx, String path) {
        ctx.status(404).contentType("text/plain; charset=utf-8").result("Not found: /" + path + "\n");
    }
}
