package dev.zerolayer.router.web;

import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.router.auth.ApiKeyAuthenticator;
import dev.zerolayer.router.models.ModelCatalogue;
import dev.zerolayer.router.models.ModelCatalogue.ServedModel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v1/models}: the served model aliases and their tiers, in the Anthropic list-models shape, one page. */
@RestController
public class ModelsController {

    private final ModelCatalogue catalogue;
    private final ApiKeyAuthenticator authenticator;

    public ModelsController(ModelCatalogue catalogue, ApiKeyAuthenticator authenticator) {
        this.catalogue = catalogue;
        this.authenticator = authenticator;
    }

    /** The list needs the same credentials as every client API (401 without a valid key when keys are configured). */
    @GetMapping("/v1/models")
    public Map<String, Object> models(ServerHttpRequest request) {
        authenticator.authenticate(request.getHeaders().getFirst(ZeroLayerHeaders.API_KEY),
                request.getHeaders().getFirst(ZeroLayerHeaders.AUTHORIZATION), request.getRemoteAddress());
        List<ServedModel> models = catalogue.models();
        List<Map<String, Object>> data = new ArrayList<>();
        for (ServedModel model : models) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("type", "model");
            entry.put("id", model.id());
            entry.put("display_name", model.displayName());
            entry.put("created_at", model.since().toString());
            entry.put("tier", model.tier());
            data.add(entry);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("data", data);
        body.put("has_more", false);
        body.put("first_id", models.isEmpty() ? null : models.get(0).id());
        body.put("last_id", models.isEmpty() ? null : models.get(models.size() - 1).id());
        return body;
    }
}
