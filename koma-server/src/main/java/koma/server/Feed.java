package koma.server;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.jetty.websocket.api.WriteCallback;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.javalin.websocket.WsContext;
import koma.server.GameView.Seat;

/**
 * The WebSocket feed of each game ({@code /ws/games/{id}}): every connection gets the game when it connects
 * and after every change, as its own seat sees it. Sends are asynchronous and made in order under the
 * game's monitor, so a slow client never holds up a move and never sees states out of order.
 */
final class Feed {
    private final ObjectMapper json;
    private final Map<String, Set<WsContext>> byGame = new ConcurrentHashMap<>();
    private final Map<WsContext, Seat> seats = new ConcurrentHashMap<>();

    Feed(ObjectMapper json) {
        this.json = json;
    }

    /** A new connection: remembered with its seat and sent the game. Call with the game's monitor held. */
    void connect(LiveGame g, WsContext ctx, Seat seat) {
        seats.put(ctx, seat);
        byGame.computeIfAbsent(g.id, k -> ConcurrentHashMap.newKeySet()).add(ctx);
        send(ctx, message(g, seat, System.currentTimeMillis()));
    }

    void disconnect(String gameId, WsContext ctx) {
        seats.remove(ctx);
        Set<WsContext> set = byGame.get(gameId);
        if (set != null) {
            set.remove(ctx);
            if (set.isEmpty()) {
                byGame.remove(gameId, set);
            }
        }
    }

    /** Pushes the game to every connection following it; called with the game's monitor held. */
    void changed(LiveGame g) {
        Set<WsContext> set = byGame.get(g.id);
        if (set == null || set.isEmpty()) {
            return;
        }
        long now = System.currentTimeMillis();
        Map<Seat, String> bySeat = new EnumMap<>(Seat.class);
        for (WsContext ctx : set) {
            Seat seat = seats.getOrDefault(ctx, Seat.NONE);
            send(ctx, bySeat.computeIfAbsent(seat, s -> message(g, s, now)));
        }
    }

    int connections() {
        return seats.size();
    }

    private String message(LiveGame g, Seat seat, long now) {
        try {
            return json.writeValueAsString(Map.of("type", "game", "game", GameView.game(g, seat, now)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static void send(WsContext ctx, String text) {
        if (ctx.session.isOpen()) {
            ctx.session.getRemote().sendString(text, WriteCallback.NOOP);
        }
    }
}
