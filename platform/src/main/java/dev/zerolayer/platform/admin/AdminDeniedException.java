package dev.zerolayer.platform.admin;

/** An admin call refused for its credentials: 401 (none presented) or 403 (wrong, or admin disabled). */
public class AdminDeniedException extends RuntimeException {

    private final int status;

    public AdminDeniedException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
