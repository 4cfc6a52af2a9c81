package koma.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * Parser for the Betza notation of piece movement (RULES.md 0.1), turning a string such as
 * {@code vRfB3sWbF} into the list of elementary moves it stands for. Forward is +rank for the piece's owner.
 *
 * <p>Supported: atoms W F D A N H G C Z and the compounds R B Q K; a range after an atom ({@code R2},
 * {@code B3}, {@code W2}); direction modifiers f b l r s v, paired diagonal and oblique directions (fl, ffN,
 * bbN, fsN ...); modes m (move only), c (capture only), i (initial squares only) and n (lame leap).
 */
public final class Betza {
    /** Unlimited slide range. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    /**
     * One elementary move: a step vector {@code (dx, dy)} from the owner's point of view. A slide repeats the
     * unit vector up to {@code range} times and is blocked by pieces; a jump goes straight to the vector's
     * end, and a lame jump needs its middle square empty.
     */
    public record Move(int dx, int dy, int range, boolean jump, boolean canMove, boolean canCapture,
                       boolean initialOnly, boolean lame) {
    }

    private Betza() {
    }

    /** Parses a Betza string; throws {@link IllegalArgumentException} naming the offending part. */
    public static List<Move> parse(String betza) {
        if (betza == null || betza.isBlank()) {
            throw new IllegalArgumentException("empty Betza string");
        }
        List<Move> out = new ArrayList<>();
        int i = 0, n = betza.length();
        while (i < n) {
            int start = i;
            StringBuilder mods = new StringBuilder();
            while (i < n && Character.isLowerCase(betza.charAt(i))) {
                mods.append(betza.charAt(i++));
            }
            if (i >= n || !Character.isUpperCase(betza.charAt(i))) {
                throw new IllegalArgumentException("Betza '" + betza + "': modifiers '" + mods
                        + "' at position " + start + " are not followed by an atom letter");
            }
            char atom = betza.charAt(i++);
            int range = -1;
            int digitsStart = i;
            while (i < n && Character.isDigit(betza.charAt(i))) {
                i++;
            }
            if (i > digitsStart) {
                range = Integer.parseInt(betza.substring(digitsStart, i));
                if (range < 1) {
                    throw new IllegalArgumentException("Betza '" + betza + "': range must be at least 1");
                }
            }
            if (i < n && betza.charAt(i) == atom) {
                throw new IllegalArgumentException("Betza '" + betza + "': riders such as '" + atom + atom
                        + "' are not supported");
            }
            expand(betza, mods.toString(), atom, range, out);
        }
        return out;
    }

    private static void expand(String betza, String mods, char atom, int range, List<Move> out) {
        switch (atom) {
            case 'Q' -> {
                expand(betza, mods, 'R', range, out);
                expand(betza, mods, 'B', range, out);
                return;
            }
            case 'K' -> {
                expand(betza, mods, 'W', range, out);
                expand(betza, mods, 'F', range, out);
                return;
            }
            default -> {
            }
        }
        int vx, vy, defaultRange;
        boolean jump;
        switch (atom) {
            case 'W' -> { vx = 1; vy = 0; defaultRange = 1; jump = false; }
            case 'F' -> { vx = 1; vy = 1; defaultRange = 1; jump = false; }
            case 'R' -> { vx = 1; vy = 0; defaultRange = UNLIMITED; jump = false; }
            case 'B' -> { vx = 1; vy = 1; defaultRange = UNLIMITED; jump = false; }
            case 'D' -> { vx = 2; vy = 0; defaultRange = 1; jump = true; }
            case 'A' -> { vx = 2; vy = 2; defaultRange = 1; jump = true; }
            case 'H' -> { vx = 3; vy = 0; defaultRange = 1; jump = true; }
            case 'G' -> { vx = 3; vy = 3; defaultRange = 1; jump = true; }
            case 'N' -> { vx = 2; vy = 1; defaultRange = 1; jump = true; }
            case 'C' -> { vx = 3; vy = 1; defaultRange = 1; jump = true; }
            case 'Z' -> { vx = 3; vy = 2; defaultRange = 1; jump = true; }
            default -> throw new IllegalArgumentException("Betza '" + betza + "': unknown atom '" + atom + "'");
        }
        if (jump && range != -1) {
            throw new IllegalArgumentException("Betza '" + betza + "': a range on the leaper '" + atom
                    + "' is not supported");
        }
        int r = range == -1 ? defaultRange : range;
        boolean moveOnly = false, captureOnly = false, initial = false, lame = false;
        StringBuilder dirs = new StringBuilder();
        for (char c : mods.toCharArray()) {
            switch (c) {
                case 'm' -> moveOnly = true;
                case 'c' -> captureOnly = true;
                case 'i' -> initial = true;
                case 'n' -> lame = true;
                case 'f', 'b', 'l', 'r', 's', 'v', 'h' -> dirs.append(c);
                default -> throw new IllegalArgumentException("Betza '" + betza + "': unknown modifier '" + c
                        + "' before '" + atom + "'");
            }
        }
        if (moveOnly && captureOnly) {
            throw new IllegalArgumentException("Betza '" + betza + "': both 'm' and 'c' on one atom");
        }
        if (lame && !(atom == 'D' || atom == 'A')) {
            throw new IllegalArgumentException("Betza '" + betza + "': lame 'n' is supported on D and A only");
        }
        if ((lame || initial) && !moveOnly) {
            throw new IllegalArgumentException("Betza '" + betza + "': 'i' and 'n' are supported on move-only atoms"
                    + " (add 'm')");
        }
        List<String> tokens = tokens(dirs.toString(), vx, vy);
        boolean any = false;
        for (int[] v : vectors(vx, vy)) {
            if (tokens.isEmpty() || matchesAny(tokens, v[0], v[1])) {
                any = true;
                int len = Math.max(Math.abs(v[0]), Math.abs(v[1]));
                int ux = jump ? v[0] : v[0] / len, uy = jump ? v[1] : v[1] / len;
                out.add(new Move(ux, uy, r, jump, !captureOnly, !moveOnly, initial, lame));
            }
        }
        if (!any) {
            throw new IllegalArgumentException("Betza '" + betza + "': directions '" + dirs + "' select no move of '"
                    + atom + "'");
        }
    }

