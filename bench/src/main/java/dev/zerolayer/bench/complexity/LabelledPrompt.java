package dev.zerolayer.bench.complexity;

/** A prompt with whether the weak (Mixtral-8x7B) and strong (GPT-4) model answered it correctly. */
public record LabelledPrompt(String dataset, String id, String prompt, boolean weakCorrect, boolean strongCorrect) {

    /** The routing label: only the strong model gets it right. */
    public boolean needsStrong() {
        return strongCorrect && !weakCorrect;
    }
}
