package dev.zerolayer.fallback.web;

import dev.zerolayer.contracts.fallback.FallbackPolicy;
import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.fallback.dryrun.DryRun;
import dev.zerolayer.fallback.dryrun.RecentDecisions;
import dev.zerolayer.fallback.policy.HistoryEntry;
import dev.zerolayer.fallback.policy.PolicyChange;
import dev.zerolayer.fallback.policy.PolicyDiff;
import dev.zerolayer.fallback.policy.PolicyFormat;
import dev.zerolayer.fallback.policy.PolicyReader;
import dev.zerolayer.fallback.policy.PolicySchema;
import dev.zerolayer.fallback.policy.PolicyStore;
import dev.zerolayer.platform.admin.AdminGuard;
import dev.zerolayer.platform.admin.AdminGuard.AdminPrincipal;
import dev.zerolayer.platform.web.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The policy admin API: read the active policy (ETag = version) as JSON or YAML; replace it (admin token, If-Match
 * required: 428 without, 412 when stale) or dry-run a replacement against the latest decisions; the audited history;
 * rollback to an earlier version. Changes are published before they are reported done.
 */
@RestController
public class PolicyController {

    private static final ObjectMapper YAML = YAMLMapper.builder().build();

    private final PolicyStore store;
    private final PolicyReader reader;
    private final AdminGuard guard;
    private final RecentDecisions recent;

    public PolicyController(PolicyStore store, PolicyReader reader, AdminGuard guard, RecentDecisions recent) {
        this.store = store;
        this.reader = reader;
        this.guard = guard;
        this.recent = recent;
    }

    @GetMapping("/v1/policy")
    public ResponseEntity<String> get(@RequestHeader(value = HttpHeaders.ACCEPT, required = false) String accept) {
        FallbackPolicy active = store.active();
        return document(active.version(), active.document(), accept);
    }

