package dev.zerolayer.routing.tokens.template;

/** A template that cannot be parsed or rendered exactly as Python Jinja2 would; carries the template line (0 when unknown). */
public final class TemplateException extends RuntimeException {
    private final int line;

    public TemplateException(String message, int line) {
        super(line > 0 ? message + " (line " + line + ")" : message);
        this.line = line;
    }

    /** The 1-based template line the problem was found on, or 0 when unknown. */
    public int line() {
        return line;
    }
}
