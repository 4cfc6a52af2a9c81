package koma.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongFunction;

import koma.protocol.match.EngineConfig;
import koma.protocol.match.Match;
import koma.protocol.match.Opening;
import koma.protocol.match.Stats;
import koma.protocol.match.TimeControl;
import koma.rules.Conventions;
import koma.rules.RuleSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code koma match}: engine against engine, refereed by Koma's rules core. */
@Command(name = "match", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Plays a match between two engines (UCI or USI) on one rule set, with Koma's rules core as the "
                + "referee: every move is checked (an illegal or malformed move loses), the clocks are kept with wall "
                + "time (a late move or a hung engine loses on time), and every end rule of the rule set applies "
                + "(chess threefold repetition and the 50-move rule end the game).",
                "Adjudication that is not a rule: after --max-plies plies the game is drawn (in shogi, with both kings "
                        + "in their zones, the 24-point impasse count decides).",
                "Each opening is played twice, colours swapped. Prints a line per game, then the score from engine 1's "
                        + "point of view, the Elo difference with its 95%% margin and the LOS (and the SPRT state with "
                        + "--sprt). Games are appended to --pgn (and --kif for shogi) as they end.",
                "Example: koma match --variant chess --engine1 './koma uci' --engine2 /usr/games/stockfish "
                        + "--option2 UCI_LimitStrength=true --option2 UCI_Elo=1500 --games 10 --tc 10+0.1 --pgn out.pgn"})
public final class MatchCommand implements Callable<Integer> {
    @Mixin
    VariantOption variant;

    @Option(names = "--engine1", required = true, paramLabel = "CMD",
            description = "Command line of engine 1 (split on spaces; run with sh -c when it uses quotes or other "
                    + "shell syntax).")
    String engine1;

    @Option(names = "--engine2", required = true, paramLabel = "CMD", description = "Command line of engine 2.")
    String engine2;

    @Option(names = "--proto1", paramLabel = "uci|usi|xboard", description = "Protocol of engine 1. Default: usi for shogi, uci otherwise. XBoard engines (hachu, sjaakii) take --option1 memory=64 for their hash size; GNU Shogi 1.4 (gnushogi) is recognised and spoken to in its own xshogi dialect (or --option1 dialect=gnushogi).")
    String proto1;

    @Option(names = "--proto2", paramLabel = "uci|usi|xboard", description = "Protocol of engine 2. Default: usi for shogi, uci otherwise.")
    String proto2;

    @Option(names = "--name1", description = "Name of engine 1 (default: its 'id name').")
    String name1;

    @Option(names = "--name2", description = "Name of engine 2 (default: its 'id name').")
    String name2;

    @Option(names = "--option1", paramLabel = "NAME=VALUE",
            description = "An engine option of engine 1 (repeatable), sent as 'setoption name NAME value VALUE' "
                    + "before UCI_Variant, e.g. --option1 Hash=64. A UCI_Variant given here replaces the automatic one.")
    List<String> options1 = new ArrayList<>();

    @Option(names = "--option2", paramLabel = "NAME=VALUE",
            description = "An engine option of engine 2 (repeatable). Fairy-Stockfish and Shodo: --option2 "
                    + "VariantPath=../shared/tools/shodo.ini --option2 UCI_Variant=shodo (or shododm).")
    List<String> options2 = new ArrayList<>();

    @Option(names = {"-n", "--games"}, required = true, description = "Number of games.")
    int games;

    @Option(names = "--tc", paramLabel = "BASE+INC", description = "Clock per player in seconds plus increment, e.g. 10+0.1.")
    String tc;

    @Option(names = "--byoyomi", paramLabel = "MAIN+PERIOD",
            description = "Shogi family: main time plus byoyomi per move, seconds, e.g. 5+1 or 0+2.")
    String byoyomi;

    @Option(names = "--movetime", paramLabel = "MS", description = "Fixed time per move in milliseconds.")
    Long movetime;

    @Option(names = "--depth", paramLabel = "D", description = "Fixed search depth per move.")
    Integer depth;

