package dev.zerolayer.routing.complexity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The seed's score bands (seed 003 §3.2 / §4.2) with the lexical model (the default before the learned one; see
 * {@link SeedTiersTest} for the default's tiers): customer service ≈ 0.25, report
 * ≈ 0.52, creative ≈ 0.65, legal ≈ 0.78 (± 0.1), code and maths in [0.7, 0.9], vague instructions in [0.80, 0.95],
 * chit-chat and lookups low — in English and Chinese, with prompts that are not among the training anchors.
 */
class SeedExamplesTest {

    private static final ComplexityScorer SCORER = ComplexityScorer.withModel(ComplexityModels.lexical());

    static Stream<Arguments> customerService() {
        return Stream.of(
                Arguments.of("订单 #12345 为什么还没发货？"),
                Arguments.of("Why hasn't my order #12345 shipped yet?"),
                Arguments.of("Hi, I ordered a blender last Tuesday and it still says processing. When will it be delivered?"),
                Arguments.of("How do I change the delivery address on my order?"),
                Arguments.of("我上周买的耳机到现在还没发货，能帮我查一下物流吗？"),
                Arguments.of("退货运费谁来承担？"));
    }

    static Stream<Arguments> reports() {
        return Stream.of(
                Arguments.of("根据附件财报，用三点总结 Q2 业绩"),
                Arguments.of("Based on the attached earnings report, summarize Q2 performance in three points."),
                Arguments.of("Write a monthly report for the support team covering ticket volume, response times and top "
                        + "complaints."),
                Arguments.of("帮我写一份本月的销售月报，包括销售额、新客户数和重点项目进展。"));
    }

    static Stream<Arguments> creative() {
        return Stream.of(
                Arguments.of("写一首关于春天的七言绝句，押平水韵"),
                Arguments.of("Write a seven-character quatrain about spring that follows the Pingshui rhyme scheme."),
                Arguments.of("Write a short poem about the sea at night."),
                Arguments.of("写一篇关于友谊的小故事，三百字左右。"));
    }

    static Stream<Arguments> legal() {
        return Stream.of(
                Arguments.of("这份租房合同第 7 条是否违反《民法典》第 509 条？"),
                Arguments.of("Does clause 7 of this rental contract violate Article 509 of the Civil Code?"),
                Arguments.of("Our supplier missed the delivery deadline twice; can we terminate the contract for breach "
                        + "and claim damages?"),
                Arguments.of("员工在试用期内被辞退，公司没有书面通知，是否违法？可以主张哪些赔偿？"));
    }

    static Stream<Arguments> codeAndMaths() {
        return Stream.of(
                Arguments.of("Write a Java method that checks whether a binary tree is balanced, with JUnit tests."),
                Arguments.of("This throws a NullPointerException:\n```java\nString name = user.getProfile().getName();\n"
                        + "```\nHow do I fix it safely?"),
                Arguments.of("用 Python 实现快速排序，并分析时间复杂度。"),
                Arguments.of("这段 JavaScript 为什么输出 undefined？\n```js\nfunction f() { return\n  { ok: true }; }\n"
                        + "console.log(f());\n```"),
                Arguments.of("Solve 2x^2 + 3x - 5 = 0 and check both roots."),
                Arguments.of("A shop sells apples at $0.40 each and pears at $0.65 each. Tom buys 12 fruits for $6.05. "
                        + "How many pears did he buy?"),
                Arguments.of("求函数 f(x) = x^3 - 3x 的极值，并写出推导过程。"),
                Arguments.of("甲乙两人从相距 120 公里的两地同时出发相向而行，甲每小时走 5 公里，乙每小时走 7 公里，几小时后相遇？"));
    }

    static Stream<Arguments> vague() {
        return Stream.of(
                Arguments.of(Conversation.ofUser("make it better")),
                Arguments.of(Conversation.ofUser("Can you make it better?")),
                Arguments.of(Conversation.ofUser("帮我弄得好一点")),
                Arguments.of(Conversation.ofUser("弄得好一点吧")),
                Arguments.of(new Conversation("", List.of(Turn.user("Write a tagline for my bakery"),
                        Turn.assistant("Fresh from our oven to your table."), Turn.user("make it better")))),
                Arguments.of(new Conversation("", List.of(Turn.user("帮我写个朋友圈文案"),
                        Turn.assistant("周末去海边，阳光正好。"), Turn.user("帮我弄得好一点")))));
    }

    static Stream<Arguments> chitChat() {
        return Stream.of(Arguments.of("Hi there, how are you doing?"), Arguments.of("你好呀，今天心情不错"),
                Arguments.of("thank you so much!"), Arguments.of("哈哈哈好的谢谢"));
    }

    static Stream<Arguments> lookups() {
        return Stream.of(Arguments.of("What's the capital of Canada?"), Arguments.of("珠穆朗玛峰有多高？"),
                Arguments.of("When did the Berlin Wall fall?"));
    }

    @ParameterizedTest
    @MethodSource("customerService")
    void customerServiceScoresAboutAQuarter(String prompt) {
        assertThat(SCORER.score(prompt).score()).isCloseTo(0.25, within(0.1));
    }

    @ParameterizedTest
    @MethodSource("reports")
    void reportGenerationScoresAboutOneHalf(String prompt) {
        assertThat(SCORER.score(prompt).score()).isCloseTo(0.52, within(0.1));
    }

    @ParameterizedTest
    @MethodSource("creative")
    void creativeWritingScoresAboutTwoThirds(String prompt) {
        assertThat(SCORER.score(prompt).score()).isCloseTo(0.65, within(0.1));
    }

    @org.junit.jupiter.api.Test
    void formatConstraintsRaiseACreativePrompt() {
        double free = SCORER.score("Write a short poem about the sea at night.").score();
        double constrained = SCORER.score("Write a short poem about the sea at night, four stanzas, with an AABB rhyme "
                + "scheme.").score();
        assertThat(constrained).isGreaterThan(free).isLessThan(0.95);
    }

    @ParameterizedTest
    @MethodSource("legal")
    void legalQuestionsScoreAboutPointSevenEight(String prompt) {
        assertThat(SCORER.score(prompt).score()).isCloseTo(0.78, within(0.1));
    }

    @ParameterizedTest
    @MethodSource("codeAndMaths")
    void codeAndMathsScoreBetweenPointSevenAndPointNine(String prompt) {
        assertThat(SCORER.score(prompt).score()).isBetween(0.70, 0.90);
    }

    @ParameterizedTest
    @MethodSource("vague")
    void vagueInstructionsLandInTheVagueBandAndSayWhy(Conversation conversation) {
        ComplexityScore score = SCORER.score(conversation);
        assertThat(score.score()).isBetween(0.80, 0.95);
        assertThat(score.features().get("vague")).isGreaterThanOrEqualTo(VagueBand.THRESHOLD);
        assertThat(score.rules()).containsExactly(VagueBand.RULE);
    }

    @ParameterizedTest
    @MethodSource("chitChat")
    void chitChatScoresLow(String prompt) {
        ComplexityScore score = SCORER.score(prompt);
        assertThat(score.score()).isLessThan(0.2);
        assertThat(score.topDrivers(2)).contains("chitchat");
    }

    @ParameterizedTest
    @MethodSource("lookups")
    void lookupsScoreLow(String prompt) {
        assertThat(SCORER.score(prompt).score()).isLessThan(0.35);
    }
}
