package dev.zerolayer.simulator.node;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Cheap deterministic completion text, no model: words drawn from a fixed vocabulary by the caller's seeded generator,
 * sentences of 6 to 18 words ending in a period. Every piece is exactly one {@code cl100k_base} token (a tested
 * property), so the number of pieces is the number of output tokens.
 */
public final class TextGenerator {

    /** Common English words that are one token each, with a leading space, capitalised, and capitalised with a space. */
    static final List<String> VOCABULARY = List.of(("the of and to in is that for it as was with be by on not he this are"
            + " or his from at which but have an they you were her she there been one all we their has would when if so"
            + " no will more out up into do can about other than what some time only could new these two may then first"
            + " any like now my such make over our even most after also made many before must through back years where"
            + " much your way well down should because each just those people how too little state good very world still"
            + " own see men work long here get both between life being under never day same another know while last us"
            + " great old year off come since against go right used take three use few house part place around however"
            + " small found again thing every large hand without high point give number side form water given need")
            .split(" "));

    private static final String PERIOD = ".";

    /** The pieces (one token each) of a completion of {@code tokens} tokens. */
    public String[] pieces(RandomGenerator random, int tokens) {
        String[] pieces = new String[tokens];
        boolean sentenceStart = true;
        int wordsLeft = sentenceLength(random);
        for (int i = 0; i < tokens; i++) {
            if (wordsLeft == 0) {
                pieces[i] = PERIOD;
                sentenceStart = true;
                wordsLeft = sentenceLength(random);
                continue;
            }
            String word = VOCABULARY.get(random.nextInt(VOCABULARY.size()));
            if (sentenceStart) {
                word = Character.toUpperCase(word.charAt(0)) + word.substring(1);
            }
            pieces[i] = i == 0 ? word : " " + word;
            sentenceStart = false;
            wordsLeft--;
        }
        return pieces;
    }

    /** The pieces joined. */
    public static String text(String[] pieces) {
        StringBuilder text = new StringBuilder(pieces.length * 6);
        for (String piece : pieces) {
            text.append(piece);
        }
        return text.toString();
    }

    private static int sentenceLength(RandomGenerator random) {
        return 6 + random.nextInt(13);
    }
}
