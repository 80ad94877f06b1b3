package dev.zerolayer.complexity.web;

import dev.zerolayer.complexity.baseline.Baseline;
import dev.zerolayer.complexity.config.ComplexityProperties;
import dev.zerolayer.complexity.scoring.JsonBodies;
import dev.zerolayer.complexity.scoring.ScoreRequest;
import dev.zerolayer.complexity.scoring.Scoring;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code POST /v1/complexity/score}: a batch of conversations to scores, token counts and features under the active
 * model; {@code POST /v1/complexity/baseline}: a prompt set to its score distribution, tier mix and thresholds for a
 * target mix. Bodies are bounded; the work runs off the event loop.
 */
@RestController
public class ScoreController {

    private final Scoring scoring;
    private final Baseline baseline;
    private final ComplexityProperties properties;

    public ScoreController(Scoring scoring, Baseline baseline, ComplexityProperties properties) {
        this.scoring = scoring;
        this.baseline = baseline;
        this.properties = properties;
    }

    @PostMapping("/v1/complexity/score")
    public Mono<Map<String, Object>> score(ServerHttpRequest request) {
        return RequestBodies.read(request, properties.maxBodySize().toBytes())
                .publishOn(Schedulers.boundedElastic())
                .map(body -> {
                    Scoring.Batch batch = scoring.score(
                            ScoreRequest.items(JsonBodies.object(body), properties.maxBatchItems()));
                    Map<String, Object> answer = new LinkedHashMap<>();
                    answer.put("modelVersion", batch.modelVersion());
                    answer.put("tokenizerEncoding", batch.tokenizerEncoding());
                    if (batch.encoder() != null) {
                        answer.put("encoder", batch.encoder());
                    }
                    answer.put("items", batch.items());
                    return answer;
                });
    }

    @PostMapping("/v1/complexity/baseline")
    public Mono<Map<String, Object>> baseline(ServerHttpRequest request) {
        return RequestBodies.read(request, properties.maxBodySize().toBytes())
                .publishOn(Schedulers.boundedElastic())
                .map(body -> baseline.run(JsonBodies.object(body)));
    }
}