    /** All symmetric images of the vector (vx, vy). */
    private static List<int[]> vectors(int vx, int vy) {
        List<int[]> out = new ArrayList<>();
        int[][] cand = {{vx, vy}, {vy, vx}};
        for (int[] c : cand) {
            for (int sx = -1; sx <= 1; sx += 2) {
                for (int sy = -1; sy <= 1; sy += 2) {
                    int x = c[0] * sx, y = c[1] * sy;
                    boolean dup = false;
                    for (int[] o : out) {
                        if (o[0] == x && o[1] == y) {
                            dup = true;
                            break;
                        }
                    }
                    if (!dup) {
                        out.add(new int[]{x, y});
                    }
                }
            }
        }
        return out;
    }

    /** Splits direction letters into tokens; on diagonal and oblique atoms two letters can form one direction. */
    private static List<String> tokens(String dirs, int vx, int vy) {
        List<String> out = new ArrayList<>();
        boolean orthogonal = vy == 0;
        for (int i = 0; i < dirs.length(); i++) {
            char a = dirs.charAt(i);
            if (!orthogonal && i + 1 < dirs.length()) {
                String pair = dirs.substring(i, i + 2);
                if (isPair(pair, vx == vy)) {
                    out.add(pair);
                    i++;
                    continue;
                }
            }
            out.add(String.valueOf(a));
        }
        return out;
    }

    private static boolean isPair(String p, boolean diagonal) {
        if (diagonal) {
            return switch (p) {
                case "fl", "fr", "bl", "br", "lf", "rf", "lb", "rb" -> true;
                default -> false;
            };
        }
        return switch (p) {
            case "ff", "bb", "ll", "rr", "fs", "bs", "fl", "fr", "bl", "br", "lv", "rv", "fh", "bh" -> true;
            default -> false;
        };
    }

    private static boolean matchesAny(List<String> tokens, int x, int y) {
        for (String t : tokens) {
            if (matches(t, x, y)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String t, int x, int y) {
        boolean oblique = x != 0 && y != 0 && Math.abs(x) != Math.abs(y);
        boolean longVertical = Math.abs(y) > Math.abs(x);
        return switch (t) {
            case "f" -> y > 0;
            case "b" -> y < 0;
            case "l" -> x < 0;
            case "r" -> x > 0;
            case "s", "h" -> oblique ? !longVertical : x != 0;
            case "v" -> oblique ? longVertical : y != 0;
            case "ff" -> y > 0 && longVertical;
            case "bb" -> y < 0 && longVertical;
            case "ll" -> x < 0 && !longVertical;
            case "rr" -> x > 0 && !longVertical;
            case "fs", "fh" -> y > 0 && !longVertical;
            case "bs", "bh" -> y < 0 && !longVertical;
            case "lv" -> x < 0 && longVertical;
            case "rv" -> x > 0 && longVertical;
            case "fl", "lf" -> y > 0 && x < 0;
            case "fr", "rf" -> y > 0 && x > 0;
            case "bl", "lb" -> y < 0 && x < 0;
            case "br", "rb" -> y < 0 && x > 0;
            default -> false;
        };
    }
}
