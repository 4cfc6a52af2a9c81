package koma.server;

/**
 * Account administration on a server's database without running the server ({@code koma accounts add}): what a
 * club server's administrator and the bot API need. The database is migrated first, as the server does.
 */
public final class AccountAdmin {
    private AccountAdmin() {
    }

    /** A created account: its name and its first personal API token (shown once). */
    public record Created(String name, boolean bot, String token) {
    }

    /**
     * Creates an account without a password, optionally marked as a bot, and returns its first API token: the
     * account acts through the API with {@code Authorization: Bearer <token>} (it cannot sign in on the page).
     *
     * @throws IllegalArgumentException naming what is wrong (a bad or taken name)
     */
    public static Created add(String jdbcUrl, String name, boolean bot) {
        try (Database db = new Database(jdbcUrl)) {
            Accounts.Added a = new Accounts(db, new PasswordHasher()).add(name, bot);
            return new Created(a.user().name(), bot, a.token());
        } catch (GameError e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
