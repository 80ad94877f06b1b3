package dev.zerolayer.router.dispatch;

/**
 * An upstream attempt that failed: {@code bypassable} failures (connect refused, 5xx, 529, 429, 408, time limit, broken
 * or oversized response, open breaker, full bulkhead) send the request to the next node; others (a 4xx verdict on the
 * request itself) go back to the client with the upstream status and body.
 */
public class UpstreamFailure extends RuntimeException {

    private final int status;
    private final boolean bypassable;
    private final byte[] body;
    private final String reason;

    public UpstreamFailure(String reason, int status, boolean bypassable, byte[] body) {
        super(reason, null, false, false);
        this.reason = reason;
        this.status = status;
        this.bypassable = bypassable;
        this.body = body == null ? new byte[0] : body;
    }

    public static UpstreamFailure of(String reason) {
        return new UpstreamFailure(reason, 0, true, null);
    }

    /** A non-2xx upstream status: bypassable unless it is a 4xx other than 408 and 429. */
    public static UpstreamFailure status(int status, byte[] body) {
        boolean clientFault = status >= 400 && status < 500 && status != 408 && status != 429;
        return new UpstreamFailure("upstream_http_" + status, status, !clientFault, body);
    }

    /** A short reason for metrics and events (no upstream text). */
    public String reason() {
        return reason;
    }

    public int status() {
        return status;
    }

    public boolean bypassable() {
        return bypassable;
    }

    public byte[] body() {
        return body.clone();
    }
}
