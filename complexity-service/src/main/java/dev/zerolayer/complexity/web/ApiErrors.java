package dev.zerolayer.complexity.web;

import dev.zerolayer.complexity.model.InvalidModelException;
import dev.zerolayer.complexity.model.ModelUnavailableException;
import dev.zerolayer.complexity.scoring.InvalidInputException;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Refusals of the complexity APIs in the API error shape: 400 invalid input or model, 413 too large, 503 not now. */
@RestControllerAdvice
public class ApiErrors {

    static ResponseEntity<Map<String, Object>> error(HttpStatus status, String type, String message) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("type", "error", "error", Map.of("type", type, "message", message)));
    }

    @ExceptionHandler(InvalidInputException.class)
    public ResponseEntity<Map<String, Object>> invalidInput(InvalidInputException e) {
        return error(HttpStatus.BAD_REQUEST, "invalid_request_error", e.getMessage());
    }

    @ExceptionHandler(InvalidModelException.class)
    public ResponseEntity<Map<String, Object>> invalidModel(InvalidModelException e) {
        return error(HttpStatus.BAD_REQUEST, "invalid_request_error", e.getMessage());
    }

    @ExceptionHandler(BodyTooLargeException.class)
    public ResponseEntity<Map<String, Object>> tooLarge(BodyTooLargeException e) {
        return error(HttpStatus.PAYLOAD_TOO_LARGE, "request_too_large", e.getMessage());
    }

    @ExceptionHandler(ModelUnavailableException.class)
    public ResponseEntity<Map<String, Object>> unavailable(ModelUnavailableException e) {
        return error(HttpStatus.SERVICE_UNAVAILABLE, "api_error", e.getMessage());
    }
}
