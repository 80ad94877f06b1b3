package dev.zerolayer.routing.complexity;

/** A kind of word or phrase the lexicon recognises in English or Chinese; cue counts feed the features. */
enum Cue {
    MULTI_STEP,
    CONSTRAINT,
    REASONING,
    FORMAT,
    UNIT,
    NUMBER_WORD,
    CREATIVE,
    WRITING,
    SUMMARY,
    VAGUE,
    CHITCHAT,
    LOOKUP,
    LEGAL,
    FINANCE,
    MEDICAL,
    SCIENCE,
    CODE_TERM,
    CODE_KEYWORD,
    STACK_TRACE,
    MATH_WORD;

    static final int COUNT = values().length;

    int bit() {
        return 1 << ordinal();
    }
}
