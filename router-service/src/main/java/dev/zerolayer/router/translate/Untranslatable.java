package dev.zerolayer.router.translate;

/**
 * A request field that a node speaking the other API cannot be given with its meaning intact: the field's path in the
 * client's body and why. The request then goes only to nodes that speak the client's API.
 */
public class Untranslatable extends RuntimeException {

    private final String field;

    public Untranslatable(String field, String reason) {
        super(reason, null, false, false);
        this.field = field;
    }

    /** The field's path in the client's body, e.g. {@code messages.2.content.0.type} or {@code tools.1}. */
    public String field() {
        return field;
    }

    /** The client's message: the field and why it cannot be carried to a node of {@code target}. */
    public String describe(String target) {
        return "'" + field + "' cannot be carried to a node speaking the " + target + " API (" + getMessage() + ")";
    }
}
