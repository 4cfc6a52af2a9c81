package koma.server;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One event of a live game (docs/server-api.md, "Versions and events"): its type, the game's version it made, and
 * its fields. The same for every seat, so it is written to JSON once ({@link #json}) and sent as is to every feed.
 */
final class GameEvent {
    private static final ObjectMapper JSON = new ObjectMapper();

    final String type;
    final int version;
    /** The event as the API shows it: {@code type}, {@code version}, then the fields. */
    final Map<String, Object> fields;
    private volatile String json;

    GameEvent(String type, int version, Map<String, Object> data) {
        this.type = type;
        this.version = version;
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
}
