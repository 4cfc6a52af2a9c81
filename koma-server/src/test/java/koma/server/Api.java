package koma.server;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A test client of the API: one browser, with its own cookie jar (so its own seats). */
final class Api {
    static final ObjectMapper JSON = new ObjectMapper();

    /** An answer: status, body text and the body as JSON when it is JSON. */
    record Answer(int status, String text, HttpResponse<String> raw) {
        JsonNode json() {
            try {
                return JSON.readTree(text);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + text, e);
            }
        }

        String error() {
            return json().path("error").asText();
        }
    }

    final String base;
    final CookieManager cookies = new CookieManager();
    final HttpClient http;
    /** The address this client claims through X-Forwarded-For (a server trusting 127.0.0.1 keys it so), or null. */
    final String address;

    Api(int port) {
        this(port, null);
    }

    Api(int port, String address) {
        this.base = "http://127.0.0.1:" + port;
        this.address = address;
        this.http = HttpClient.newBuilder().cookieHandler(cookies).connectTimeout(Duration.ofSeconds(10)).build();
    }

    Answer get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    Answer post(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .header("Origin", base).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Answer send(HttpRequest.Builder b) {
        if (address != null) {
            b.header("X-Forwarded-For", address);
        }
        try {
            HttpResponse<String> r = http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body(), r);
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Creates a game and returns its JSON, asserting 201. */
    JsonNode create(String body) {
        Answer a = post("/api/games", body);
        if (a.status() != 201) {
            throw new AssertionError("create: " + a.status() + " " + a.text());
        }
        return a.json();
    }

    /** Plays a move at the given ply, asserting 200. */
    JsonNode move(String id, String move, int ply) {
        Answer a = post("/api/games/" + id + "/moves", "{\"move\":\"" + move + "\",\"ply\":" + ply + "}");
        if (a.status() != 200) {
            throw new AssertionError("move " + move + ": " + a.status() + " " + a.text());
        }
        return a.json();
    }

    /** The first event of a type in an action's answer ({@code {"version", "events"}}), failing when there is none. */
    static JsonNode event(JsonNode answer, String type) {
        for (JsonNode e : answer.get("events")) {
            if (e.get("type").asText().equals(type)) {
                return e;
            }
        }
        throw new AssertionError("no " + type + " event in " + answer);
    }

    /** The seat cookie header value for a game, for the WebSocket client. */
    String cookie(String id) {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("koma_" + id))
                .map(c -> c.getName() + "=" + c.getValue()).findFirst().orElse(null);
    }
}
