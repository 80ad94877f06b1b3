package dev.zerolayer.bench.proxy;

import java.util.Map;

/** A proxy started in front of the simulated node for the overhead run: where to send, with which headers. */
public interface Peer extends AutoCloseable {

    /** The name in tables and plots. */
    String name();

    /** The Anthropic Messages endpoint through this peer. */
    String messagesUrl();

    /** The headers a client sends through this peer (besides content-type). */
    Map<String, String> headers();

    /** One line on what runs (version, configuration) for the report. */
    String describe();

    @Override
    void close();
}
