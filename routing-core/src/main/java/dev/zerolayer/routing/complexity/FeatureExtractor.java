package dev.zerolayer.routing.complexity;

import java.util.List;

/**
 * Computes every {@link Feature} of a conversation in one pass over bounded windows — the latest user turn's first
 * 4,000 and last 1,000 content characters, the system prompt's first 1,000, and up to 2,000 from the most recent
 * earlier turns (each turn's first 800 and last 200) — and extrapolates the length of what it skipped; filler (emoji,
 * controls) never counts as content, and at most {@link #RAW_LIMIT} raw characters are walked per window.
 */
final class FeatureExtractor {

    static final int LATEST_HEAD = 4_000;
    static final int LATEST_TAIL = 1_000;
    static final int SYSTEM_HEAD = 1_000;
    static final int HISTORY_BUDGET = 2_000;
    static final int HISTORY_TURN_HEAD = 800;
    static final int HISTORY_TURN_TAIL = 200;
    /** Raw characters walked per window while looking for content, so a flood of filler stays bounded. */
    static final int RAW_LIMIT = 1 << 18;
    /** Content units per raw character assumed for text no window reached (about one word per 5.5 characters). */
    static final double DEFAULT_UNITS_PER_CHAR = 1.0 / 5.5;
    /** Latest turns of at most this many content units count as short (vague, chit-chat). */
    static final int SHORT_TURN_UNITS = 30;
    static final int CHITCHAT_TURN_UNITS = 12;
    /** A vague phrase this close (in content units) to the start or end of a long turn frames it. */
    static final int VAGUE_EDGE_UNITS = 12;

    private static final Cue[] WORK_CUES = {Cue.MULTI_STEP, Cue.FORMAT, Cue.CREATIVE, Cue.WRITING, Cue.LEGAL,
        Cue.FINANCE, Cue.MEDICAL, Cue.SCIENCE, Cue.CODE_TERM, Cue.CODE_KEYWORD, Cue.STACK_TRACE, Cue.MATH_WORD};

    private FeatureExtractor() {
    }

    /** The features, in {@link Feature} order. */
    static double[] extract(Conversation conversation) {
        TextScanner context = new TextScanner();
        TextScanner latest = new TextScanner();
        List<Turn> turns = conversation.turns();
        int latestIndex = conversation.latestUserIndex();
        if (latestIndex < 0) {
            latestIndex = turns.size() - 1;
        }

        double units = 0;
        double systemUnits = 0;
        if (!conversation.system().isEmpty()) {
            systemUnits = scanSegment(context, conversation.system(), SYSTEM_HEAD, 0);
            units += systemUnits;
        }
        double latestUnits = 0;
        if (latestIndex >= 0) {
            latestUnits = scanSegment(latest, turns.get(latestIndex).text(), LATEST_HEAD, LATEST_TAIL);
            units += latestUnits;
        }
        int historyLeft = HISTORY_BUDGET;
        for (int t = turns.size() - 1; t >= 0; t--) {
            if (t == latestIndex) {
                continue;
            }
            String text = turns.get(t).text();
            if (historyLeft > 0) {
                int before = context.contentChars;
                int head = Math.min(HISTORY_TURN_HEAD, historyLeft);
                int tail = Math.min(HISTORY_TURN_TAIL, Math.max(0, historyLeft - head));
                units += scanSegment(context, text, head, tail);
                historyLeft -= context.contentChars - before;
            } else {
                units += text.length() * DEFAULT_UNITS_PER_CHAR;
            }
        }
        int priorTurns = Math.max(0, turns.size() - 1);
        return features(context, latest, units, systemUnits, latestUnits, priorTurns);
    }

