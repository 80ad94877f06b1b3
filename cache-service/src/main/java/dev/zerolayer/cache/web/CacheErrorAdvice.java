package dev.zerolayer.cache.web;

import dev.zerolayer.cache.lookup.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ServerWebInputException;

/** Refused cache API calls answer in the API error shape {@code {"type":"error","error":{"type","message"}}}. */
@RestControllerAdvice
public class CacheErrorAdvice {

    @ExceptionHandler(InvalidRequestException.class)
    public ResponseEntity<Map<String, Object>> invalid(InvalidRequestException e) {
        return error(HttpStatus.BAD_REQUEST, "invalid_request_error", e.getMessage());
    }

    @ExceptionHandler(DataBufferLimitException.class)
    public ResponseEntity<Map<String, Object>> tooLarge(DataBufferLimitException e) {
        return error(HttpStatus.PAYLOAD_TOO_LARGE, "request_too_large", "request body is too large");
    }

    @ExceptionHandler(ServerWebInputException.class)
    public ResponseEntity<Map<String, Object>> unreadable(ServerWebInputException e) {
        Throwable cause = e.getMostSpecificCause();
        if (cause instanceof DataBufferLimitException) {
            return error(HttpStatus.PAYLOAD_TOO_LARGE, "request_too_large", "request body is too large");
        }
        return error(HttpStatus.BAD_REQUEST, "invalid_request_error", "request body could not be read");
    }

    private static ResponseEntity<Map<String, Object>> error(HttpStatus status, String type, String message) {
        // ordered maps: the fields come out in the documented order every time (Map.of's order varies per JVM)
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("type", type);
        error.put("message", message);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "error");
        body.put("error", error);
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
    }
}
