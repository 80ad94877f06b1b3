package dev.zerolayer.router.api;

import dev.zerolayer.contracts.fallback.PolicyDocument;
import dev.zerolayer.contracts.fallback.RefusalFallback;
import dev.zerolayer.router.state.ActivePolicy;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * The refusal stage of a whole answer, as the key's policy says: off, annotate the refusal, or (retry_next_tier) ask
 * once more on the next tier of the served tier's chain, keeping the first answer when that tier cannot serve or fails.
 */
final class RefusalStage {

    private final ActivePolicy policy;
    private final Deciding deciding;
    private final Dispatching dispatching;

    RefusalStage(ActivePolicy policy, Deciding deciding, Dispatching dispatching) {
        this.policy = policy;
        this.deciding = deciding;
        this.dispatching = dispatching;
    }

    Mono<Dispatching.Answered> apply(Dispatching.Answered answered) {
        Progress.Dispatched dispatched = answered.dispatched();
        if (dispatched.refusal().kind() != Progress.Refusal.Kind.NONE) {
            return Mono.just(answered);
        }
        PolicyDocument document = policy.documentFor(dispatched.keyId());
        RefusalFallback refusal = document.refusalFallback();
        if (refusal.mode() == RefusalFallback.Mode.OFF
                || !Refusals.isRefusal(dispatched.arrival().api(), answered.body())) {
            return Mono.just(answered);
        }
        if (refusal.mode() == RefusalFallback.Mode.ANNOTATE) {
            Refusals.annotate(dispatched.arrival().api(), answered.body(), refusal.prefix());
            return Mono.just(answered.with(Progress.Refusal.ANNOTATED));
        }
        Dispatching.Answered kept = answered.with(Progress.Refusal.KEPT);
        String served = dispatched.tier();
        List<String> chain = document.chains().getOrDefault(served, List.of());
        String next = chain.stream().filter(tier -> !tier.equals(served)).findFirst().orElse(null);
        if (next == null) {
            return Mono.just(kept);
        }
        Progress.Decided retry = deciding.retryOn(dispatched.decided(), next, Progress.Refusal.retried(served, next));
        if (retry == null) {
            return Mono.just(kept);
        }
        return dispatching.whole(retry).onErrorResume(e -> Mono.just(kept));
    }
}
