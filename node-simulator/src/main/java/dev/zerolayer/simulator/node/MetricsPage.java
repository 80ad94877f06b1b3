package dev.zerolayer.simulator.node;

/** Renders a node's {@code /metrics} page (Prometheus text) from its state. */
@FunctionalInterface
public interface MetricsPage {

    String render(SimulatedNode node);
}
