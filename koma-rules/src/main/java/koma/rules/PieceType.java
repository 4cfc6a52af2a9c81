package koma.rules;

import java.util.List;

/**
 * One piece type of a rule set, as declared in its definition file.
 *
 * @param index        position in the rule set's piece list
 * @param name         a readable name ("pawn", "swooping owl")
 * @param letter       FEN/SFEN letter in upper case, with a leading '+' for promoted shogi-family pieces
 * @param betza        the movement in Betza notation
 * @param moves        the parsed movement
 * @param promotions   the types this piece may become when it promotes (empty: never promotes)
 * @param forcedRanks  on the owner's last {@code forcedRanks} ranks the piece must promote and may not be dropped
 * @param demotesTo    the type it reverts to when captured (its own index when it does not demote)
 * @param royal        the piece whose attack is check
 * @param pawn         a pawn for the move-count rules, with en passant where the rule set allows it
 * @param dropOneFile  nifu: no drop on a file holding an unpromoted friendly piece of this type
 * @param dropNoMate   uchifuzume: a drop of this type may not give immediate mate
 * @param points       impasse count value
 */
public record PieceType(int index, String name, String letter, String betza, List<Betza.Move> moves,
                        int[] promotions, int forcedRanks, int demotesTo, boolean royal, boolean pawn,
                        boolean dropOneFile, boolean dropNoMate, int points) {

    /** True for the shogi-family promoted pieces written '+X'. */
    public boolean promoted() {
        return letter.startsWith("+");
    }

    public boolean canPromote() {
        return promotions.length > 0;
    }
}
