package koma.rules;

/**
 * The insufficient-material hooks named by a rule set's {@code material} key: positions drawn at once because
 * neither side can mate (chess dead positions), Shodo's explicit list (RULES.md 5.7), and bare crane kings
 * (the Wa shogi supplement of RULES.md 3.6).
 */
final class Material {
    private Material() {
    }

    static boolean insufficient(Position p, RuleSet.Material rule) {
        return switch (rule) {
            case NONE -> false;
            case CHESS -> chess(p);
            case SHODO -> shodo(p);
            case BARE_KINGS -> p.pieceCount(0) == 1 && p.pieceCount(1) == 1;
        };
    }

    private static String letter(Position p, int sq) {
        return p.ruleSet().piece(p.typeAt(sq)).letter();
    }

    /** K v K, K+B v K, K+N v K, and kings with bishops all on squares of one colour. */
    private static boolean chess(Position p) {
        int minors = 0, knights = 0, bishopShade = -1;
        boolean mixedBishops = false;
        Geometry g = p.geometry();
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < p.pieceCount(c); i++) {
                int sq = p.pieceSquare(c, i);
                switch (letter(p, sq)) {
                    case "K" -> {
                    }
                    case "N" -> {
                        knights++;
                        minors++;
                    }
                    case "B" -> {
                        minors++;
                        int shade = (g.file(sq) + g.rank(sq)) & 1;
                        if (bishopShade >= 0 && shade != bishopShade) {
                            mixedBishops = true;
                        }
                        bishopShade = shade;
                    }
                    default -> {
                        return false;
                    }
                }
            }
        }
        if (minors <= 1) {
            return true;
        }
        return knights == 0 && !mixedBishops;
    }

    /** Shodo: two bare kings; K+N v K; K+N v K+N with both knights on squares of the same colour (A8). */
    private static boolean shodo(Position p) {
        int[] knights = {0, 0};
        int[] knightSq = {-1, -1};
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < p.pieceCount(c); i++) {
                int sq = p.pieceSquare(c, i);
                switch (letter(p, sq)) {
                    case "K" -> {
                    }
                    case "N" -> {
                        knights[c]++;
                        knightSq[c] = sq;
                    }
                    default -> {
                        return false;
                    }
                }
            }
        }
        if (knights[0] + knights[1] <= 1) {
            return true;
        }
        return knights[0] == 1 && knights[1] == 1 && p.geometry().sameShade(knightSq[0], knightSq[1]);
    }
}
