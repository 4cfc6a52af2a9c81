package koma.server.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One real headless Chromium (Debian's chromium and chromedriver) with its own fresh profile, so two
 * instances are two separate people (cookies, localStorage), plus the page actions the browser tests use.
 */
public final class Browser implements AutoCloseable {
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    public static final Path SCREENSHOTS = Path.of("target", "screenshots");

    public final ChromeDriver driver;
    public final String base;
    private final Path profile;

    public Browser(String base) {
        this.base = base;
        try {
            profile = Files.createTempDirectory("koma-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=1300,1000", "--lang=en-US");
        o.setExperimentalOption("prefs", Map.of("intl.accept_languages", "en-US,en"));
        // the console, for the tests that check a page logs no error
        o.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, o);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    }

    public void open(String path) {
        driver.get(base + path);
    }

    public WebDriverWait waiting(int seconds) {
        WebDriverWait w = new WebDriverWait(driver, Duration.ofSeconds(seconds), Duration.ofMillis(50));
        w.ignoring(StaleElementReferenceException.class);
        return w;
    }

    public WebElement waitFor(String css) {
        return waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    public List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    public Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /**
     * The header's links and menus that are not whole inside the window (cut at an edge, scrolled out of sight or
     * not shown), by their text or id, comma-separated; empty when every one can be seen and reached.
     */
    public String headerItemsCut() {
        return (String) js("const w = document.documentElement.clientWidth; return [...document"
                + ".querySelectorAll('header.top a, header.top select')].filter(e => { const r = e.getBoundingClientRect();"
                + " return r.width === 0 || r.left < 0 || r.right > w + 0.5; }).map(e => e.textContent.trim().slice(0, 20)"
                + " || e.id).join(', ');");
    }

    /** Fills the new-game form and starts the game; returns the game id from the address. */
    public String newGame(String variant, String mode, int level, String color, String fen) {
        return newGame(variant, mode, level, color, fen, "none");
    }

    /** Moves the new-game form's level slider to {@code level}, as a drag would (its input event). */
    public void setLevel(int level) {
        js("const r = document.getElementById('ng-level'); r.value = arguments[0];"
                + " r.dispatchEvent(new Event('input', {bubbles: true}));", String.valueOf(level));
    }

    /** As above with a clock type (none, fischer or byoyomi) at the form's default times. */
    public String newGame(String variant, String mode, int level, String color, String fen, String clock) {
        open("/");
        waitFor("#new-game-form");
        new Select(driver.findElement(By.id("ng-variant"))).selectByValue(variant);
        driver.findElement(By.cssSelector("input[name=mode][value=" + mode + "]")).click();
        if (mode.equals("computer")) {
            setLevel(level);
        }
        if (!mode.equals("hotseat")) {
            new Select(driver.findElement(By.id("ng-color"))).selectByValue(color);
        }
        driver.findElement(By.cssSelector("input[name=clock][value=" + clock + "]")).click();
        if (fen != null) {
            driver.findElement(By.cssSelector("details.field summary")).click();
            WebElement f = driver.findElement(By.id("ng-fen"));
            f.clear();
            f.sendKeys(fen);
        }
        driver.findElement(By.id("ng-start")).click();
        waiting(20).until(d -> d.getCurrentUrl().contains("/game/"));
        waitFor("svg.board");
        String url = driver.getCurrentUrl();
        return url.substring(url.indexOf("/game/") + 6).replaceAll("[?#].*", "");
    }

    /** The text of the first element matching css, read in one script call (the page redraws often). */
    public String text(String css) {
        waitFor(css);
        Object t = js("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", css);
        return t == null ? "" : t.toString();
    }

    /** The texts of all elements matching css, joined by spaces, read in one script call. */
    public String texts(String css) {
        Object t = js("return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent).join(' ');", css);
        return t == null ? "" : t.toString();
    }

    /** The ply the page shows (the move-list position). */
    public int shownPly() {
        waitFor("#ply-label");
        Object ply = js("return document.getElementById('ply-label').dataset.ply;");
        return ply == null ? -1 : Integer.parseInt(ply.toString());
    }

    /** Plays a UCI move by clicking: the piece (or the hand piece), the destination, the promotion choice. */
    public void clickMove(String uci, String side) {
        String to;
        if (uci.contains("@")) {
            String letter = uci.substring(0, uci.indexOf('@'));
            clickRetrying(".hand [data-hand='" + letter + "'][data-side='" + side + "']");
            to = uci.substring(uci.indexOf('@') + 1);
        } else {
            var m = java.util.regex.Pattern.compile("([a-p]\\d{1,2})([a-p]\\d{1,2})(.*)").matcher(uci);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a move: " + uci);
            }
            clickSquare(m.group(1));
            to = m.group(2);
        }
        waitFor("circle.dest[data-dest='" + to + "']");
        clickSquare(to);
        List<WebElement> dialog = all(".promo-dialog");
        if (!dialog.isEmpty()) {
            String suffix = uci.contains("@") ? "" : uci.replaceAll("^[a-p]\\d{1,2}[a-p]\\d{1,2}", "");
            dialog.get(0).findElement(By.cssSelector(".promo-option[data-promo='" + (suffix.isEmpty() ? "=" : suffix) + "']")).click();
        }
        // slow and correspondence games ask to confirm a move (the page's default): a person confirms it
        if (!all("#confirm-box:not([hidden]) #confirm-yes").isEmpty()) {
            clickRetrying("#confirm-yes");
        }
    }

    public WebElement square(String sq) {
        return waitFor("rect[data-square='" + sq + "']");
    }

    /** Clicks a square; again when a feed update redrew the board between finding and clicking it. */
    public void clickSquare(String sq) {
        clickRetrying("rect[data-square='" + sq + "']");
    }

    /** Clicks the first element matching css; again when a redraw replaced it between finding and clicking. */
    public void clickRetrying(String css) {
        for (int attempt = 0; ; attempt++) {
            try {
                waitFor(css).click();
                return;
            } catch (StaleElementReferenceException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    /** The piece letter on a square as the page draws it, or null. */
    public String pieceOn(String sq) {
        Object p = js("const e = document.querySelector(\"g.pc[data-on='\" + arguments[0] + \"']\"); return e && e.dataset.piece;", sq);
        return p == null ? null : p.toString();
    }

    /**
     * Sizes the window so that the page itself (innerWidth x innerHeight) has this size. The window's frame is
     * measured after each resize and the size corrected until the page has it: a resize the browser had not yet
     * applied when the page was measured (seen in CI: 1432 wide, not 1366) is measured again, not trusted.
     */
    public void viewport(int width, int height) {
        var window = driver.manage().window();
        window.setSize(new org.openqa.selenium.Dimension(width, height));
        waiting(20).withMessage(() -> "the page stayed " + js("return innerWidth + 'x' + innerHeight;") + ", not "
                + width + "x" + height).pollingEvery(Duration.ofMillis(250)).until(d -> {
                    long w = ((Number) js("return innerWidth;")).longValue();
                    long h = ((Number) js("return innerHeight;")).longValue();
                    if (w == width && h == height) {
                        return true;
                    }
                    var now = window.getSize();
                    window.setSize(new org.openqa.selenium.Dimension(now.getWidth() + (int) (width - w),
                            now.getHeight() + (int) (height - h)));
                    return false;
                });
    }

    public void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp profile is harmless
        }
    }
}
