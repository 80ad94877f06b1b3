package dev.zerolayer.routing.complexity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The English and Chinese cue words and phrases, compiled into one hash table (behind a 4 KB filter) so the scanner
 * looks a word up without allocating: English phrases of up to four words by chained word hashes, Chinese terms of one
 * to six characters by backwards hashes of the characters ending at the current one.
 */
final class Lexicon {

    static final int PREFIX = 1 << 30;
    static final int CUE_MASK = PREFIX - 1;
    static final int MAX_WORDS = 4;
    static final int MAX_CJK = 6;
    /** The scanner keeps the last characters of a Chinese run in a ring of {@code RING_MASK + 1} characters. */
    static final int RING_MASK = 7;

    static final long FNV_PRIME = 0x100000001B3L;
    private static final long WORD_SEED = 0xCBF29CE484222325L;
    private static final long CJK_SEED = 0x84222325CBF29CE4L;

    private static final Lexicon INSTANCE = build();

    private static final int BLOOM_MASK = 511;

    private final long[] bloom = new long[BLOOM_MASK + 1];
    private final long[] keys;
    private final int[] values;
    private final int mask;
    /** Per character, bit L set when some Chinese term of L characters ends with it. */
    private final byte[] cjkLengthsByLastChar;

    private Lexicon(int capacity, byte[] cjkLengthsByLastChar) {
        int size = Integer.highestOneBit(Math.max(16, capacity * 2) - 1) << 1;
        this.keys = new long[size];
        this.values = new int[size];
        this.mask = size - 1;
        this.cjkLengthsByLastChar = cjkLengthsByLastChar;
    }

    static Lexicon instance() {
        return INSTANCE;
    }

    // ---------------------------------------------------------------- hashing (shared with the scanner)

    static long wordStart() {
        return WORD_SEED;
    }

    static long wordStep(long hash, char lowerCaseChar) {
        return (hash ^ lowerCaseChar) * FNV_PRIME;
    }

    static long wordEnd(long hash) {
        return nonZero(hash ^ (hash >>> 29));
    }

    /** Hash of a phrase prefix extended by one word: a bijection in the word for a given prefix. */
    static long phrase(long prefixHash, long wordHash) {
        long h = prefixHash * 0xC2B2AE3D27D4EB4FL ^ wordHash;
        return nonZero(h ^ (h >>> 31));
    }

    /** Start of a Chinese term's hash, taken backwards from its last character. */
    static long cjkStart() {
        return CJK_SEED;
    }

    /** One more character (the next one to the left) of a backwards Chinese-term hash. */
    static long cjkStep(long hash, char c) {
        return (hash ^ c) * FNV_PRIME;
    }

    static long cjkEnd(long hash) {
        return nonZero(hash ^ (hash >>> 29));
    }

    private static long nonZero(long hash) {
        return hash == 0 ? 1 : hash;
    }

    // ---------------------------------------------------------------- lookups

    int lookup(long hash) {
        int folded = (int) (hash ^ (hash >>> 32));
        if ((bloom[(folded >>> 6) & BLOOM_MASK] & (1L << folded)) == 0) {
            return 0; // most words are not cues: a 4 KB filter answers without touching the table
        }
        int index = folded & mask;
        long key;
        while ((key = keys[index]) != 0) {
            if (key == hash) {
                return values[index];
            }
            index = (index + 1) & mask;
        }
        return 0;
    }

    /** Bit L set when a Chinese term of L characters ends with {@code c} (0: none does). */
    int cjkLengthsEndingWith(char c) {
        return cjkLengthsByLastChar[c];
    }

    private void add(long hash, int value) {
        int folded = (int) (hash ^ (hash >>> 32));
        bloom[(folded >>> 6) & BLOOM_MASK] |= 1L << folded;
        int index = folded & mask;
        while (keys[index] != 0 && keys[index] != hash) {
            index = (index + 1) & mask;
        }
        keys[index] = hash;
        values[index] |= value;
    }

    // ---------------------------------------------------------------- the word lists

