package dev.zerolayer.platform.admin;

import dev.zerolayer.platform.web.ApiException;

/**
 * An admin call refused for its credentials: 401 {@code authentication_error} (none presented) or 403
 * {@code permission_error} (wrong, or admin disabled).
 */
public class AdminDeniedException extends ApiException {

    public AdminDeniedException(int status, String message) {
        super(status, status == 401 ? "authentication_error" : "permission_error", message);
    }
}
