package dev.zerolayer.router.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.router.DecisionStatus;
import dev.zerolayer.contracts.router.RoutingDecision;
import dev.zerolayer.contracts.telemetry.NodeState;
import dev.zerolayer.router.decision.Routed;
import dev.zerolayer.router.dispatch.DispatchTrace;
import dev.zerolayer.router.translate.UpstreamBodies;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;
import dev.zerolayer.router.wire.ForwardedHeaders;
import dev.zerolayer.router.wire.RequestParser;
import dev.zerolayer.routing.decision.DecisionEngine;
import dev.zerolayer.routing.decision.DecisionInput;
import dev.zerolayer.routing.decision.NodeCandidate;
import dev.zerolayer.routing.decision.NodeTraits;
import dev.zerolayer.routing.decision.RouteDecision;
import io.micrometer.tracing.Span;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/** The gateway's stage records: what each stage adds is what the outcome reports, and no stage changes a record. */
class ProgressTest {

    private final Progress.Arrival arrival = new Progress.Arrival(ClientApi.ANTHROPIC, Progress.Mode.DISPATCH,
            "req-1", "trace-1", Span.NOOP, System.nanoTime(), false, true, new HttpHeaders(), null, null,
            new AtomicBoolean());

    @Test
    void aRequestRefusedAtTheDoorIsReportedAnonymousUnreadAndUnrouted() {
        RoutingDecision event = Outcomes.event(arrival, DecisionStatus.REJECTED, 401);

        assertThat(arrival.bodyRead()).isFalse();
        assertThat(event.apiKeyId()).isEqualTo("anonymous");
        assertThat(event.tier()).isNull();
        assertThat(event.nodesTried()).isEmpty();
        assertThat(event.httpStatus()).isEqualTo(401);
    }

    @Test
    void eachStageAddsItsPartAndARefusalRetryIsANewRecordNotAChangedOne() {
        // Given a request read, parsed and decided for haiku
        Progress.Caller caller = new Progress.Caller(arrival, "key-a", null);
        Progress.Read read = new Progress.Read(caller, "{}".getBytes(StandardCharsets.UTF_8));
        ClientRequest request = RequestParser.anthropic(("{\"model\":\"claude-haiku\",\"max_tokens\":16,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").getBytes(StandardCharsets.UTF_8), false);
        Progress.Parsed parsed = new Progress.Parsed(caller, request, "session-1");
        Progress.Decided decided = new Progress.Decided(parsed, routed("haiku"), new UpstreamBodies(request),
                ForwardedHeaders.of(new HttpHeaders()), Progress.Refusal.NONE);
        Progress.Dispatched first = Progress.Dispatched.started(decided, new DispatchTrace());

        // Then every stage reports what it knows
        assertThat(read.bodyRead()).isTrue();
        assertThat(read.keyId()).isEqualTo("key-a");
        assertThat(first.sessionHash()).isEqualTo("session-1");
        assertThat(first.tier()).isEqualTo("haiku");
        assertThat(first.fallbackReason()).isNull();
        RoutingDecision event = Outcomes.event(first, DecisionStatus.OK, 200);
        assertThat(event.apiKeyId()).isEqualTo("key-a");
        assertThat(event.tier()).isEqualTo("haiku");
        assertThat(event.requestedModel()).isEqualTo("claude-haiku");

        // When the answer was a refusal retried on sonnet
        Progress.Decided retry = new Progress.Decided(parsed, routed("sonnet"), decided.upstream(),
                decided.forwarded(), Progress.Refusal.retried("haiku", "sonnet"));
        Progress.Dispatched retried = Progress.Dispatched.started(retry, new DispatchTrace());

        // Then the retry reports the refusal fallback, and the first dispatch is as it was
        assertThat(retried.fallbackReason()).isEqualTo("refusal_fallback");
        assertThat(Outcomes.debug(retried).path("refusal").asString()).isEqualTo("retried:haiku->sonnet");
        assertThat(retried.tier()).isEqualTo("sonnet");
        assertThat(first.refusal()).isEqualTo(Progress.Refusal.NONE);
        assertThat(first.tier()).isEqualTo("haiku");
        assertThat(first.with(Progress.Refusal.KEPT).refusal().wire()).isEqualTo("kept");
        assertThat(first.refusal().wire()).isNull();
    }

    private static Routed routed(String tier) {
        PolicyDocument policy = PolicyDocument.defaults();
        String cluster = policy.tiers().stream().filter(t -> t.name().equals(tier)).findFirst().orElseThrow()
                .clusters().get(0);
        List<NodeCandidate> fleet = List.of(new NodeCandidate(tier + "-a", tier, cluster, NodeState.HEALTHY,
                0.9, 0.1, 0, 8, 0, false, 0, false, NodeTraits.NONE));
        RouteDecision decision = new DecisionEngine().decide(new DecisionInput(100, 0.1, tier, null, 0), fleet,
                policy);
        return new Routed(decision, 100, 0.1, "m1", 1, false, 1_000, null, null);
    }
}