    private static Lexicon build() {
        List<Object[]> entries = new ArrayList<>();
        en(entries, Cue.MULTI_STEP, "first", "firstly", "first of all", "secondly", "thirdly", "then", "next",
                "finally", "lastly", "afterwards", "after that", "and then", "step by step", "followed by",
                "subsequently", "before that", "in the end", "at the end", "step one", "step two",
                "step three");
        zh(entries, Cue.MULTI_STEP, "首先", "其次", "然后", "接着", "最后", "再次", "之后", "随后", "第一步", "第二步", "第三步",
                "分步", "逐步", "一步一步", "先分析", "先把", "先对", "先用", "先写", "先列", "先给", "先说明", "先看", "先总结",
                "再对比", "再比较", "再分析", "再把", "再用", "再给", "再写", "再根据", "再结合", "再提出");
        en(entries, Cue.CONSTRAINT, "must", "must not", "should not", "do not", "don't", "never", "exactly",
                "at least", "at most", "no more than", "no less than", "fewer than", "without", "make sure", "ensure",
                "required", "requirement", "requirements", "constraint", "constraints", "strictly", "limit",
                "limited to", "only use", "avoid", "mandatory");
        zh(entries, Cue.CONSTRAINT, "必须", "不要", "不能", "不得", "至少", "至多", "不超过", "不少于", "只能", "确保", "务必",
                "严格", "要求", "限制", "以内", "禁止", "避免");
        en(entries, Cue.REASONING, "why", "explain", "explains", "explaining", "analyze", "analyse", "analysis",
                "compare", "comparison", "contrast", "evaluate", "evaluation", "assess", "assessment", "justify",
                "prove", "proof", "derive", "derivation", "reasoning", "implication", "implications", "trade off",
                "trade offs", "tradeoff", "tradeoffs", "pros and cons", "critique", "argue", "infer", "deduce",
                "consequences", "hypothesis", "what if", "whether", "recommend", "recommendation", "recommendations",
                "strategy", "design", "architecture", "optimize", "optimise", "diagnose", "root cause", "in depth",
                "rigorous", "rigorously", "counterargument", "weigh");
        zh(entries, Cue.REASONING, "为什么", "分析", "解释", "比较", "对比", "评估", "论证", "证明", "推导", "推理", "原因", "利弊",
                "优缺点", "权衡", "影响", "建议", "策略", "设计", "架构", "判断", "是否", "深入", "系统地", "论述", "评价");
        en(entries, Cue.FORMAT, "table", "tables", "json", "yaml", "csv", "xml", "markdown", "bullet points",
                "bullet point", "bullet list", "bulleted", "numbered list", "formatted", "format", "heading", "headings",
                "columns", "word limit", "rhyme", "rhymes", "rhyming", "rhyme scheme", "meter", "iambic", "pentameter",
                "haiku", "sonnet", "limerick", "stanza", "stanzas", "couplet", "couplets", "acrostic", "syllable",
                "syllables", "abab", "aabb", "schema", "template", "outline");
        zh(entries, Cue.FORMAT, "表格", "格式", "列表", "要点", "分点", "三点", "两点", "四点", "五点", "三条", "五条", "字以内",
                "押韵", "平水韵", "韵脚", "平仄", "七言", "五言", "绝句", "律诗", "对仗", "字数", "段落", "标题", "三段", "编号",
                "大纲", "模板", "加粗", "每条", "个字", "列出");
        en(entries, Cue.UNIT, "words", "word", "sentences", "sentence", "paragraphs", "paragraph", "points", "bullets",
                "lines", "characters", "syllables", "items", "tips", "reasons", "examples", "slides", "pages",
                "stanzas", "verses", "options", "ideas");
        en(entries, Cue.NUMBER_WORD, "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "twelve", "fifteen", "twenty", "fifty", "hundred");
        en(entries, Cue.CREATIVE, "poem", "poems", "poetry", "story", "stories", "short story", "novel", "fiction",
                "lyrics", "song", "screenplay", "dialogue", "fable", "fairy tale", "creative", "imaginative", "metaphor",
                "narrative", "protagonist", "slogan", "tagline", "verse", "verses", "ode", "ballad", "quatrain", "tanka", "villanelle", "ghazal",
                "write a poem", "write a story");
        zh(entries, Cue.CREATIVE, "诗", "诗歌", "一首", "故事", "小说", "剧本", "歌词", "散文", "童话", "寓言", "创作", "文案",
                "广告语", "对联", "作文", "春联", "词牌");
        en(entries, Cue.WRITING, "report", "reports", "essay", "article", "proposal", "memo", "white paper",
                "whitepaper", "business plan", "project plan", "cover letter", "press release", "documentation",
                "user guide", "specification", "spec", "thesis", "literature review", "newsletter", "blog post",
                "speech", "presentation", "slide deck", "business review", "case study", "executive summary",
                "one pager", "one page", "status update", "post mortem", "postmortem", "rfc", "design doc", "ppt");
        zh(entries, Cue.WRITING, "报告", "周报", "月报", "年报", "文章", "论文", "方案", "计划书", "策划案", "演讲稿", "讲稿",
                "新闻稿", "说明书", "文档", "综述", "简历", "述职", "复盘", "汇报", "纪要", "提案", "白皮书");
        en(entries, Cue.SUMMARY, "summarize", "summarise", "summary", "summarizing", "tldr", "tl dr", "sum up",
                "recap", "condense", "shorten", "paraphrase", "rephrase", "key takeaways");
        zh(entries, Cue.SUMMARY, "总结", "摘要", "概括", "归纳", "缩写", "简述", "改写", "提炼");
        en(entries, Cue.VAGUE, "make it better", "make this better", "make that better", "make it good",
                "make it nicer", "make it nice", "make it look good", "make it look better", "make it pop",
                "make it more better", "make it great", "make it work better", "improve it", "improve this",
                "improve that", "do it better", "do better", "polish it",
                "polish this", "clean it up", "jazz it up", "spice it up", "tweak it", "enhance it", "optimize it",
                "something better", "better please");
        zh(entries, Cue.VAGUE, "弄得好一点", "弄好一点", "弄好点", "改好一点", "改得好一点", "写得好一点", "搞好一点", "做得好一点",
                "弄得更好", "改得更好", "弄得漂亮点", "弄漂亮点", "改改", "改一改", "优化一下", "完善一下", "润色一下", "调整一下",
                "处理一下", "看着办", "随便改", "弄一下", "搞一下", "整好一点", "再好一点", "好看一点", "高级一点");
        en(entries, Cue.CHITCHAT, "hi", "hello", "hey", "thanks", "thank you", "thx", "good morning", "good night",
                "good evening", "how are you", "what's up", "bye", "goodbye", "lol", "haha", "nice to meet you",
                "how's it going", "you're welcome", "tell me a joke", "joke", "cheers", "sup", "yo", "ok", "okay",
                "cool", "great");
        zh(entries, Cue.CHITCHAT, "你好", "您好", "谢谢", "多谢", "早上好", "晚上好", "晚安", "再见", "哈哈", "在吗", "你是谁",
                "聊聊", "聊天", "无聊", "讲个笑话", "笑话", "好的", "嗯嗯");
        en(entries, Cue.LOOKUP, "what is", "what's", "who is", "who was", "when is", "when did", "when does",
                "where is", "where can", "what time", "capital of", "define", "definition", "meaning of", "tracking",
                "order", "orders", "shipped", "shipping", "delivery", "delivered", "refund", "return policy",
                "password", "reset", "account", "opening hours", "price", "status", "look up", "translate",
                "translation", "spell", "spelling", "synonym", "weather", "cancel", "subscription", "invoice",
                "package", "parcel", "in stock", "out of stock", "coupon", "coupon code", "promo code",
                "discount code", "zip code", "checkout", "store hours", "phone number", "address of", "who wrote", "who invented",
                "who painted", "who discovered", "how old is", "how tall is", "open on", "opening time", "when was",
                "where was", "which year", "what year", "population of", "recipe for", "convert", "nearest");
        zh(entries, Cue.LOOKUP, "什么是", "是什么", "是谁", "在哪", "在哪里", "什么时候", "多少钱", "订单", "发货", "快递", "物流",
                "退款", "退货", "密码", "账号", "价格", "营业时间", "怎么走", "翻译", "意思", "天气", "几点", "到货",
                "签收", "客服", "会员", "优惠券", "哪里", "哪儿", "哪一年", "多高", "多长", "多远", "多重", "首都", "是谁写", "谁写的", "谁发明", "多大", "电话",
                "地址", "积分", "到账", "开门", "关门", "怎么用", "用不了");
        en(entries, Cue.LEGAL, "law", "laws", "legal", "legally", "contract", "contracts", "clause", "clauses",
                "statute", "statutes", "court", "courts", "plaintiff", "defendant", "liability", "liable", "tort",
                "negligence", "jurisdiction", "lawsuit", "litigation", "attorney", "lawyer", "counsel", "breach",
                "indemnify", "indemnification", "compliance", "regulation", "regulations", "regulatory", "gdpr", "hipaa",
                "copyright", "trademark", "patent", "lease", "tenant", "landlord", "civil code", "constitution",
                "constitutional", "amendment", "appellate", "prosecution", "prosecutor", "felony", "misdemeanor",
                "verdict", "testimony", "hearsay", "admissible", "statutory", "precedent", "arbitration",
                "terms of service", "warranty", "enforceable", "voidable", "rescission", "damages", "injunction",
                "legislation", "judge", "jury", "crime", "criminal", "convicted", "guilty", "rights");
        zh(entries, Cue.LEGAL, "法律", "合同", "条款", "民法典", "刑法", "宪法", "法院", "诉讼", "原告", "被告", "违约", "侵权",
                "赔偿", "律师", "法规", "合规", "监管", "违反", "判决", "仲裁", "租赁", "租房", "房东", "租客", "知识产权", "专利",
                "商标", "著作权", "法条", "司法解释", "无效", "效力", "劳动法", "劳动合同", "法律责任", "违法");
        en(entries, Cue.FINANCE, "revenue", "revenues", "profit", "profits", "margin", "margins", "ebitda", "earnings",
                "eps", "dividend", "dividends", "stock price", "stock market", "stocks", "equity", "bond", "bonds", "yield", "interest rate",
                "interest rates", "inflation", "portfolio", "valuation", "cash flow", "balance sheet",
                "income statement", "liabilities", "assets", "depreciation", "amortization", "tax", "taxes", "audit",
                "accounting", "gaap", "ifrs", "fiscal", "quarterly", "q1", "q2", "q3", "q4", "investment",
                "investor", "investors", "roi", "npv", "irr", "wacc", "capm", "hedge", "futures", "loan", "mortgage",
                "credit", "debt", "budget", "forecast", "financial", "finance", "banking", "basis points", "gdp",
                "monetary", "shareholder", "shareholders", "capital expenditure", "capex", "working capital", "market", "markets", "economy", "economic",
                "price elasticity", "supply and demand");
        zh(entries, Cue.FINANCE, "财报", "营收", "收入", "利润", "毛利", "净利润", "毛利率", "现金流", "资产", "负债", "股票", "股价",
                "债券", "收益率", "利率", "通胀", "投资", "估值", "分红", "季度", "财务", "会计", "审计", "税务", "预算", "贷款", "融资",
                "基金", "风控", "金融", "业绩", "同比", "环比", "市场", "经济", "资本");
        en(entries, Cue.MEDICAL, "patient", "patients", "diagnosis", "symptom", "symptoms", "treatment",
                "therapy", "disease", "diseases", "clinical", "dose", "dosage", "drug", "drugs", "medication",
                "prescription", "side effects", "syndrome", "chronic", "acute", "infection", "virus", "bacteria",
                "cancer", "tumor", "diabetes", "hypertension", "cardiac", "surgery", "mri", "pregnancy", "vaccine",
                "antibiotic", "antibiotics", "allergy", "physician", "doctor", "nurse", "hospital", "pathology",
                "prognosis", "contraindication", "contraindications", "mg", "blood", "insulin", "kidney", "liver",
                "heart", "lung", "artery", "nerve", "hormone", "immune", "medical", "medicine");
        zh(entries, Cue.MEDICAL, "患者", "病人", "诊断", "症状", "治疗", "疾病", "临床", "剂量", "药物", "用药", "处方", "副作用",
                "综合征", "慢性", "急性", "感染", "病毒", "细菌", "肿瘤", "癌症", "糖尿病", "高血压", "手术", "医生", "医院", "疫苗",
                "抗生素", "过敏", "怀孕", "血压", "体检", "化验", "医学", "病历");
        en(entries, Cue.SCIENCE, "physics", "chemistry", "biology", "molecule", "molecules", "atom", "atoms",
                "electron", "electrons", "energy", "force", "velocity", "acceleration", "momentum", "gravity",
                "quantum", "entropy", "thermodynamics", "reaction", "enzyme", "cell", "cells", "dna", "rna", "protein",
                "gene", "genes", "genetic", "evolution", "species", "wavelength", "frequency", "voltage", "circuit",
                "resistance", "magnetic", "photon", "orbit", "planet", "isotope", "acid", "oxidation", "temperature",
                "pressure", "mass", "density", "kinetic", "potential energy", "charge", "nucleus", "organism");
        zh(entries, Cue.SCIENCE, "物理", "化学", "生物", "分子", "原子", "电子", "能量", "速度", "加速度", "动量", "引力", "量子",
                "熵", "化学反应", "细胞", "基因", "蛋白质", "进化", "波长", "频率", "电压", "电路", "磁场", "实验", "温度", "压强",
                "质量", "密度");
        en(entries, Cue.CODE_TERM, "this code", "my code", "following code", "code snippet",
                "code review", "source code", "sample code", "your code", "code below", "write code", "coding", "program", "programming", "function", "functions", "method",
                "methods", "class", "classes", "variable", "variables", "compile", "compiler", "bug", "bugs", "debug",
                "refactor", "api", "endpoint", "database", "sql", "query", "regex", "algorithm", "algorithms",
                "implement", "implementation", "script", "python", "java", "javascript", "typescript", "golang",
                "rust", "kotlin", "swift", "ruby", "php", "cpp", "html", "css", "react", "docker", "kubernetes",
                "linux", "bash", "shell", "git", "framework", "recursion", "array", "arrays", "integer",
                "boolean", "string", "strings", "thread", "threads", "unit test", "unit tests", "deploy", "server",
                "backend", "frontend", "runtime", "pointer", "time complexity", "leetcode", "github", "npm", "maven",
                "gradle", "stdin", "stdout", "input format", "output format", "test cases", "binary tree",
                "linked list", "hash map", "hash table", "quicksort", "binary search", "dynamic programming",
                "big o", "data structure", "spreadsheet", "excel", "vba", "pandas", "numpy");
        zh(entries, Cue.CODE_TERM, "代码", "编程", "函数", "程序", "变量", "编译", "报错", "调试", "接口", "数据库", "算法", "脚本",
                "重构", "部署", "服务器", "前端", "后端", "框架", "正则", "数组", "字符串", "线程", "并发", "单元测试", "源码",
                "链表", "二叉树", "复杂度", "快速排序", "排序算法", "时间复杂度", "空间复杂度", "递归", "动态规划", "哈希");
        en(entries, Cue.CODE_KEYWORD, "def", "elif", "impl", "fn", "const", "var", "void", "println", "printf",
                "sizeof", "nullptr", "struct", "typedef", "async", "await", "lambda", "namespace", "iostream", "stdio",
                "kwargs", "args", "self", "int", "str", "dict", "len", "init", "boolean", "null", "undefined",
                "foreach", "cout", "cin", "endl", "std", "bool", "malloc", "println", "sys", "os", "np", "pd",
                "usize", "i32", "u8", "let mut", "pub fn", "return none", "range", "isinstance", "typeof",
                "instanceof", "throws");
        en(entries, Cue.STACK_TRACE, "traceback", "stacktrace", "stack trace", "exception", "exceptions", "segfault",
                "segmentation fault", "core dumped", "errno", "panicked", "most recent call last", "caused by",
                "error message", "line number");
        en(entries, Cue.MATH_WORD, "solve", "calculate", "calculation", "compute", "how many", "how much",
                "equation", "equations", "integral", "derivative", "differentiate", "integrate", "probability",
                "expected value", "variance", "percent", "percentage", "ratio", "fraction", "fractions", "sum",
                "average", "median", "total", "remainder", "divisible", "prime", "factor", "factorial", "polynomial",
                "matrix", "matrices", "vector", "eigenvalue", "theorem", "lemma", "find the value", "area", "perimeter",
                "volume", "radius", "triangle", "angle", "geometry", "algebra", "calculus", "statistics", "logarithm",
                "exponent", "sqrt", "square root", "irrational", "rational", "prime number", "digits", "modulo",
                "inequality", "minimize", "maximize", "twice", "half", "times as",
                "per hour", "per day", "per week", "mph", "miles per hour", "catch up", "coin", "coins",
                "dice", "at random", "randomly", "odds", "prove that", "each", "altogether", "in total", "left over", "how long",
                "how far", "how old", "group", "ring", "field", "subgroup", "integer", "integers", "real numbers");
        zh(entries, Cue.MATH_WORD, "计算", "求解", "方程", "导数", "微分", "概率", "期望", "方差", "百分比", "比例", "分数",
                "总共", "一共", "平均", "余数", "整除", "质数", "因数", "阶乘", "多项式", "矩阵", "向量", "定理", "面积", "周长",
                "体积", "半径", "三角形", "角度", "几何", "代数", "数列", "多少个", "几个", "多少", "每天", "每小时", "倍", "一半",
                "百分之", "几倍", "多少倍", "涨价", "降价", "打折", "定积分", "不定积分", "随机", "硬币", "骰子",
                "应用题", "解方程", "求导", "极限");
        return compile(entries);
    }

    private static void en(List<Object[]> entries, Cue cue, String... phrases) {
        for (String phrase : phrases) {
            entries.add(new Object[] {cue, phrase, Boolean.FALSE});
        }
    }

    private static void zh(List<Object[]> entries, Cue cue, String... terms) {
        for (String term : terms) {
            entries.add(new Object[] {cue, term, Boolean.TRUE});
        }
    }

    private static Lexicon compile(List<Object[]> entries) {
        byte[] lengths = new byte[1 << 16];
        for (Object[] entry : entries) {
            if ((Boolean) entry[2]) {
                String term = (String) entry[1];
                lengths[term.charAt(term.length() - 1)] |= (byte) (1 << term.length());
            }
        }
        int keys = 0;
        for (Object[] entry : entries) {
            keys += (Boolean) entry[2] ? 1 : ((String) entry[1]).split("[\\s\\-]+").length;
        }
        Lexicon lexicon = new Lexicon(keys, lengths);
        for (Object[] entry : entries) {
            Cue cue = (Cue) entry[0];
            String text = (String) entry[1];
            if ((Boolean) entry[2]) {
                lexicon.addCjk(text, cue);
            } else {
                lexicon.addPhrase(text, cue);
            }
        }
        return lexicon;
    }

    private void addPhrase(String phrase, Cue cue) {
        String[] words = phrase.toLowerCase(Locale.ROOT).trim().split("[\\s\\-]+");
        if (words.length > MAX_WORDS) {
            throw new IllegalStateException("phrase longer than " + MAX_WORDS + " words: " + phrase);
        }
        long hash = 0;
        for (int w = 0; w < words.length; w++) {
            long wordHash = hashWord(words[w]);
            hash = w == 0 ? wordHash : phrase(hash, wordHash);
            add(hash, w == words.length - 1 ? cue.bit() : PREFIX);
        }
    }

    private void addCjk(String term, Cue cue) {
        if (term.length() < 1 || term.length() > MAX_CJK) {
            throw new IllegalStateException("Chinese term must have 1.." + MAX_CJK + " characters: " + term);
        }
        long hash = cjkStart();
        for (int i = term.length() - 1; i >= 0; i--) {
            hash = cjkStep(hash, term.charAt(i));
        }
        add(cjkEnd(hash), cue.bit());
    }

    static long hashWord(String word) {
        long hash = wordStart();
        for (int i = 0; i < word.length(); i++) {
            hash = wordStep(hash, word.charAt(i));
        }
        return wordEnd(hash);
    }
}