    @Option(names = "--nodes", paramLabel = "N", description = "Fixed node count per move.")
    Long nodes;

    @Option(names = "--nodes2", paramLabel = "N", description = "With --nodes: engine 2's node count per move when it "
            + "differs from engine 1's (node odds, e.g. a strong engine at a quarter of the nodes).")
    Long nodes2;

    @Option(names = "--movetime2", paramLabel = "MS", description = "With --movetime: engine 2's time per move when "
            + "it differs from engine 1's (time odds; also for an engine whose own time keeping spends a fraction of "
            + "the time it is given, as HaChu does with a one-move clock).")
    Long movetime2;

    @Option(names = "--move-timeout", paramLabel = "MS", defaultValue = "60000",
            description = "With --depth or --nodes: a move taking longer loses on time. Default: ${DEFAULT-VALUE}.")
    long moveTimeout;

    @Option(names = "--margin", paramLabel = "MS", defaultValue = "50",
            description = "Grace added to a player's time before a loss on time. Under a Fischer clock (--tc) time "
                    + "used beyond the clock is kept as a debt (the engine is told 0) and shrinks the next move's "
                    + "grace, as in cutechess-cli. Default: ${DEFAULT-VALUE}.")
    long margin;

    @Option(names = {"-c", "--concurrency"}, defaultValue = "1",
            description = "Games played at once (each with its own two engine processes). Default: ${DEFAULT-VALUE}.")
    int concurrency;

    @Option(names = "--openings", paramLabel = "FILE",
            description = "Openings, one a line: a FEN/SFEN, 'startpos moves M...', or 'fen|sfen F moves M...'. "
                    + "Used in order, each twice.")
    Path openings;

    @Option(names = "--random-plies", paramLabel = "K", description = "Openings of K random legal plies (seeded by --seed).")
    Integer randomPlies;

    @Option(names = "--seed", description = "Seed of the random openings (default: from the clock, printed).")
    Long seed;

    @Option(names = "--pgn", paramLabel = "FILE", description = "Append every game to this PGN file.")
    Path pgn;

    @Option(names = "--resume",
            description = "Go on with the match recorded in --pgn (stopped, or cut off with its session): its games "
                    + "are counted toward the score and the SPRT, and only the rounds it lacks are played. Each game is "
                    + "checked to be this match's (players, colours, opening, time control); give the same command, with "
                    + "--seed when the openings are random. A missing file starts the match.")
    boolean resume;

    @Option(names = "--kif", paramLabel = "FILE", description = "Shogi: append every game to this KIF file as well.")
    Path kif;

    @Option(names = "--max-plies", paramLabel = "P", defaultValue = "512",
            description = "Adjudicate a draw after P plies (not a rule; shogi with both kings in their zones: the "
                    + "24-point count). Default: ${DEFAULT-VALUE}.")
    int maxPlies;

    @Option(names = "--sprt", paramLabel = "elo0=A,elo1=B[,alpha=X,beta=Y]",
            description = "Sequential probability ratio test (logistic Elo, normal approximation); the match stops "
                    + "when a bound is crossed. alpha and beta default to 0.05.")
    String sprt;

    @Option(names = "--event", defaultValue = "Koma match", description = "PGN Event tag. Default: ${DEFAULT-VALUE}.")
    String event;

