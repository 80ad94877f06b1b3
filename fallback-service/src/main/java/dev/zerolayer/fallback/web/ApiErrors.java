package dev.zerolayer.fallback.web;

import dev.zerolayer.fallback.policy.PolicyRejectedException;
import dev.zerolayer.fallback.policy.PolicyStoreException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ResponseStatusException;

/**
 * Every refusal of this service's API in the error shape {@code {"type":"error","error":{"type","message"}}}; a
 * refused policy also lists each violation as {@code {"field": <JSON pointer>, "message"}}. Never a stack trace.
 */
@RestControllerAdvice
public class ApiErrors {

    @ExceptionHandler(PolicyRejectedException.class)
    public ResponseEntity<Map<String, Object>> rejected(PolicyRejectedException e) {
        List<Map<String, String>> fields = e.violations().stream()
                .map(v -> Map.of("field", v.pointer(), "message", v.message())).toList();
        return body(400, "invalid_request_error", e.getMessage(), fields);
    }

    @ExceptionHandler(PolicyStoreException.class)
    public ResponseEntity<Map<String, Object>> store(PolicyStoreException e) {
        return body(e.status(), e.type(), e.getMessage(), null);
    }

    @ExceptionHandler(ApiException.class)
    public ResponseEntity<Map<String, Object>> api(ApiException e) {
        return body(e.status(), e.type(), e.getMessage(), null);
    }

    @ExceptionHandler(DataBufferLimitException.class)
    public ResponseEntity<Map<String, Object>> tooLarge(DataBufferLimitException e) {
        return body(413, "request_too_large", "the request body is too large", null);
    }

    @ExceptionHandler(ResponseStatusException.class)
    public ResponseEntity<Map<String, Object>> status(ResponseStatusException e) {
        int status = e.getStatusCode().value();
        String type = status == 404 ? "not_found_error" : status >= 500 ? "api_error" : "invalid_request_error";
        String reason = e.getReason() == null ? HttpStatus.valueOf(status).getReasonPhrase() : e.getReason();
        if (e.getCause() instanceof DataBufferLimitException) {
            return tooLarge((DataBufferLimitException) e.getCause());
        }
        return body(status, type, reason, null);
    }

    static ResponseEntity<Map<String, Object>> body(int status, String type, String message,
            List<Map<String, String>> fields) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("type", type);
        error.put("message", message);
        if (fields != null) {
            error.put("errors", fields);
        }
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("type", "error", "error", error));
    }
}
