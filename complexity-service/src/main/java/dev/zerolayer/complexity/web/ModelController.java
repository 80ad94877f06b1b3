package dev.zerolayer.complexity.web;

import dev.zerolayer.complexity.config.ComplexityProperties;
import dev.zerolayer.complexity.model.ActiveModel;
import dev.zerolayer.complexity.model.ModelUploads;
import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.platform.admin.AdminGuard;
import dev.zerolayer.platform.admin.AdminGuard.AdminPrincipal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code GET /v1/complexity/model}: the active model in its event form; {@code PUT /v1/complexity/model} (admin token):
 * a new model, validated and published on {@code complexity.model.v1}, answered once it is active.
 */
@RestController
public class ModelController {

    private final ActiveModel active;
    private final ModelUploads uploads;
    private final AdminGuard guard;
    private final ComplexityProperties properties;

    public ModelController(ActiveModel active, ModelUploads uploads, AdminGuard guard,
            ComplexityProperties properties) {
        this.active = active;
        this.uploads = uploads;
        this.guard = guard;
        this.properties = properties;
    }

    @GetMapping("/v1/complexity/model")
    public ResponseEntity<byte[]> model() {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(EventCodec.encode(active.model()));
    }

    @PutMapping("/v1/complexity/model")
    public Mono<Map<String, Object>> upload(
            @RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            ServerHttpRequest request) {
        AdminPrincipal principal = guard.require(authorization);
        return RequestBodies.read(request, properties.maxBodySize().toBytes())
                .publishOn(Schedulers.boundedElastic())
                .map(body -> {
                    ModelUploads.Result result = uploads.upload(body, principal);
                    Map<String, Object> answer = new LinkedHashMap<>();
                    answer.put("modelVersion", result.modelVersion());
                    answer.put("previousVersion", result.previousVersion());
                    answer.put("sanityAuc", result.sanityAuc());
                    answer.put("publishedBy", result.publishedBy());
                    return answer;
                });
    }
}
