package koma.engine.tune;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One training position: a FEN/SFEN, the result of its game for the side to move (1 win, 0.5 draw, 0 loss) and the
 * self-play search's score for the side to move (centipawns). A data file holds one per line as
 * {@code GAME RESULT SCORE FEN} (game number, result, score, then the position).
 */
public record Sample(int game, String fen, double result, int score) {
    public Sample {
        if (result != 0 && result != 0.5 && result != 1) {
            throw new IllegalArgumentException("result must be 0, 0.5 or 1, got " + result);
        }
    }

    /** Writes samples to a data file. */
    public static void write(Path file, List<Sample> samples) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Sample s : samples) {
                out.write(s.game() + " " + s.result() + " " + s.score() + " " + s.fen());
                out.newLine();
            }
        }
    }

    /** Reads a data file; a malformed line is refused with its number. */
    public static List<Sample> read(Path file) throws IOException {
        List<Sample> out = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int ln = 0;
            while ((line = in.readLine()) != null) {
                ln++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.strip().split(" ", 4);
                try {
                    if (f.length < 4) {
                        throw new IllegalArgumentException("expected GAME RESULT SCORE FEN");
                    }
                    out.add(new Sample(Integer.parseInt(f[0]), f[3], Double.parseDouble(f[1]), Integer.parseInt(f[2])));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + ":" + ln + ": " + e.getMessage(), e);
                }
            }
        }
        return out;
    }
}