    /**
     * Scans a head window (and a tail window when the head did not reach the end) and returns the segment's content
     * units, extrapolated over any middle part left unscanned.
     */
    private static double scanSegment(TextScanner scanner, String text, int headBudget, int tailBudget) {
        int length = text.length();
        if (length == 0) {
            return 0;
        }
        double unitsBefore = units(scanner);
        int fillerBefore = scanner.fillerChars;
        int headEnd = scanner.scan(text, 0, Math.min(length, RAW_LIMIT), headBudget, true);
        int scannedRaw = headEnd;
        if (headEnd < length && tailBudget > 0) {
            int tailStart = tailStart(text, headEnd, tailBudget);
            scanner.scan(text, tailStart, length, Integer.MAX_VALUE / 2, tailStart == 0
                    || text.charAt(tailStart - 1) == '\n');
            scannedRaw += length - tailStart;
        }
        double scannedUnits = units(scanner) - unitsBefore;
        int unscanned = length - scannedRaw;
        if (unscanned <= 0) {
            return scannedUnits;
        }
        int meaningfulRaw = scannedRaw - (scanner.fillerChars - fillerBefore);
        double perChar = meaningfulRaw > 0 ? scannedUnits / meaningfulRaw : 0.0;
        return scannedUnits + unscanned * perChar;
    }

    /** Walks back from the end over at most {@link #RAW_LIMIT} characters until {@code budget} content characters. */
    private static int tailStart(String text, int notBefore, int budget) {
        int content = 0;
        int floor = Math.max(notBefore, text.length() - RAW_LIMIT);
        int i = text.length();
        while (i > floor && content < budget) {
            i--;
            char c = text.charAt(i);
            if (!Character.isWhitespace(c) && !TextScanner.isFiller(c)) {
                content++;
            }
        }
        return i;
    }

    static double units(TextScanner s) {
        return s.words + s.numbers + s.cjkChars / 1.5;
    }

    private static double[] features(TextScanner context, TextScanner latest, double units, double systemUnits,
            double latestUnits, int priorTurns) {
        double[] f = new double[Feature.COUNT];
        f[Feature.LENGTH.ordinal()] = logScale(units, 2048);
        f[Feature.TURNS.ordinal()] = cap(priorTurns, 8);
        f[Feature.SYSTEM.ordinal()] = logScale(systemUnits, 1024);
        f[Feature.STRUCTURE.ordinal()] = cap(context.listItems + latest.listItems + context.headings
                + latest.headings + context.tableRows + latest.tableRows, 6);
        f[Feature.SENTENCES.ordinal()] = cap(context.sentences + latest.sentences, 10);
        f[Feature.MULTI_STEP.ordinal()] = cap(cue(context, latest, Cue.MULTI_STEP), 3);
        f[Feature.CONSTRAINTS.ordinal()] = cap(cue(context, latest, Cue.CONSTRAINT), 3);
        f[Feature.REASONING.ordinal()] = cap(cue(context, latest, Cue.REASONING), 2);
        f[Feature.FORMAT.ordinal()] = cap(cue(context, latest, Cue.FORMAT) + context.formatUnits
                + latest.formatUnits, 2);
        f[Feature.CREATIVE.ordinal()] = cap(cue(context, latest, Cue.CREATIVE), 1);
        f[Feature.WRITING.ordinal()] = cap(cue(context, latest, Cue.WRITING), 1);
        double purity = purity(context, latest);
        f[Feature.SUMMARY.ordinal()] = cap(cue(context, latest, Cue.SUMMARY), 1) * purity;
        f[Feature.VAGUE.ordinal()] = vague(latest, latestUnits);
        f[Feature.CHITCHAT.ordinal()] = latestUnits <= CHITCHAT_TURN_UNITS
                ? cap(latest.cues[Cue.CHITCHAT.ordinal()], 1) * purity : 0.0;
        f[Feature.PLAIN.ordinal()] = purity;
        f[Feature.LOOKUP.ordinal()] = cap(latest.cues[Cue.LOOKUP.ordinal()], 2) * shortness(latestUnits) * purity;
        f[Feature.CODE_BLOCK.ordinal()] = Math.min(1.0, (context.fences + latest.fences) / 2.0
                + (context.codeLines + latest.codeLines) / 5.0);
        f[Feature.CODE_TERMS.ordinal()] = cap(cue(context, latest, Cue.CODE_TERM)
                + cue(context, latest, Cue.CODE_KEYWORD), 3);
        f[Feature.IDENTIFIERS.ordinal()] = cap(context.identifiers + latest.identifiers, 6);
        f[Feature.STACK_TRACE.ordinal()] = cap(context.traceLines + latest.traceLines + context.errorWords
                + latest.errorWords + cue(context, latest, Cue.STACK_TRACE), 2);
        f[Feature.MATH_EXPR.ordinal()] = cap(context.mathExpr + latest.mathExpr + context.latex + latest.latex, 3);
        f[Feature.MATH_WORDS.ordinal()] = cap(cue(context, latest, Cue.MATH_WORD) + context.percents
                + latest.percents, 2);
        f[Feature.NUMBERS.ordinal()] = cap(context.numbers + latest.numbers, 8);
        f[Feature.LEGAL.ordinal()] = cap(cue(context, latest, Cue.LEGAL), 2);
        f[Feature.FINANCE.ordinal()] = cap(cue(context, latest, Cue.FINANCE), 3);
        f[Feature.MEDICAL.ordinal()] = cap(cue(context, latest, Cue.MEDICAL), 2);
        f[Feature.SCIENCE.ordinal()] = cap(cue(context, latest, Cue.SCIENCE), 3);
        f[Feature.CHOICES.ordinal()] = context.choiceLines + latest.choiceLines >= 2 ? 1.0 : 0.0;
        int words = context.words + latest.words;
        f[Feature.LONG_WORDS.ordinal()] = words >= 5
                ? Math.min(1.0, (context.longWords + latest.longWords) / (double) words / 0.30) : 0.0;
        return f;
    }

