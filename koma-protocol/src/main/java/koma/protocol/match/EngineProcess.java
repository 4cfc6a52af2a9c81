package koma.protocol.match;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The child process behind an engine client, whatever its protocol: standard output read by a thread into a
 * queue of time-stamped lines (so every wait has a deadline and an answer's time is when it arrived), standard
 * error drained by another thread (its last lines are quoted when the engine fails), and a polite then forceful
 * shutdown.
 */
abstract class EngineProcess {
    private static final int STDERR_LINES = 20;

    /** A line of engine output and the time it arrived. */
    record Line(String text, long nanos) {
    }

    static final Line EOF = new Line(null, 0);

    final EngineConfig config;
    final Process process;
    private final Writer stdin;
    final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
    private final Deque<String> stderrTail = new ArrayDeque<>();
    volatile boolean healthy = true;
    boolean eof;

    EngineProcess(EngineConfig config, Process process) {
        this.config = config;
        this.process = process;
        this.stdin = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        String tag = config.name() != null ? config.name() : Path.of(config.argv().get(0)).getFileName().toString();
        Thread out = new Thread(this::readStdout, "engine-out-" + tag);
        out.setDaemon(true);
        out.start();
        Thread err = new Thread(this::drainStderr, "engine-err-" + tag);
        err.setDaemon(true);
        err.start();
    }

    /** Starts the engine's process; the error names the command. */
    static Process launch(EngineConfig config) throws EngineException {
        try {
            return new ProcessBuilder(config.argv()).start();
        } catch (IOException e) {
            throw new EngineException("cannot start engine '" + config.command() + "': " + e.getMessage(), e);
        }
    }

    /** The engine's name, for messages. */
    abstract String name();

    /** The configured name, else the one the engine reported (may be null), else the command's file name. */
    String nameOr(String reported) {
        if (config.name() != null) {
            return config.name();
        }
        return reported != null ? reported : Path.of(config.argv().get(0)).getFileName().toString();
    }

    /** What a client does right after its process starts: the protocol's handshake. */
    interface Handshake {
        void run() throws EngineException;
    }

    /** Runs a freshly started client's handshake; on any failure the process is closed before the error goes up. */
    static <C extends EngineProcess> C started(C client, Handshake handshake) throws EngineException {
        try {
            handshake.run();
        } catch (EngineException | RuntimeException e) {
            client.close();
            throw e;
        }
        return client;
    }

    private void readStdout() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String s;
            while ((s = r.readLine()) != null) {
                lines.add(new Line(s, System.nanoTime()));
            }
        } catch (IOException e) {
            // the process went away
        } finally {
            lines.add(EOF);
        }
    }

    private void drainStderr() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String s;
            while ((s = r.readLine()) != null) {
                synchronized (stderrTail) {
                    if (stderrTail.size() == STDERR_LINES) {
                        stderrTail.removeFirst();
                    }
                    stderrTail.addLast(s);
                }
            }
        } catch (IOException e) {
            // the process went away
        }
    }

    String stderrTail() {
        synchronized (stderrTail) {
            return stderrTail.isEmpty() ? "" : "; its last error output: " + String.join(" | ", stderrTail);
        }
    }

    String exitCode() {
        try {
            if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
                return " (exit code " + process.exitValue() + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    public boolean healthy() {
        return healthy && !eof && process.isAlive();
    }

    /** The next line, or null at the deadline; EOF once the output closed. */
    Line next(long deadlineNanos) {
        if (eof) {
            return EOF;
        }
        try {
            long wait = deadlineNanos - System.nanoTime();
            Line l = wait <= 0 ? lines.poll() : lines.poll(wait, TimeUnit.NANOSECONDS);
            if (l == EOF) {
                eof = true;
            }
            return l;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Drops output left over from an earlier request (noting the end of output). */
    void discardPending() {
        Line stale;
        while ((stale = lines.poll()) != null) {
            if (stale == EOF) {
                eof = true;
            }
        }
    }

    /** After a timeout: how long to wait for the move that asking the engine to move now should produce. */
    public static final long STOP_GRACE_MS = 1_000;

    /** A request to the engine that may fail to be written. */
    interface Request {
        void send() throws EngineException;
    }

    /**
     * After a timeout (UCI's {@code stop}, XBoard's {@code ?}): sends {@code moveNow}, then waits up to
     * {@link #STOP_GRACE_MS} for the move it should produce, a line {@code isMove} accepts; no move by then, or the
     * end of output, marks the engine unhealthy. Returns true when the move came (false too when the request could
     * not be written: the engine is gone, which the next request reports).
     */
    boolean stopAfterTimeout(Request moveNow, java.util.function.Predicate<String> isMove) {
        try {
            moveNow.send();
        } catch (EngineException e) {
            return false;
        }
        long deadline = System.nanoTime() + STOP_GRACE_MS * 1_000_000;
        while (true) {
            Line l = next(deadline);
            if (l == null || l == EOF) {
                healthy = false;
                return false;
            }
            if (isMove.test(l.text().strip())) {
                return true;
            }
        }
    }

    /** What an engine has reported while thinking: its last score (null for none) and depth. */
    static final class Progress {
        Score score;
        int depth;
    }

    /** Reads one line of a thinking engine: a reply ends the wait, null reads on (noting progress). */
    interface LineHandler {
        Reply line(String text, long elapsedMs, Progress progress) throws EngineException;
    }

    /**
     * Waits for the answer to a request sent at {@code t0} (nanos): lines go to {@code handler} until it returns a
     * reply. No answer by {@code timeoutMs} becomes a TIMEOUT reply (after {@code onTimeout}, which asks the engine
     * to move now), the end of output a CRASH reply.
     */
    Reply await(long t0, long timeoutMs, String answer, Runnable onTimeout, LineHandler handler) {
        long deadline = t0 + timeoutMs * 1_000_000;
        Progress progress = new Progress();
        while (true) {
            Line l = next(deadline);
            if (l == null) {
                long elapsed = (System.nanoTime() - t0) / 1_000_000;
                onTimeout.run();
                return new Reply(Reply.Kind.TIMEOUT, null, elapsed, progress.score, progress.depth,
                        "no " + answer + " after " + elapsed + " ms");
            }
            if (l == EOF) {
                healthy = false;
                return new Reply(Reply.Kind.CRASH, null, (System.nanoTime() - t0) / 1_000_000, progress.score,
                        progress.depth, name() + " exited" + exitCode() + stderrTail());
            }
            try {
                Reply r = handler.line(l.text().strip(), Math.max(0, (l.nanos() - t0) / 1_000_000), progress);
                if (r != null) {
                    return r;
                }
            } catch (EngineException e) {
                return new Reply(Reply.Kind.CRASH, null, (System.nanoTime() - t0) / 1_000_000, progress.score,
                        progress.depth, e.getMessage());
            }
        }
    }

    void send(String line) throws EngineException {
        try {
            stdin.write(line);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            healthy = false;
            throw new EngineException(name() + ": cannot write to the engine (" + e.getMessage() + ")" + stderrTail(), e);
        }
    }

    /** Asks the engine to quit, then ends the process (and its children) if it does not. */
    public void close() {
        try {
            if (process.isAlive()) {
                send("quit");
            }
        } catch (EngineException e) {
            // already gone
        }
        try {
            if (!process.waitFor(1000, TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroy);
                process.destroy();
                if (!process.waitFor(500, TimeUnit.MILLISECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    process.waitFor(2000, TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            stdin.close();
        } catch (IOException e) {
            // nothing to do
        }
        healthy = false;
    }

    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
