package dev.zerolayer.routing.complexity;

/**
 * One forward pass over windows of text that counts words, numbers, CJK characters, lexicon cues, line shapes, code
 * and maths signs; emoji, control characters and other filler are skipped without counting or breaking phrases.
 */
final class TextScanner {

    // ---------------------------------------------------------------- character classes
    private static final byte LETTER = 1;
    private static final byte DIGIT = 2;
    private static final byte SPACE = 3;
    private static final byte NEWLINE = 4;
    private static final byte CJK = 5;
    private static final byte CJK_PUNCT = 6;
    private static final byte PUNCT = 7;
    private static final byte FILLER = 8;
    private static final byte MATH = 9;
    private static final byte APOSTROPHE = 10;
    private static final byte BULLET = 11;
    private static final byte FULLWIDTH = 12;

    private static final byte[] CLASS = classes();
    private static final boolean[] ASCII_LETTER = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            ASCII_LETTER[c] = true;
            ASCII_LETTER[c - 32] = true;
        }
    }

    // ---------------------------------------------------------------- last significant token, for maths
    private static final int SIG_NONE = 0;
    private static final int SIG_NUM = 1;
    private static final int SIG_VAR = 2;
    private static final int SIG_WORD = 3;
    private static final int SIG_OP = 4;
    private static final int SIG_CLOSE = 5;
    private static final int SIG_NUMBER_WORD = 6;

    // ---------------------------------------------------------------- counts (read by FeatureExtractor)
    int words;
    int longWords;
    int numbers;
    int cjkChars;
    int contentChars;
    int fillerChars;
    int sentences;
    int questions;
    int listItems;
    int headings;
    int tableRows;
    int choiceLines;
    int fences;
    int codeLines;
    int traceLines;
    int identifiers;
    int mathExpr;
    int latex;
    int formatUnits;
    int errorWords;
    int percents;
    /** Content units seen when the first and the last vague phrase ended (-1: none). */
    int firstVagueAt = -1;
    int lastVagueAt = -1;
    final int[] cues = new int[Cue.COUNT];

    // ---------------------------------------------------------------- scanning state
    private final Lexicon lexicon = Lexicon.instance();
    private boolean inWord;
    private long wordHash;
    private int wordLength;
    private boolean wordUnderscore;
    private boolean wordCamel;
    private boolean wordOnlyLetters;
    private boolean previousWasLower;
    private final char[] wordTail = new char[16];
    private boolean inNumber;
    /** Hashes of the phrase prefixes of one, two and three words ending at the last word (0: none). */
    private long prefix1;
    private long prefix2;
    private long prefix3;
    private int lastSig;
    private boolean operatorAfterOperand;
    private final char[] ring = new char[Lexicon.RING_MASK + 1];
    private int ringPosition;
    private int cjkRun;
    private boolean atLineStart = true;
    private int lineIndent;
    private int lineCode;

    /**
     * Scans {@code text[from, to)} and stops early once {@code contentBudget} content characters (anything but
     * whitespace and filler) have been seen; returns the index where it stopped.
     */
    int scan(String text, int from, int to, int contentBudget, boolean startsLine) {
        resetWindow(startsLine);
        int stopAt = contentChars + contentBudget;
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            if (c < 128 && ASCII_LETTER[c] && !inWord && !inNumber && !atLineStart) {
                // fast path: a whole ASCII word in one tight loop (same state as letter() char by char)
                int end = asciiWord(text, i, to);
                contentChars += end - i;
                if (contentChars >= stopAt) {
                    i = end;
                    break;
                }
                if (end < to && text.charAt(end) == ' ') {
                    endWord(); // the usual case: a space ends the word (what space() would do)
                    cjkRun = 0;
                    end++;
                }
                i = end;
                continue;
            }
            if (c >= 0x3400 && CLASS[c] == CJK) {
                // fast path: a run of CJK characters
                int end = cjkRun(text, i, to);
                contentChars += end - i;
                i = end;
                if (contentChars >= stopAt) {
                    break;
                }
                continue;
            }
            if (c == ' ' && !atLineStart) {
                endToken();
                cjkRun = 0;
                i++;
                continue;
            }
            byte cls = CLASS[c];
            if (cls == FULLWIDTH) {
                c = (char) (c - 0xFEE0);
                cls = CLASS[c];
            }
            switch (cls) {
                case LETTER -> letter(c, text, i, to);
                case DIGIT -> digit(text, i, to);
                case SPACE -> space(c);
                case NEWLINE -> newline();
                case CJK -> cjk(c);
                case CJK_PUNCT -> cjkPunct(c);
                case MATH -> operator(c, text, i, to);
                case APOSTROPHE -> apostrophe(text, i, to);
                case BULLET -> bullet();
                case PUNCT -> punct(c, text, i, to);
                default -> {
                    // filler: ends a word or number, never counts, never breaks a phrase or a Chinese run
                    endToken();
                    fillerChars++;
                    i++;
                    continue;
                }
            }
            if (cls != SPACE && cls != NEWLINE) {
                contentChars++;
                if (contentChars >= stopAt) {
                    i++;
                    break;
                }
            }
            i++;
        }
        endToken();
        endLine();
        return i;
    }

    private void resetWindow(boolean startsLine) {
        inWord = false;
        inNumber = false;
        resetPhrases();
        lastSig = SIG_NONE;
        operatorAfterOperand = false;
        cjkRun = 0;
        atLineStart = startsLine;
        lineIndent = 0;
        lineCode = 0;
    }

    // ---------------------------------------------------------------- letters and words

    private void letter(char c, String text, int i, int to) {
        if (inNumber) {
            endNumber();
        }
        if (atLineStart) {
            atLineStart = false;
            lineShapeAtLetter(c, text, i, to);
        }
        if (!inWord) {
            startWord();
        }
        boolean upper = c < 128 ? (c >= 'A' && c <= 'Z') : Character.isUpperCase(c);
        if (upper && previousWasLower) {
            wordCamel = true;
        }
        previousWasLower = !upper;
        char lower = upper ? (c < 128 ? (char) (c + 32) : Character.toLowerCase(c)) : c;
        appendWordChar(lower);
    }

    /**
     * Reads an ASCII word starting at {@code from} (a letter, then letters, digits, underscores and apostrophes between
     * letters) and leaves the scanner inside that word, exactly as {@link #letter} would; returns the index after it.
     */
    private int asciiWord(String text, int from, int to) {
        startWord();
        long hash = wordHash;
        int length = 0;
        boolean camel = false;
        boolean onlyLetters = true;
        boolean underscore = false;
        boolean lowerBefore = false;
        char[] tail = wordTail;
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            if (c >= 'a' && c <= 'z') {
                lowerBefore = true;
            } else if (c >= 'A' && c <= 'Z') {
                if (lowerBefore) {
                    camel = true;
                }
                lowerBefore = false;
                c = (char) (c + 32);
            } else if (c >= '0' && c <= '9') {
                onlyLetters = false;
                lowerBefore = false;
            } else if (c == '_') {
                underscore = true;
                onlyLetters = false;
            } else if (c != '\'' || i + 1 >= to || CLASS[text.charAt(i + 1)] != LETTER) {
                break;
            }
            hash = (hash ^ c) * Lexicon.FNV_PRIME;
            tail[length & 15] = c;
            length++;
            i++;
        }
        wordHash = hash;
        wordLength = length;
        wordCamel = camel;
        wordOnlyLetters = onlyLetters;
        wordUnderscore = underscore;
        previousWasLower = lowerBefore;
        return i;
    }

    private void startWord() {
        resetCjkRun();
        inWord = true;
        wordHash = Lexicon.wordStart();
        wordLength = 0;
        wordUnderscore = false;
        wordCamel = false;
        wordOnlyLetters = true;
        previousWasLower = false;
    }

    private void appendWordChar(char lower) {
        wordHash = Lexicon.wordStep(wordHash, lower);
        wordTail[wordLength & 15] = lower;
        wordLength++;
    }

    private void endWord() {
        inWord = false;
        long hash = Lexicon.wordEnd(wordHash);
        words++;
        if (wordOnlyLetters && wordLength >= 10) {
            longWords++;
        }
        if (wordUnderscore && wordLength > 2 || wordCamel) {
            identifiers++;
        }
        char last = wordTail[(wordLength - 1) & 15];
        if (wordLength >= 7 && (last == 'n' && endsWith("exception") || last == 'r' && wordCamel && endsWith("error"))) {
            errorWords++;
        }
        int value = lexicon.lookup(hash);
        int hits = value & Lexicon.CUE_MASK;
        long next1 = (value & Lexicon.PREFIX) != 0 ? hash : 0;
        long next2 = 0;
        long next3 = 0;
        if ((prefix1 | prefix2 | prefix3) != 0) {
            if (prefix1 != 0) {
                long h = Lexicon.phrase(prefix1, hash);
                int v = lexicon.lookup(h);
                hits |= v & Lexicon.CUE_MASK;
                next2 = (v & Lexicon.PREFIX) != 0 ? h : 0;
            }
            if (prefix2 != 0) {
                long h = Lexicon.phrase(prefix2, hash);
                int v = lexicon.lookup(h);
                hits |= v & Lexicon.CUE_MASK;
                next3 = (v & Lexicon.PREFIX) != 0 ? h : 0;
            }
            if (prefix3 != 0) {
                hits |= lexicon.lookup(Lexicon.phrase(prefix3, hash)) & Lexicon.CUE_MASK;
            }
        }
        prefix1 = next1;
        prefix2 = next2;
        prefix3 = next3;
        boolean numberBefore = lastSig == SIG_NUM || lastSig == SIG_NUMBER_WORD;
        if (hits != 0) {
            countCues(hits, numberBefore);
        }
        if (wordLength == 1 && wordOnlyLetters) {
            if (lastSig == SIG_OP && operatorAfterOperand) {
                mathExpr++;
            }
            lastSig = SIG_VAR;
        } else {
            lastSig = (hits & Cue.NUMBER_WORD.bit()) != 0 ? SIG_NUMBER_WORD : SIG_WORD;
        }
        operatorAfterOperand = false;
    }

    private void countCues(int hits, boolean numberBefore) {
        int remaining = hits;
        while (remaining != 0) {
            int cue = Integer.numberOfTrailingZeros(remaining);
            remaining &= remaining - 1;
            cues[cue]++;
        }
        if ((hits & Cue.UNIT.bit()) != 0 && numberBefore) {
            formatUnits++;
        }
        if ((hits & Cue.CODE_KEYWORD.bit()) != 0) {
            lineCode++;
        }
        if ((hits & Cue.VAGUE.bit()) != 0) {
            lastVagueAt = unitsSoFar();
            if (firstVagueAt < 0) {
                firstVagueAt = lastVagueAt;
            }
        }
    }

    int unitsSoFar() {
        return words + numbers + cjkChars * 2 / 3;
    }

    private boolean endsWith(String suffix) {
        int n = suffix.length();
        if (wordLength < n || n > 16) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (wordTail[(wordLength - n + k) & 15] != suffix.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private void resetPhrases() {
        prefix1 = 0;
        prefix2 = 0;
        prefix3 = 0;
    }

    // ---------------------------------------------------------------- numbers

    private void digit(String text, int i, int to) {
        if (atLineStart) {
            atLineStart = false;
            lineShapeAtDigit(text, i, to);
        }
        if (inWord) {
            wordOnlyLetters = false;
            previousWasLower = false;
            appendWordChar(text.charAt(i) < 128 ? text.charAt(i) : '0');
            return;
        }
        if (!inNumber) {
            resetCjkRun();
            inNumber = true;
            if (lastSig == SIG_OP && operatorAfterOperand) {
                mathExpr++;
            }
        }
    }

    private void endNumber() {
        inNumber = false;
        numbers++;
        lastSig = SIG_NUM;
        operatorAfterOperand = false;
        resetPhrases();
    }

    private void endToken() {
        if (inWord) {
                endWord();
        } else if (inNumber) {
            endNumber();
        }
    }

    // ---------------------------------------------------------------- Chinese (and other CJK) characters

    private void cjk(char c) {
        endToken();
        atLineStart = false;
        resetPhrases();
        cjkChars++;
        ring[ringPosition & Lexicon.RING_MASK] = c;
        ringPosition++;
        cjkRun++;
        int lengths = lexicon.cjkLengthsEndingWith(c);
        if (lengths != 0) {
            int longest = Math.min(cjkRun, Lexicon.MAX_CJK);
            int hits = 0;
            long hash = Lexicon.cjkStart();
            for (int length = 1; length <= longest; length++) {
                hash = Lexicon.cjkStep(hash, ring[(ringPosition - length) & Lexicon.RING_MASK]);
                if ((lengths & (1 << length)) != 0) {
                    hits |= lexicon.lookup(Lexicon.cjkEnd(hash)) & Lexicon.CUE_MASK;
                }
            }
            if (hits != 0) {
                countCues(hits, false);
            }
        }
        lastSig = SIG_WORD;
        operatorAfterOperand = false;
    }

    /** Reads consecutive CJK characters from {@code from}, as {@link #cjk} would one by one; returns the end. */
    private int cjkRun(String text, int from, int to) {
        endToken();
        atLineStart = false;
        resetPhrases();
        Lexicon lex = lexicon;
        char[] chars = ring;
        int position = ringPosition;
        int run = cjkRun;
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            if (CLASS[c] != CJK) {
                break;
            }
            chars[position & Lexicon.RING_MASK] = c;
            position++;
            run++;
            cjkChars++;
            int lengths = lex.cjkLengthsEndingWith(c);
            if (lengths != 0) {
                int longest = Math.min(run, Lexicon.MAX_CJK);
                int hits = 0;
                long hash = Lexicon.cjkStart();
                for (int length = 1; length <= longest; length++) {
                    hash = Lexicon.cjkStep(hash, chars[(position - length) & Lexicon.RING_MASK]);
                    if ((lengths & (1 << length)) != 0) {
                        hits |= lex.lookup(Lexicon.cjkEnd(hash)) & Lexicon.CUE_MASK;
                    }
                }
                if (hits != 0) {
                    countCues(hits, false);
                }
            }
            i++;
        }
        ringPosition = position;
        cjkRun = run;
        lastSig = SIG_WORD;
        operatorAfterOperand = false;
        return i;
    }

    private void cjkPunct(char c) {
        endToken();
        if (atLineStart) {
            atLineStart = false;
        }
        resetCjkRun();
        resetPhrases();
        if (c == '\u3002') {
            sentences++;
        }
    }

    private void resetCjkRun() {
        cjkRun = 0;
    }

    // ---------------------------------------------------------------- whitespace and lines

    private void space(char c) {
        endToken();
        resetCjkRun();
        if (atLineStart) {
            lineIndent += c == '\t' ? 4 : 1;
        }
    }

    private void newline() {
        endToken();
        endLine();
        atLineStart = true;
        lineIndent = 0;
        resetPhrases();
        resetCjkRun();
        lastSig = SIG_NONE;
        operatorAfterOperand = false;
    }

    private void endLine() {
        if (lineCode >= 2 || lineIndent >= 4 && lineCode >= 1) {
            codeLines++;
        }
        lineCode = 0;
    }

    private void bullet() {
        endToken();
        if (atLineStart) {
            atLineStart = false;
            listItems++;
        }
        resetPhrases();
    }

    /** At a line's first character when it is a digit: "1." / "2)" / "3、" starts a list item. */
    private void lineShapeAtDigit(String text, int i, int to) {
        int j = i;
        while (j < to && j - i < 3 && Character.isDigit(text.charAt(j))) {
            j++;
        }
        if (j < to) {
            char next = text.charAt(j);
            if ((next == '.' || next == ')' || next == '\u3001' || next == '\uFF0E' || next == '\uFF09')
                    && (j + 1 >= to || !Character.isDigit(text.charAt(j + 1)))) {
                listItems++;
            }
        }
    }

    /** At a line's first character when it is punctuation or a letter: fences, headings, bullets, tables, options. */
    private void lineShapeAtPunct(char c, String text, int i, int to) {
        char next = i + 1 < to ? text.charAt(i + 1) : '\0';
        switch (c) {
            case '`' -> {
                if (next == '`' && i + 2 < to && text.charAt(i + 2) == '`') {
                    fences++;
                }
            }
            case '#' -> {
                if (next == '#' || next == ' ') {
                    headings++;
                } else if (Character.isLetter(next)) {
                    lineCode += 2; // #include, #define
                }
            }
            case '-', '*', '+' -> {
                if (next == ' ' || next == '\t') {
                    listItems++;
                }
            }
            case '|' -> tableRows++;
            case '(' -> {
                if (next >= 'A' && next <= 'H' && i + 2 < to && text.charAt(i + 2) == ')') {
                    choiceLines++;
                }
            }
            case '@' -> lineCode += 2; // decorators, annotations
            case '>' -> {
                if (next == '>') {
                    lineCode += 2; // doctest prompts
                }
            }
            default -> {
            }
        }
    }

    private void lineShapeAtLetter(char c, String text, int i, int to) {
        char next = i + 1 < to ? text.charAt(i + 1) : '\0';
        char after = i + 2 < to ? text.charAt(i + 2) : '\0';
        if (c >= 'A' && c <= 'H' && (next == '.' || next == ')') && (after == ' ' || after == '\t')) {
            choiceLines++;
        } else if (c >= 'a' && c <= 'h' && next == ')' && after == ' ') {
            listItems++;
        } else if (c == 'a' && next == 't' && after == ' ' && lineIndent > 0 && looksLikeFrame(text, i + 3, to)) {
            traceLines++;
        } else if (c == 'F' && text.startsWith("File \"", i)) {
            traceLines++;
        }
    }

    /** "at com.example.Foo.bar(Foo.java:12)": letters and dots up to an opening parenthesis. */
    private static boolean looksLikeFrame(String text, int from, int to) {
        int dots = 0;
        for (int j = from; j < to && j - from < 200; j++) {
            char c = text.charAt(j);
            if (c == '(') {
                return dots >= 1;
            }
            if (c == '.') {
                dots++;
            } else if (!(Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '<' || c == '>')) {
                return false;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- punctuation, operators

    private void apostrophe(String text, int i, int to) {
        if (inWord && i + 1 < to && CLASS[text.charAt(i + 1)] == LETTER) {
            appendWordChar('\'');
            return;
        }
        endToken();
        resetPhrases();
    }

    private void operator(char c, String text, int i, int to) {
        endToken();
        atLineStart = false;
        resetCjkRun();
        if (c != '\u00D7' && c != '\u00F7' && c != '\u2212') {
            latex++; // a maths symbol (∑, ∫, ≤, √, ...)
        }
        markOperator();
    }

    private void markOperator() {
        boolean afterOperand = lastSig == SIG_NUM || lastSig == SIG_VAR || lastSig == SIG_CLOSE;
        lastSig = SIG_OP;
        operatorAfterOperand = afterOperand;
    }

    private void punct(char c, String text, int i, int to) {
        boolean wordJustEnded = inWord;
        boolean numberJustEnded = inNumber;
        if (c == '_' && !inNumber) {
            atLineStart = false;
            if (!inWord) {
                startWord();
            }
            wordUnderscore = true;
            wordOnlyLetters = false;
            appendWordChar('_');
            return;
        }
        if (inNumber && (c == '.' || c == ',') && i + 1 < to && CLASS[text.charAt(i + 1)] == DIGIT) {
            return; // 80,000 and 1.5 stay one number
        }
        endToken();
        resetCjkRun();
        if (atLineStart) {
            atLineStart = false;
            lineShapeAtPunct(c, text, i, to);
        }
        char next = i + 1 < to ? text.charAt(i + 1) : '\0';
        switch (c) {
            case '-' -> {
                if (wordJustEnded && CLASS[next] == LETTER) {
                    return; // multi-step, trade-off: one phrase
                }
                if (next == '>') {
                    lineCode++;
                }
                markOperator();
                return;
            }
            case '+', '*', '/', '^', '<', '>' -> {
                if (c == '/' && next == '/') {
                    lineCode++;
                }
                markOperator();
                return;
            }
            case '=' -> {
                if (next == '=' || next == '>') {
                    lineCode++;
                }
                if (lastSig == SIG_NUM || lastSig == SIG_VAR || lastSig == SIG_CLOSE) {
                    mathExpr++; // an equation or assignment
                }
                markOperator();
                return;
            }
            case '%' -> {
                if (numberJustEnded) {
                    percents++;
                }
            }
            case '(' -> {
                if (wordJustEnded) {
                    identifiers++;
                    lineCode++;
                }
                return; // keeps the operator state: 3 * (4 + 5)
            }
            case ')' -> {
                lastSig = SIG_CLOSE;
                return;
            }
            case '[' -> {
                if (wordJustEnded) {
                    lineCode++;
                }
            }
            case '{', '}', ';' -> lineCode++;
            case '\\' -> {
                if (next < 128 && CLASS[next] == LETTER) {
                    latex++;
                }
            }
            case '$' -> {
                if (next == '$') {
                    latex++;
                }
            }
            case '.' -> {
                if (wordJustEnded && next >= 'a' && next <= 'z' && wordLength >= 2) {
                    identifiers++; // os.path, System.out
                } else if ((wordJustEnded || numberJustEnded) && (next == '\0' || next == '"' || next == ')'
                        || CLASS[next] == SPACE || CLASS[next] == NEWLINE || CLASS[next] == FILLER
                        || CLASS[next] == CJK)) {
                    sentences++;
                }
            }
            case '?' -> {
                questions++;
                sentences++;
            }
            case '!' -> {
                if (next == '=') {
                    lineCode++;
                } else {
                    sentences++;
                }
            }
            case ':' -> {
                if (next == ':') {
                    lineCode++;
                }
            }
            case '&', '|' -> {
                if (next == c) {
                    lineCode++;
                }
            }
            default -> {
            }
        }
        resetPhrases();
        if (lastSig != SIG_OP) {
            lastSig = SIG_NONE;
        }
    }

    // ---------------------------------------------------------------- character table

    /** Whether a character is filler: emoji halves, controls, zero-width and symbol characters. */
    static boolean isFiller(char c) {
        return CLASS[c] == FILLER;
    }

    private static byte[] classes() {
        byte[] table = new byte[1 << 16];
        for (int c = 0; c < table.length; c++) {
            table[c] = classify((char) c);
        }
        return table;
    }

    private static byte classify(char c) {
        if (c < 128) {
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
                return LETTER;
            }
            if (c >= '0' && c <= '9') {
                return DIGIT;
            }
            if (c == ' ' || c == '\t' || c == '\r') {
                return SPACE;
            }
            if (c == '\n' || c == '\u000B' || c == '\f') {
                return NEWLINE;
            }
            if (c < 32 || c == 127) {
                return FILLER;
            }
            if (c == '\'') {
                return APOSTROPHE;
            }
            return PUNCT;
        }
        if (c == 0x3000) {
            return SPACE;
        }
        if (c == 0x2028 || c == 0x2029 || c == 0x0085) {
            return NEWLINE;
        }
        if (c >= 0xFF01 && c <= 0xFF5E) {
            return FULLWIDTH;
        }
        if (c >= 0x3001 && c <= 0x303F) {
            return CJK_PUNCT;
        }
        if (c >= 0x4E00 && c <= 0x9FFF || c >= 0x3400 && c <= 0x4DBF || c >= 0xF900 && c <= 0xFAFF
                || c >= 0x3040 && c <= 0x30FF || c >= 0xAC00 && c <= 0xD7AF || c >= 0x1100 && c <= 0x11FF
                || c >= 0xFF66 && c <= 0xFF9F) {
            return CJK;
        }
        if (c >= 0xD800 && c <= 0xDFFF || c >= 0x0080 && c <= 0x009F || c >= 0x200B && c <= 0x200F
                || c >= 0x2060 && c <= 0x206F || c >= 0x20D0 && c <= 0x20FF || c >= 0x2300 && c <= 0x23FF
                || c >= 0x2460 && c <= 0x24FF || c >= 0x2580 && c <= 0x27BF || c >= 0x2B00 && c <= 0x2BFF
                || c >= 0xFE00 && c <= 0xFE0F || c >= 0xE000 && c <= 0xF8FF || c >= 0xFFF0 || c == 0xFEFF
                || c == 0x00AD) {
            return c == 0x25CF || c == 0x25AA || c == 0x25E6 ? BULLET : FILLER;
        }
        if (c == 0x2018 || c == 0x2019 || c == 0x02BC) {
            return APOSTROPHE;
        }
        if (c == 0x2022 || c == 0x2023 || c == 0x2043) {
            return BULLET;
        }
        if (c == 0x00D7 || c == 0x00F7 || c == 0x2212 || c >= 0x2200 && c <= 0x22FF || c >= 0x2A00 && c <= 0x2AFF) {
            return MATH;
        }
        if (Character.isLetter(c)) {
            return LETTER;
        }
        if (Character.isDigit(c)) {
            return DIGIT;
        }
        if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
            return SPACE;
        }
        int type = Character.getType(c);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT
                || type == Character.CONTROL || type == Character.UNASSIGNED || type == Character.OTHER_SYMBOL
                || type == Character.SURROGATE || type == Character.PRIVATE_USE) {
            return FILLER;
        }
        return PUNCT;
    }
}
