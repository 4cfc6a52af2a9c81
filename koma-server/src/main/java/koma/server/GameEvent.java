package koma.server;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One event of a live game (docs/server-api.md, "Versions and events"): its type, the game's version it made, and
 * its fields. The same for every seat, so it is written to JSON once ({@link #json}) and sent as is to every feed
 * of its {@link Audience}; a feed outside it gets the event's {@link #skipJson} instead (its version only), so that
 * every client still sees every version.
 */
final class GameEvent {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Who may read an event: everyone, the seats only (players' chat), the spectators only (spectators' chat). */
    enum Audience {
        ALL, SEATS, SPECTATORS;

        /** True when a feed of this seat gets the event itself, not its skip. */
        boolean includes(GameView.Seat seat) {
            return this == ALL || (this == SEATS) == (seat != GameView.Seat.NONE);
        }
    }

    final String type;
    final int version;
    final Audience audience;
    /** The event as the API shows it: {@code type}, {@code version}, then the fields. */
    final Map<String, Object> fields;
    private volatile String json;
    /** The skip sent to feeds outside the audience, made once (see {@link #skipJson}). */
    private volatile String skipJson;

    GameEvent(String type, int version, Map<String, Object> data) {
        this(type, version, data, Audience.ALL);
    }

    GameEvent(String type, int version, Map<String, Object> data, Audience audience) {
        this.type = type;
        this.version = version;
        this.audience = audience;
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("type", type);
        f.put("version", version);
        f.putAll(data);
        this.fields = f;
    }

    /** The event as one JSON text, made once. */
    String json() {
        String j = json;
        if (j == null) {
            try {
                j = JSON.writeValueAsString(fields);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            json = j;
        }
        return j;
    }

    /** What a feed outside the event's audience gets: {@code {"type":"skip","version":V}}. */
    String skipJson() {
        String j = skipJson;
        if (j == null) {
            j = "{\"type\":\"skip\",\"version\":" + version + "}";
            skipJson = j;
        }
        return j;
    }

    /** The event's JSON for a feed or an answer of this seat: the event itself, or its skip. */
    String jsonFor(GameView.Seat seat) {
        return audience.includes(seat) ? json() : skipJson();
    }
}
