package koma.server;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The error body's translation fields: a refusal with a stable code answers {@code {"error": English text, "code":
 * C, "params": {...}}}, and the page shows its own language's {@code err.C} filled with the params
 * (docs/server-api.md, <i>Errors</i>). The codes are an API: a code keeps its meaning once published.
 */
final class ErrorCodes {
    private ErrorCodes() {
    }

    /** Name, value, name, value... as an ordered map of strings; a name without a value is refused. */
    static Map<String, String> params(Object... nameValues) {
        if (nameValues.length % 2 != 0) {
            throw new IllegalArgumentException("error params come in name/value pairs, got " + nameValues.length);
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            m.put(String.valueOf(nameValues[i]), String.valueOf(nameValues[i + 1]));
        }
        return Map.copyOf(m);
    }

    /** The JSON error body. */
    static Map<String, Object> body(String message, String code, Map<String, String> params) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", message == null ? "error" : message);
        if (code != null) {
            m.put("code", code);
            m.put("params", params);
        }
        return m;
    }
}
