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
 * One training position: a FEN/SFEN and the result of its game for the side to move (1 win, 0.5 draw, 0 loss).
 * A data file holds one per line as {@code GAME RESULT FEN} (game number, result, then the position).
 */
public record Sample(int game, String fen, double result) {
    public Sample {
        if (result != 0 && result != 0.5 && result != 1) {
            throw new IllegalArgumentException("result must be 0, 0.5 or 1, got " + result);
        }
    }

    /** Writes samples to a data file. */
    public static void write(Path file, List<Sample> samples) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Sample s : samples) {
                out.write(s.game() + " " + s.result() + " " + s.fen());
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
                String[] f = line.strip().split(" ", 3);
                try {
                    if (f.length < 3) {
                        throw new IllegalArgumentException("expected GAME RESULT FEN");
                    }
                    out.add(new Sample(Integer.parseInt(f[0]), f[2], Double.parseDouble(f[1])));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + ":" + ln + ": " + e.getMessage(), e);
                }
            }
        }
        return out;
    }
}
