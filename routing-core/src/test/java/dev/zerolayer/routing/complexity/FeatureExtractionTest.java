package dev.zerolayer.routing.complexity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each feature fires on what it names, in English and in Chinese, and stays quiet on plain text. */
class FeatureExtractionTest {

    private static Map<String, Double> features(String prompt) {
        return ComplexityScorer.defaultScorer().score(prompt).features();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            multi_step  | First collect the logs, then group the errors by service, and finally write a short summary.
            multi_step  | 首先整理需求，然后拆分任务，最后排出时间表。
            multi_step  | 先读一遍合同，再标出风险条款，最后给出修改建议。
            code_terms  | Write a Kotlin function that parses a CSV line.
            code_terms  | 用 Go 写一个并发安全的计数器，需要单元测试。
            code_block  | ```python\\nfor i in range(3):\\n    print(i)\\n```
            identifiers | Why is user_id null when I call getCurrentUser() from the session_store?
            stack_trace | Traceback (most recent call last):\\n  File "main.py", line 3, in <module>\\nKeyError: 'id'
            stack_trace | Exception in thread "main" java.lang.IllegalStateException\\n    at com.acme.App.run(App.java:10)
            math_expr   | Simplify 3(x + 2) - 4x = 7 for x.
            math_expr   | Evaluate $\\frac{1}{2} + \\sqrt{9}$.
            math_expr   | 已知 2a + 3 = 11，求 a。
            math_words  | What is the probability that two dice sum to seven?
            math_words  | 一个长方形的周长是 24 厘米，长是宽的 2 倍，求面积。
            legal       | Is this non-disclosure clause enforceable if the contract was never signed?
            legal       | 劳动合同到期不续签，公司需要支付经济补偿吗？
            finance     | Compare the EBITDA margins and free cash flow of the two companies.
            finance     | 这家公司的毛利率和现金流为什么背离？
            medical     | What dosage adjustments does a patient with kidney disease need for this antibiotic?
            medical     | 患者血压偏高，服药后出现头晕，是否是药物副作用？
            format      | Return the answer as a JSON object with keys name and score.
            format      | Answer in exactly 50 words.
            format      | 用表格列出三种方案的优缺点。
            format      | Write a limerick with an AABBA rhyme scheme.
            creative    | Write a short story about a robot learning to paint.
            creative    | 写一首关于秋天的诗。
            writing     | Draft a project proposal for the new billing system.
            writing     | 帮我写一份年终述职报告。
            reasoning   | Explain why the sky is blue and compare it with sunsets.
            reasoning   | 分析一下这次失败的原因。
            summary     | Summarize this email in two sentences.
            summary     | 帮我概括一下这段话。
            chitchat    | hello!
            chitchat    | 早上好呀
            lookup      | Where is my parcel? The tracking page has not changed.
            lookup      | 我的快递到哪里了？
            choices     | Which is a prime number?\\nA. 4\\nB. 6\\nC. 7\\nD. 9\\nAnswer:
            structure   | Plan:\\n- buy milk\\n- call mum\\n- book flights\\n1. one\\n2. two\\n3. three
            """)
    void featureFiresOnWhatItNames(String feature, String prompt) {
        assertThat(features(prompt.replace("\\n", "\n")).get(feature)).as(feature).isGreaterThan(0.0);
    }

    @Test
    void plainSmallTalkHasNoWorkFeatures() {
        Map<String, Double> f = features("Nice weather today, isn't it?");
        for (String work : List.of("multi_step", "code_terms", "code_block", "math_expr", "math_words", "legal",
                "finance", "medical", "format", "creative", "writing", "vague")) {
            assertThat(f.get(work)).as(work).isZero();
        }
        assertThat(f.get("plain")).isEqualTo(1.0);
    }

    @Test
    void everyFeatureIsInTheUnitInterval() {
        String heavy = "First, then, finally; 首先然后最后. ```java\nint x = 1;\n``` f(x)=x^2+1, 3+4=7. contract "
                + "合同 revenue 财报 patient 患者 table JSON 表格 poem 诗 report 报告 " + "$\\int x dx$ ".repeat(50);
        ComplexityScore score = ComplexityScorer.defaultScorer().score(heavy);
        assertThat(score.features().values()).allSatisfy(v -> assertThat(v).isBetween(0.0, 1.0));
        assertThat(score.features().keySet()).containsExactlyInAnyOrderElementsOf(ComplexityScorer.featureIds());
    }

    @Test
    void vagueNeedsAVaguePhraseAndNoStatedCriterion() {
        assertThat(features("make it better").get("vague")).isEqualTo(1.0);
        assertThat(features("Make it better: keep it under 100 words and use a table.").get("vague")).isZero();
        assertThat(features("How can we make the onboarding process better for new hires in the sales team?")
                .get("vague")).isZero();
        String pasted = "Here is my essay. " + "The city grew quickly after the railway arrived and trade followed. "
                .repeat(8) + "Make it better.";
        assertThat(features(pasted).get("vague")).isEqualTo(0.5);
    }

    @Test
    void lookupIsNotALookupWhenThereIsWorkInIt() {
        assertThat(features("What is the capital of Peru?").get("lookup")).isEqualTo(1.0);
        assertThat(features("What is the probability of rolling two sixes with two dice?").get("lookup"))
                .isLessThan(0.5);
    }

    @Test
    void theWholeConversationCounts() {
        Conversation alone = Conversation.ofUser("and now in French please");
        Conversation withHistory = new Conversation("You are a senior Java reviewer.", List.of(
                Turn.user("Review this:\n```java\nclass A { void f() { g(); } }\n```"),
                Turn.assistant("The method g() is undefined; add it or import it."),
                Turn.user("and now in French please")));
        Map<String, Double> single = ComplexityScorer.defaultScorer().score(alone).features();
        Map<String, Double> multi = ComplexityScorer.defaultScorer().score(withHistory).features();
        assertThat(multi.get("turns")).isGreaterThan(single.get("turns"));
        assertThat(multi.get("system")).isGreaterThan(0.0);
        assertThat(multi.get("code_block")).isGreaterThan(0.0);
        assertThat(multi.get("length")).isGreaterThan(single.get("length"));
        assertThat(ComplexityScorer.defaultScorer().score(withHistory).score())
                .isGreaterThan(ComplexityScorer.defaultScorer().score(alone).score());
    }

    @Test
    void latestUserTurnIsTheOneJudgedForVagueness() {
        Conversation vagueEarlier = new Conversation("", List.of(Turn.user("make it better"),
                Turn.assistant("Sure, what should I improve?"), Turn.user("Translate 'good night' into German.")));
        assertThat(ComplexityScorer.defaultScorer().score(vagueEarlier).features().get("vague")).isZero();
    }
}
