package koma.server;

/**
 * The account seated on one side of a game, as the game shows it: its id, its name (null once the account is
 * deleted: the game stays, anonymised) and its rating in the game's rule set when the game began.
 */
record PlayerAccount(String userId, String name, int rating, boolean provisional, boolean bot) {
}
