package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import koma.server.KomaServer;
import koma.server.ServerConfig;

/** {@code koma accounts add}: the account exists on the server's database and its printed token authorises it. */
class AccountsCommandTest {
    @TempDir
    Path data;

    @Test
    void addPrintsATokenTheServerAccepts() throws Exception {
        Cli.Result r = Cli.inProcess("accounts", "add", "ClubBot", "--bot", "--data", data.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("account: ClubBot (bot)\ntoken: koma_"), r.out());
        String token = r.out().substring(r.out().indexOf("token: ") + 7).strip();
        Cli.Result again = Cli.inProcess("accounts", "add", "clubbot", "--data", data.toString());
        assertEquals(2, again.exit());
        assertTrue(again.err().contains("name: 'clubbot' is taken"), again.err());
        Cli.Result bad = Cli.inProcess("accounts", "add", "a b", "--data", data.toString());
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("name: only letters"), bad.err());
        try (KomaServer server = KomaServer.start(new ServerConfig(0, "127.0.0.1", null, data, 0, 0, 1))) {
            HttpResponse<String> me = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + server.port() + "/api/account"))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, me.statusCode());
            assertTrue(me.body().contains("\"name\":\"ClubBot\"") && me.body().contains("\"bot\":true"), me.body());
        }
    }
}
