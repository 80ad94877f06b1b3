package dev.zerolayer.routing.complexity;

/** One feature's part in a score: its value, its model weight, and their product added to the logit. */
public record Contribution(String feature, double value, double weight) {

    public double logit() {
        return value * weight;
    }
}