    @GetMapping(value = "/v1/policy/schema", produces = "application/schema+json")
    public String schema() {
        try (InputStream in = PolicySchema.class.getResourceAsStream(PolicySchema.RESOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @PutMapping("/v1/policy")
    public Mono<ResponseEntity<Map<String, Object>>> put(
            @RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @RequestHeader(value = HttpHeaders.IF_MATCH, required = false) String ifMatch,
            @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String contentType,
            @RequestParam(value = "dryRun", defaultValue = "false") String dryRun,
            @RequestBody(required = false) String body) {
        AdminPrincipal principal = guard.require(authorization);
        boolean dry = flag(dryRun);
        OptionalLong expected = dry && ifMatch == null ? OptionalLong.empty() : expectedVersion(ifMatch);
        PolicyFormat format = PolicyFormat.of(contentType).orElseThrow(() -> new ApiException(415,
                "invalid_request_error", "Content-Type must be application/json or application/yaml (text/yaml), was "
                        + (contentType == null ? "none" : "'" + contentType + "'")));
        FallbackPolicy active = store.active();
        if (expected.isPresent() && expected.getAsLong() != active.version()) {
            throw new ApiException(412, "invalid_request_error", "If-Match: version " + expected.getAsLong()
                    + " is not the active version " + active.version()
                    + "; GET /v1/policy, reapply the change and send its ETag");
        }
        PolicyDocument document = reader.read(body, format);
        if (dry) {
            return Mono.just(ResponseEntity.ok().eTag(etag(active.version())).body(dryRun(active, document)));
        }
        return Mono.fromCallable(() -> applied(store.update(document, principal.id(), expected)))
                .subscribeOn(Schedulers.boundedElastic());
    }

    @PostMapping("/v1/policy/rollback/{version}")
    public Mono<ResponseEntity<Map<String, Object>>> rollback(
            @RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @RequestHeader(value = HttpHeaders.IF_MATCH, required = false) String ifMatch,
            @PathVariable("version") String version) {
        AdminPrincipal principal = guard.require(authorization);
        OptionalLong expected = expectedVersion(ifMatch);
        long target = parseVersion(version, "version");
        return Mono.fromCallable(() -> applied(store.rollback(target, principal.id(), expected)))
                .subscribeOn(Schedulers.boundedElastic());
    }

    @GetMapping("/v1/policy/history")
    public Map<String, Object> history() {
        FallbackPolicy active = store.active();
        List<HistoryEntry> entries = new ArrayList<>(store.history());
        Collections.reverse(entries);
        List<Map<String, Object>> versions = entries.stream().map(PolicyController::summary).toList();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("activeVersion", active.version());
        body.put("versions", versions);
        return body;
    }

    @GetMapping("/v1/policy/history/{version}")
    public ResponseEntity<String> version(@PathVariable("version") String version,
            @RequestHeader(value = HttpHeaders.ACCEPT, required = false) String accept) {
        store.active();
        long wanted = parseVersion(version, "version");
        HistoryEntry entry = store.find(wanted).orElseThrow(() -> new ApiException(404, "not_found_error",
                "version " + wanted + " is not in the policy history"));
        return document(entry.version(), entry.document(), accept);
    }

    private Map<String, Object> dryRun(FallbackPolicy active, PolicyDocument document) {
        DryRun.Report report = DryRun.replay(recent.snapshot(), active.document(), document);
        List<PolicyChange> changes = PolicyDiff.between(PolicyReader.toTree(active.document()),
                PolicyReader.toTree(document));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("dryRun", true);
        body.put("valid", true);
        body.put("activeVersion", active.version());
        body.put("replayed", report.replayed());
        body.put("changedTier", report.changed());
        body.put("transitions", report.transitions());
        body.put("pinsToUnknownTier", report.pinsToUnknownTier());
        body.put("changes", changes);
        return body;
    }

    private static ResponseEntity<Map<String, Object>> applied(PolicyStore.Applied applied) {
        Map<String, Object> body = summary(applied.entry());
        body.put("changed", applied.changed());
        return ResponseEntity.ok().eTag(etag(applied.entry().version())).body(body);
    }

    private static Map<String, Object> summary(HistoryEntry entry) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("version", entry.version());
        body.put("at", entry.at().toString());
        body.put("by", entry.by());
        body.put("action", entry.action().name().toLowerCase(Locale.ROOT));
        if (entry.restoredVersion() != null) {
            body.put("restoredVersion", entry.restoredVersion());
        }
        body.put("changeCount", entry.changes().size());
        body.put("changes", entry.changes());
        return body;
    }

    private static ResponseEntity<String> document(long version, PolicyDocument document, String accept) {
        boolean yaml = accept != null && (accept.contains("yaml"));
        String body = yaml ? YAML.writeValueAsString(PolicyReader.toTree(document))
                : PolicyReader.toTree(document).toString();
        return ResponseEntity.ok().eTag(etag(version))
                .contentType(MediaType.parseMediaType(yaml ? PolicyFormat.YAML.mediaType() : "application/json"))
                .body(body);
    }

    private static String etag(long version) {
        return "\"" + version + "\"";
    }

    /** The version an If-Match names; empty for {@code *} (any current version); 428 when missing. */
    static OptionalLong expectedVersion(String ifMatch) {
        if (ifMatch == null || ifMatch.isBlank()) {
            throw new ApiException(428, "invalid_request_error",
                    "If-Match is required: send the ETag of GET /v1/policy (e.g. If-Match: \"3\")");
        }
        String value = ifMatch.strip();
        if (value.equals("*")) {
            return OptionalLong.empty();
        }
        if (value.startsWith("\"") && value.endsWith("\"") && value.length() >= 2) {
            value = value.substring(1, value.length() - 1);
        }
        return OptionalLong.of(parseVersion(value, "If-Match"));
    }

    private static long parseVersion(String value, String field) {
        try {
            long version = Long.parseLong(value.strip());
            if (version < 1) {
                throw new NumberFormatException();
            }
            return version;
        } catch (NumberFormatException e) {
            throw new ApiException(400, "invalid_request_error", field
                    + " must be a policy version (a positive integer, as in the ETag of GET /v1/policy)");
        }
    }

    private static boolean flag(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "" -> true;
            case "false", "0", "no" -> false;
            default -> throw new ApiException(400, "invalid_request_error", "dryRun must be true or false");
        };
    }
}
