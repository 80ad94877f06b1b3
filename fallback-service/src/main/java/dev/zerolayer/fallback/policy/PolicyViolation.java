package dev.zerolayer.fallback.policy;

/** One reason a policy document is refused: the offending field as a JSON pointer ({@code ""} is the whole document). */
public record PolicyViolation(String pointer, String message) {

    /** A JSON pointer of the given path segments, escaped per RFC 6901. */
    public static String path(Object... segments) {
        StringBuilder out = new StringBuilder();
        for (Object segment : segments) {
            out.append('/').append(String.valueOf(segment).replace("~", "~0").replace("/", "~1"));
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return (pointer.isEmpty() ? "/" : pointer) + ": " + message;
    }
}