    /**
     * 1 for a short latest turn whose instruction is vague and unspecific; 0.5 for a longer one that opens or closes
     * with the vague instruction around pasted material ("make this better: ..."); 0 otherwise, and 0 whenever the
     * turn states a format, a constraint or what to reason about.
     */
    private static double vague(TextScanner latest, double latestUnits) {
        if (latest.firstVagueAt < 0) {
            return 0.0;
        }
        boolean specific = latest.cues[Cue.FORMAT.ordinal()] > 0 || latest.formatUnits > 0
                || latest.cues[Cue.CONSTRAINT.ordinal()] > 0 || latest.cues[Cue.REASONING.ordinal()] > 0;
        if (specific) {
            return 0.0;
        }
        if (latestUnits <= SHORT_TURN_UNITS) {
            return 1.0;
        }
        boolean framesTheTurn = latest.firstVagueAt <= VAGUE_EDGE_UNITS
                || latest.unitsSoFar() - latest.lastVagueAt <= VAGUE_EDGE_UNITS;
        return framesTheTurn ? 0.5 : 0.0;
    }

    /**
     * 1 / (1 + 2 × work signs): how purely simple a request is. Work signs are cues of code, maths, domains, creative
     * writing, multi-step structure and output format, plus maths expressions, code lines, multiple-choice options
     * (an exam question is not a lookup) and three or more numbers (a calculation); "simple" features
     * (chit-chat, lookup, summary) are scaled by it, so "what is the probability ..." is not a lookup.
     */
    private static double purity(TextScanner context, TextScanner latest) {
        int work = context.mathExpr + latest.mathExpr + context.codeLines + latest.codeLines + context.fences
                + latest.fences + context.formatUnits + latest.formatUnits
                + (context.choiceLines + latest.choiceLines >= 2 ? 1 : 0)
                + (context.numbers + latest.numbers >= 3 ? 1 : 0);
        for (Cue cue : WORK_CUES) {
            work += cue(context, latest, cue);
        }
        return 1.0 / (1.0 + 2.0 * work);
    }

    /** 1 up to 40 content units, falling linearly to 0 at 80: lookups and service requests are short. */
    private static double shortness(double units) {
        return units <= 40 ? 1.0 : units >= 80 ? 0.0 : (80 - units) / 40.0;
    }

    private static int cue(TextScanner a, TextScanner b, Cue cue) {
        return a.cues[cue.ordinal()] + b.cues[cue.ordinal()];
    }

    private static double cap(double count, double saturation) {
        return Math.min(1.0, count / saturation);
    }

    private static double logScale(double units, double saturation) {
        return Math.min(1.0, Math.log(1.0 + Math.max(0.0, units)) / Math.log(1.0 + saturation));
    }
}
