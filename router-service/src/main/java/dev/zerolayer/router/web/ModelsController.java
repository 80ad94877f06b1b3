package dev.zerolayer.router.web;

import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.router.auth.ApiKeyAuthenticator;
import dev.zerolayer.router.models.ModelCatalogue;
import dev.zerolayer.router.models.ModelCatalogue.ServedModel;
import dev.zerolayer.router.wire.ApiException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/models} and {@code GET /v1/models/{id}}: the served model aliases and their tiers, in the shape of the
 * API the client speaks: Anthropic's (paged list, {@code type}, {@code display_name}, {@code created_at}) for a client
 * that sends {@code anthropic-version}, as Anthropic's SDKs do, else OpenAI's ({@code object}, integer
 * {@code created}, {@code owned_by}); an unknown id is that API's 404.
 */
@RestController
public class ModelsController {

    private final ModelCatalogue catalogue;
    private final ApiKeyAuthenticator authenticator;

    public ModelsController(ModelCatalogue catalogue, ApiKeyAuthenticator authenticator) {
        this.catalogue = catalogue;
        this.authenticator = authenticator;
    }

    /** Whether a request comes from an Anthropic client (it names the Messages API version). */
    static boolean anthropicClient(HttpHeaders headers) {
        return headers.containsHeader("anthropic-version");
    }

    /** The list needs the same credentials as every client API (401 without a valid key when keys are configured). */
    @GetMapping("/v1/models")
    public Map<String, Object> models(ServerHttpRequest request,
            @RequestParam(name = "limit", required = false) Integer limit,
            @RequestParam(name = "after_id", required = false) String afterId,
            @RequestParam(name = "before_id", required = false) String beforeId) {
        authenticate(request);
        List<ServedModel> models = catalogue.models();
        Map<String, Object> body = new LinkedHashMap<>();
        if (!anthropicClient(request.getHeaders())) {
            body.put("object", "list");
            body.put("data", models.stream().map(ModelsController::openAi).toList());
            return body;
        }
        int size = limit == null ? 20 : limit;
        if (size < 1 || size > 1000) {
            throw ApiException.invalid("limit: Input should be between 1 and 1000");
        }
        int from = 0;
        int to = models.size();
        if (afterId != null) {
            from = indexOf(models, afterId) + 1;
        } else if (beforeId != null) {
            to = indexOf(models, beforeId);
            from = Math.max(0, to - size);
        }
        List<ServedModel> page = models.subList(from, Math.min(to, from + size));
        List<Map<String, Object>> data = new ArrayList<>();
        page.forEach(model -> data.add(anthropic(model)));
        body.put("data", data);
        body.put("has_more", afterId != null || beforeId == null ? from + page.size() < models.size() : from > 0);
        body.put("first_id", page.isEmpty() ? null : page.get(0).id());
        body.put("last_id", page.isEmpty() ? null : page.get(page.size() - 1).id());
        return body;
    }

    @GetMapping("/v1/models/{id}")
    public Map<String, Object> model(ServerHttpRequest request, @PathVariable("id") String id) {
        authenticate(request);
        boolean anthropic = anthropicClient(request.getHeaders());
        return catalogue.models().stream().filter(model -> model.id().equals(id)).findFirst()
                .map(model -> anthropic ? anthropic(model) : openAi(model))
                .orElseThrow(() -> anthropic ? new ApiException(404, "not_found_error", "model: " + id)
                        : new ApiException(404, "not_found_error", "The model `" + id
                                + "` does not exist or you do not have access to it."));
    }

    private void authenticate(ServerHttpRequest request) {
        authenticator.authenticate(request.getHeaders().getFirst(ZeroLayerHeaders.API_KEY),
                request.getHeaders().getFirst(ZeroLayerHeaders.AUTHORIZATION), request.getRemoteAddress());
    }

    private static int indexOf(List<ServedModel> models, String id) {
        for (int i = 0; i < models.size(); i++) {
            if (models.get(i).id().equals(id)) {
                return i;
            }
        }
        throw ApiException.invalid("no model with id '" + id + "' to page from");
    }

    private static Map<String, Object> anthropic(ServedModel model) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("type", "model");
        entry.put("id", model.id());
        entry.put("display_name", model.displayName());
        entry.put("created_at", model.since().toString());
        entry.put("tier", model.tier());
        return entry;
    }

    private static Map<String, Object> openAi(ServedModel model) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", model.id());
        entry.put("object", "model");
        entry.put("created", model.since().getEpochSecond());
        entry.put("owned_by", "zerolayer");
        entry.put("tier", model.tier());
        return entry;
    }
}
