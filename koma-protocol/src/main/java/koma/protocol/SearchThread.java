package koma.protocol;

import koma.engine.Search;

/**
 * The one background search of a protocol session (UCI/USI {@link EngineSession}, XBoard {@link XBoardSession}):
 * started with the work to do, then stopped or awaited from the command loop ({@code stop}, {@code ?}, a new
 * position, {@code quit}). At most one runs at a time; the command loop is its only caller.
 */
final class SearchThread {
    private final String name;
    private Thread thread;

    SearchThread(String name) {
        this.name = name;
    }

    /** Runs {@code work} (the search and the answer it prints) on a new thread. */
    void start(Runnable work) {
        thread = new Thread(work, name);
        thread.start();
    }

    /** True while a started search has not finished. */
    boolean running() {
        Thread t = thread;
        return t != null && t.isAlive();
    }

    /** Tells the search to stop (when there is one) and waits until its thread has printed its answer. */
    void stop(Search search) {
        if (search != null) {
            search.stop();
        }
        await();
    }

    /** Waits for a running search to finish (it has been told to stop, or it ends by its limits). */
    void await() {
        Thread t = thread;
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }
}
