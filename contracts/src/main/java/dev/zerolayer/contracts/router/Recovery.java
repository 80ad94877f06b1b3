package dev.zerolayer.contracts.router;

/**
 * One thing the router did to save an answer after its first node was chosen, for the decision event: a stream a node
 * broke mid-way continued on another node, closed by the router, or left broken because it could not be continued; a
 * late first token hedged on another node. Offsets and timings only, never the text.
 *
 * @param kind        what was done
 * @param fromNode    the node that broke the stream (for a hedge: the node that was late)
 * @param toNode      the node that continued it, or the hedge's node (null when none did)
 * @param tokenOffset output tokens the client had when the node broke it (the seam's position; 0 for a hedge)
 * @param reason      why the node's stream ended ({@code upstream_incomplete}, {@code upstream_stalled}, …) or, for
 *                    {@link Kind#NOT_CONTINUED}, why it could not go on ({@code tool_call_sent}, …); for a hedge
 *                    {@code slow_first_token}
 * @param addedMillis time from the break to the continuation's first token reaching the client (0 when none); for a
 *                    hedge, the hedge delay
 */
public record Recovery(Kind kind, String fromNode, String toNode, int tokenOffset, String reason, long addedMillis) {

    /** What the router did with a stream broken mid-way. */
    public enum Kind {
        /** Continued on {@code toNode} from the text sent, spliced into the client's stream. */
        CONTINUED,
        /** The node broke off after its last token and stop reason: the router ended the stream itself. */
        CLOSED,
        /** Not continued (policy off, nothing it can continue, no node left): the stream ended with an error event. */
        NOT_CONTINUED,
        /** The first token was late: the hedge's node answered first and served (the late node cancelled). */
        HEDGE_WON,
        /** The first token was late and hedged, but the late node still answered first (the hedge cancelled). */
        HEDGE_LOST
    }
}