    @Override
    public Integer call() throws Exception {
        RuleSet rs = variant.rules();
        boolean shogiFamily = rs.conventions.family() == Conventions.Family.SHOGI;
        int given = (tc != null ? 1 : 0) + (byoyomi != null ? 1 : 0) + (movetime != null ? 1 : 0)
                + (depth != null ? 1 : 0) + (nodes != null ? 1 : 0);
        if (given != 1) {
            throw new IllegalArgumentException(given == 0
                    ? "a time control is required: one of --tc BASE+INC, --byoyomi MAIN+PERIOD, --movetime MS, --depth D, --nodes N"
                    : "give only one of --tc, --byoyomi, --movetime, --depth, --nodes");
        }
        if (byoyomi != null && !shogiFamily) {
            throw new IllegalArgumentException("--byoyomi is for the shogi family, not " + rs.id);
        }
        if (moveTimeout < 1) {
            throw new IllegalArgumentException("--move-timeout must be positive, got " + moveTimeout);
        }
        TimeControl control = tc != null ? TimeControl.parseClock(tc)
                : byoyomi != null ? TimeControl.parseByoyomi(byoyomi)
                : movetime != null ? TimeControl.moveTime(movetime)
                : depth != null ? TimeControl.depth(depth)
                : TimeControl.nodes(nodes);
        control = control.withMoveTimeout(moveTimeout);
        TimeControl nodeOdds = odds("--nodes2", nodes2, "node count", "--nodes", nodes, TimeControl::nodes);
        TimeControl timeOdds = odds("--movetime2", movetime2, "time per move", "--movetime", movetime,
                TimeControl::moveTime);
        TimeControl control2 = nodeOdds != null ? nodeOdds : timeOdds;
        if (openings != null && randomPlies != null) {
            throw new IllegalArgumentException("give either --openings or --random-plies, not both");
        }
        if (games < 1) {
            throw new IllegalArgumentException("--games must be at least 1, got " + games);
        }
        EngineConfig.Protocol dflt = rs.sfen ? EngineConfig.Protocol.USI : EngineConfig.Protocol.UCI;
        EngineConfig e1 = engine("--engine1", engine1, proto1, dflt, name1, "--option1", options1, rs);
        EngineConfig e2 = engine("--engine2", engine2, proto2, dflt, name2, "--option2", options2, rs);
        if (resume && randomPlies != null && seed == null) {
            throw new IllegalArgumentException("--resume with --random-plies needs the --seed of the match it continues");
        }
        long theSeed = seed != null ? seed : System.nanoTime() & 0xFFFFFFFFL;
        List<Opening> list = null;
        if (openings != null) {
            list = Opening.readFile(rs, openings);
        } else if (randomPlies != null) {
            list = Opening.random(rs, randomPlies, theSeed, (games + 1) / 2);
            System.out.println("Random openings: " + randomPlies + " plies, seed " + theSeed);
        }
        Stats.Sprt test = sprt == null ? null : Stats.Sprt.parse(sprt);
        Match.Config config = new Match.Config(rs, e1, e2, games, control, margin, maxPlies, concurrency, list, pgn, kif,
                test, event, control2, resume);
        new Match(config, System.out).run();
        return 0;
    }

    /**
     * Engine 2's own control from an odds option ({@code --nodes2}, {@code --movetime2}), or null when it is not
     * given: it needs engine 1's option of the same kind ({@code base}) and a positive value.
     */
    private TimeControl odds(String flag, Long value, String what, String baseFlag, Long base,
                             LongFunction<TimeControl> kind) {
        if (value == null) {
            return null;
        }
        if (base == null) {
            throw new IllegalArgumentException(flag + " gives engine 2's " + what + ": it needs " + baseFlag
                    + " for engine 1's");
        }
        if (value < 1) {
            throw new IllegalArgumentException(flag + " must be positive, got " + value);
        }
        return kind.apply(value).withMoveTimeout(moveTimeout);
    }

    private static EngineConfig engine(String flag, String command, String proto, EngineConfig.Protocol dflt,
                                       String name, String optionFlag, List<String> options, RuleSet rs) {
        if (command == null || command.isBlank()) {
            throw new IllegalArgumentException(flag + ": the engine command is empty");
        }
        EngineConfig.Protocol p = proto == null ? dflt : EngineConfig.Protocol.parse(proto);
        if (p == EngineConfig.Protocol.USI && !rs.conventions.protocols().contains("usi")) {
            throw new IllegalArgumentException("USI does not speak " + rs.id + "; use uci");
        }
        return new EngineConfig(command, p, name, EngineConfig.parseOptions(optionFlag, options));
    }
}
