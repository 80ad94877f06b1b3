package dev.zerolayer.routing.complexity;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The named inputs of the complexity model, each a number in [0,1] computed from one bounded pass over the text. */
public enum Feature {
    LENGTH("length", 1, "content size of the whole conversation (words + CJK characters / 1.5), log-scaled, 1 at 2,048"),
    TURNS("turns", 1, "earlier turns before the latest user turn, 1 at 8"),
    SYSTEM("system", 1, "size of the system prompt, log-scaled, 1 at 1,024 units"),
    STRUCTURE("structure", 1, "list items, headings and table rows, 1 at 6"),
    SENTENCES("sentences", 1, "sentences, 1 at 10"),
    MULTI_STEP("multi_step", 1, "sequencing markers (first/then/finally, 首先/然后/最后), 1 at 3"),
    CONSTRAINTS("constraints", 1, "hard constraints (must, at least, without, 必须/不超过), 1 at 3"),
    REASONING("reasoning", 1, "analysis verbs (why, compare, prove, 分析/比较/证明), 1 at 2"),
    FORMAT("format", 1, "output-format constraints (table, JSON, N words, rhyme, 表格/押韵/三点), 1 at 2"),
    CREATIVE("creative", 1, "creative writing (poem, story, lyrics, 诗/故事), 1 at 1"),
    WRITING("writing", 1, "long-form documents to produce (report, proposal, essay, 报告/方案/论文), 1 at 1"),
    SUMMARY("summary", -1, "summarising or rewriting (summarize, 总结/概括), 1 at 1, scaled by purity (see below)"),
    VAGUE("vague", 1, "vague instruction (make it better, 弄得好一点) in the latest turn: 1 short and unspecific, 0.5 "
            + "framing pasted material, else 0"),
    CHITCHAT("chitchat", -1, "greeting or small talk in a latest turn of at most 12 units, 1 at 1, scaled by purity"),
    PLAIN("plain", -1, "purity of the request: 1 / (1 + 2 × signs of work: code, maths, domain, format, creative, "
            + "writing, multi-step, answer options, 3+ numbers); 1 for a request with no sign of work"),
    LOOKUP("lookup", -1, "lookup or service request in a short latest turn (what is, order status, 订单/发货), 1 at 2, "
            + "fading out from 40 to 80 units, scaled by purity (see plain)"),
    CODE_BLOCK("code_block", 1, "code fences and code-like lines, 1 at 2 fences or 5 lines"),
    CODE_TERMS("code_terms", 1, "programming vocabulary, languages and keywords (function, python, 代码/函数), 1 at 3"),
    IDENTIFIERS("identifiers", 1, "snake_case, camelCase and call-like identifiers, 1 at 6"),
    STACK_TRACE("stack_trace", 1, "stack-trace lines and exception names, 1 at 2"),
    MATH_EXPR("math_expr", 1, "operator expressions between numbers or variables, equations, LaTeX and maths symbols, 1 at 3"),
    MATH_WORDS("math_words", 1, "maths vocabulary and word-problem cues (solve, how many, 计算/方程), 1 at 2"),
    NUMBERS("numbers", 1, "numbers, 1 at 8"),
    LEGAL("legal", 1, "legal terms (contract, liability, 合同/民法典), 1 at 2"),
    FINANCE("finance", 1, "financial terms (revenue, EBITDA, 财报/现金流), 1 at 3"),
    MEDICAL("medical", 1, "medical terms (diagnosis, dosage, 诊断/患者), 1 at 2"),
    SCIENCE("science", 1, "science terms (molecule, velocity, 量子/细胞), 1 at 3"),
    CHOICES("choices", 0, "multiple-choice options given (two or more A./B. lines): 1, else 0"),
    LONG_WORDS("long_words", 0, "share of Latin words of 10+ letters, 1 at 30 % (0 under 5 words)");

    static final int COUNT = values().length;
    private static final Map<String, Feature> BY_ID = new HashMap<>();

    static {
        for (Feature feature : values()) {
            BY_ID.put(feature.id, feature);
        }
    }

    private final String id;
    private final int direction;
    private final String meaning;

    Feature(String id, int direction, String meaning) {
        this.id = id;
        this.direction = direction;
        this.meaning = meaning;
    }

    /**
     * The designed direction of the feature's effect: +1 (more of it means more work, weight ≥ 0), −1 (a sign of a
     * simple request, weight ≤ 0) or 0 (either; the data decides). Training keeps weights on this side.
     */
    public int direction() {
        return direction;
    }

    /** The name used in model weights and in explanations. */
    public String id() {
        return id;
    }

    /** What the feature measures and how it is scaled. */
    public String meaning() {
        return meaning;
    }

    public static Optional<Feature> byId(String id) {
        return Optional.ofNullable(id == null ? null : BY_ID.get(id));
    }
}
