package dev.zerolayer.bench.replay;

import java.util.Map;

/**
 * Dollars per million tokens by tier, from Anthropic's public list prices of the model class each tier stands for:
 * haiku = Claude Haiku 4.5 ($1 in / $5 out), sonnet = Claude Sonnet 4.5 ($3 / $15), opus = Claude Opus 4.1
 * ($15 / $75). A request costs its context at the input price plus its generated tokens at the output price of the
 * tier that served it; failed requests cost nothing; no prompt-caching discount.
 */
public record Pricing(Map<String, double[]> perMillion) {

    public static Pricing listPrices() {
        return new Pricing(Map.of(
                "haiku", new double[] {1.0, 5.0},
                "sonnet", new double[] {3.0, 15.0},
                "opus", new double[] {15.0, 75.0}));
    }

    public double cost(String tier, int inputTokens, int outputTokens) {
        double[] price = perMillion.get(tier);
        if (price == null) {
            throw new IllegalArgumentException("no price for tier " + tier);
        }
        return (inputTokens * price[0] + outputTokens * price[1]) / 1e6;
    }
}
