package dev.zerolayer.simulator.latency;

import java.util.random.RandomGenerator;

/**
 * How many tokens a request generates: a lognormal draw with the configured median and log-standard-deviation, at least
 * one token, capped by the request's token limit (a capped request stops for its limit).
 */
public final class OutputLength {

    /** One draw: the tokens to generate and whether the request's limit cut it short. */
    public record Draw(int tokens, boolean capped) {
    }

    private final double mu;
    private final double sigma;

    public OutputLength(double medianTokens, double sigma) {
        if (!(medianTokens >= 1) || !(sigma >= 0)) {
            throw new IllegalArgumentException("median must be >= 1 and sigma >= 0");
        }
        this.mu = Math.log(medianTokens);
        this.sigma = sigma;
    }

    public Draw draw(RandomGenerator random, int maxTokens) {
        double wanted = Math.exp(mu + sigma * random.nextGaussian());
        int tokens = (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(wanted)));
        return tokens >= maxTokens ? new Draw(maxTokens, true) : new Draw(tokens, false);
    }
}
