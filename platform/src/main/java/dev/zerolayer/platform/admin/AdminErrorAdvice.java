package dev.zerolayer.platform.admin;

import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Refused admin calls answer in the API error shape {@code {"type":"error","error":{"type","message"}}}. */
@RestControllerAdvice
public class AdminErrorAdvice {

    @ExceptionHandler(AdminDeniedException.class)
    public ResponseEntity<Map<String, Object>> denied(AdminDeniedException e) {
        String type = e.status() == 401 ? "authentication_error" : "permission_error";
        return ResponseEntity.status(HttpStatus.valueOf(e.status()))
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("type", "error", "error", Map.of("type", type, "message", e.getMessage())));
    }
}
