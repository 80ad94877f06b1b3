package dev.zerolayer.router.api;

import dev.zerolayer.contracts.http.ZeroLayerHeaders;
import dev.zerolayer.router.answer.ResponseItems;
import dev.zerolayer.router.auth.ApiKeyAuthenticator;
import dev.zerolayer.router.auth.RateLimits;
import dev.zerolayer.router.state.SessionKeys;
import dev.zerolayer.router.wire.ApiException;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.ClientRequest;
import dev.zerolayer.router.wire.RequestParser;
import java.net.InetSocketAddress;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import tools.jackson.databind.node.ObjectNode;

/** The first stages: authenticate and rate-limit the caller, read its body within the limit, parse and validate it. */
final class Intake {

    private final ApiKeyAuthenticator authenticator;
    private final RateLimits rateLimits;
    private final RequestBodies bodies;
    private final ResponseItems responseItems;

    Intake(ApiKeyAuthenticator authenticator, RateLimits rateLimits, RequestBodies bodies,
            ResponseItems responseItems) {
        this.authenticator = authenticator;
        this.rateLimits = rateLimits;
        this.bodies = bodies;
        this.responseItems = responseItems;
    }

    /**
     * The caller's key (or anonymous), within its rate limit (unless a peer replica passed the request on: it counted
     * it), with a valid pin and a JSON content type.
     */
    Progress.Caller authenticate(Progress.Arrival arrival) {
        HttpHeaders headers = arrival.headers();
        String keyId = authenticator.authenticate(headers.getFirst(ZeroLayerHeaders.API_KEY),
                headers.getFirst(ZeroLayerHeaders.AUTHORIZATION), arrival.remote());
        if (!responseItems.fromPeer(headers.getFirst(PeerForwarding.PEER_PROOF))) {
            rateLimits.acquire(keyId);
        }
        String pin = pin(headers);
        checkContentType(headers);
        return new Progress.Caller(arrival, keyId, pin);
    }

    Mono<Progress.Read> read(Progress.Caller caller, HttpServerRequest http) {
        return bodies.read(http).map(bytes -> new Progress.Read(caller, bytes));
    }

    /**
     * The body parsed for the API and mode (a Responses body with its item references resolved).
     *
     * @throws dev.zerolayer.router.answer.ItemHeldElsewhere when another router replica holds a referenced item
     */
    Progress.Parsed parse(Progress.Read read) {
        Progress.Arrival arrival = read.arrival();
        ClientRequest request = parse(arrival.api(), arrival.mode(), read.body(),
                arrival.passedOn(), read.keyId());
        InetSocketAddress remote = arrival.remote();
        String sessionHash = SessionKeys.sessionHash(arrival.headers().getFirst(ZeroLayerHeaders.SESSION_ID),
                request.userId(), read.keyId(), remote == null ? "unknown" : remote.getHostString());
        return new Progress.Parsed(read.caller(), request, sessionHash);
    }

    private ClientRequest parse(ClientApi api, Progress.Mode mode, byte[] bytes, boolean passedOn, String keyId) {
        if (mode == Progress.Mode.COUNT) {
            return RequestParser.anthropic(bytes, false);
        }
        if (api == ClientApi.RESPONSES) {
            ObjectNode body = RequestParser.object(bytes);
            responseItems.resolve(body, passedOn, keyId);
            return RequestParser.responses(body);
        }
        return RequestParser.parse(api, bytes);
    }

    private static String pin(HttpHeaders headers) {
        String pin = headers.getFirst(ZeroLayerHeaders.ROUTING_PRIORITY);
        if (pin == null) {
            return null;
        }
        if (!ZeroLayerHeaders.PRIORITY_VALUES.contains(pin)) {
            throw ApiException.invalid(ZeroLayerHeaders.ROUTING_PRIORITY + " must be one of "
                    + String.join("|", ZeroLayerHeaders.PRIORITY_VALUES));
        }
        return pin;
    }

    private static void checkContentType(HttpHeaders headers) {
        MediaType type;
        try {
            type = headers.getContentType();
        } catch (RuntimeException e) {
            throw new ApiException(415, "invalid_request_error", "unreadable Content-Type; expected application/json");
        }
        if (type != null && !(type.getType().equals("application")
                && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json")))) {
            throw new ApiException(415, "invalid_request_error",
                    "unsupported Content-Type " + type.getType() + "/" + type.getSubtype() + "; expected application/json");
        }
    }
}
