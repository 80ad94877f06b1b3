package dev.zerolayer.router.answer;

import dev.zerolayer.router.wire.ApiException;
import java.net.URI;

/** An {@code item_reference} to an item this replica does not hold but the replica at {@code holder} answered. */
public final class ItemHeldElsewhere extends RuntimeException {

    private final transient URI holder;
    private final transient ApiException unknown;

    ItemHeldElsewhere(URI holder, ApiException unknown) {
        super(unknown.getMessage(), null, false, false);
        this.holder = holder;
        this.unknown = unknown;
    }

    /** The base URL of the replica that answered the item. */
    public URI holder() {
        return holder;
    }

    /** The answer when the holder cannot be reached: the item is unknown here (404). */
    public ApiException unknown() {
        return unknown;
    }
}
