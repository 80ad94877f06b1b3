package dev.zerolayer.routing.scrape;

/** A scrape that is not valid Prometheus text format; the message names the line number, never the line's content. */
public class PrometheusParseException extends RuntimeException {

    public PrometheusParseException(int line, String problem) {
        super("line " + line + ": " + problem);
    }
}
