package koma.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;

import koma.protocol.match.EngineConfig;
import koma.server.AccountAdmin;
import koma.server.KomaServer;
import koma.server.ServerConfig;
import koma.server.browser.Browser;

/**
 * {@code koma bot} with Koma's engine plays a person in real headless Chromium: the person signs up, challenges the
 * bot from its profile page, lands in the game when the bridge accepts, and every move they click is answered.
 */
class BotBrowserTest {
    @Test
    void aPersonChallengesTheBotFromItsPageAndPlays() throws Exception {
        Path data = Files.createTempDirectory("koma-bot-browser-");
        try (KomaServer server = KomaServer.start(new ServerConfig(0, "127.0.0.1", null, data, 0, 0, 1))) {
            String base = "http://127.0.0.1:" + server.port();
            String token = AccountAdmin.add("jdbc:sqlite:" + data.resolve("koma.db"), "KomaBot", true).token();
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            BotBridge bridge = new BotBridge(new BotBridge.Settings(base, token, new EngineConfig(BotCommand.ownEngine(),
                    EngineConfig.Protocol.UCI, "Koma", List.of()), Set.of("chess"), 1, true, true, 500),
                    new PrintStream(log, true, StandardCharsets.UTF_8));
            Thread t = Thread.ofPlatform().daemon().start(() -> {
                try {
                    bridge.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try (Browser pat = new Browser(base)) {
                pat.open("/account");
                pat.waitFor("#signup");
                pat.driver.findElement(By.id("signup-name")).sendKeys("Pat");
                pat.driver.findElement(By.id("signup-password")).sendKeys("secret-of-pat");
                pat.driver.findElement(By.cssSelector("#signup button[type=submit]")).click();
                pat.waiting(20).until(d -> d.getCurrentUrl().endsWith("/lobby"));
                pat.open("/@/KomaBot");
                pat.waitFor("#challenge-form");
                assertTrue(pat.text("h1").contains("BOT"), pat.text("h1"));
                new Select(pat.driver.findElement(By.id("ch-variant"))).selectByValue("chess");
                new Select(pat.driver.findElement(By.id("ch-color"))).selectByValue("white");
                // a short clock, so that the engine's answers come in seconds (at the form's 5+3 an opening move
                // may take 10 to 20 s of a busy CI machine's time)
                pat.driver.findElement(By.id("ch-clock")).clear();
                pat.driver.findElement(By.id("ch-clock")).sendKeys("1+1");
                pat.driver.findElement(By.id("ch-send")).click();
                pat.waiting(30).withMessage(() -> "no game page after the challenge; the bot's log: "
                        + log.toString(StandardCharsets.UTF_8)).until(d -> d.getCurrentUrl().contains("/game/"));
                pat.waitFor("svg.board");
                assertTrue(pat.texts(".player-name").contains("KomaBot (1500?)"), pat.texts(".player-name"));
                for (String[] m : new String[][]{{"e2e4", "2"}, {"g1f3", "4"}}) {
                    pat.clickMove(m[0], "first");
                    int ply = Integer.parseInt(m[1]);
                    pat.waiting(30).until(d -> pat.shownPly() == ply);
                }
                pat.screenshot("bot-game-desktop");
                pat.clickRetrying("#resign");
                pat.clickRetrying("#resign.confirm");
                pat.waiting(20).until(d -> !pat.all("#result[data-winner='second']").isEmpty());
            } finally {
                bridge.close();
                t.interrupt();
            }
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("accepted chess challenge"), log.toString(StandardCharsets.UTF_8));
        }
    }
}
