package dev.zerolayer.telemetry.registry;

import dev.zerolayer.contracts.telemetry.NodeRegistration;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A registration is accepted only with an absolute upstream URL of an allowed scheme and host (no user info, query or
 * fragment), a tokenizer location (when it declares one) that is a path or a URL of the same allowed schemes and hosts
 * (the router fetches it), a tier the policy knows, and an id that is new or re-registers with the same upstream.
 */
public final class RegistrationValidator {

    private final List<String> schemes;
    private final List<String> hosts;

    public RegistrationValidator(List<String> schemes, List<String> hosts) {
        this.schemes = schemes.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
        this.hosts = hosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
    }

    /** The reason the registration is refused, or empty when it is accepted. */
    public Optional<String> problem(NodeRegistration registration, Collection<String> knownTiers,
            Optional<NodeRegistration> existing) {
        URI uri;
        try {
            uri = URI.create(registration.upstreamBaseUrl());
        } catch (IllegalArgumentException e) {
            return Optional.of("upstream URL is not a valid URI");
        }
        if (uri.getScheme() == null || !schemes.contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
            return Optional.of("upstream URL scheme not allowed");
        }
        if (uri.getHost() == null) {
            return Optional.of("upstream URL has no host");
        }
        if (!hosts.contains("*") && !hosts.contains(uri.getHost().toLowerCase(Locale.ROOT))) {
            return Optional.of("upstream host not on the allow-list");
        }
        if (uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            return Optional.of("upstream URL must not carry credentials, a query or a fragment");
        }
        if (registration.prefixCache() != null && registration.prefixCache().tokenizer() != null) {
            Optional<String> tokenizer = tokenizerProblem(registration.prefixCache().tokenizer());
            if (tokenizer.isPresent()) {
                return tokenizer;
            }
        }
        if (!knownTiers.contains(registration.tier())) {
            return Optional.of("unknown tier '" + registration.tier() + "'");
        }
        if (existing.isPresent() && !sameNode(existing.get(), registration)) {
            return Optional.of("node id already registered with another upstream, tier or cluster");
        }
        return Optional.empty();
    }

    /** A tokenizer URL is held to the upstream rules (the router fetches it); a path is read by the router itself. */
    private Optional<String> tokenizerProblem(String location) {
        String lower = location.trim().toLowerCase(Locale.ROOT);
        if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
            return lower.contains("://") ? Optional.of("tokenizer location scheme not allowed") : Optional.empty();
        }
        URI uri;
        try {
            uri = URI.create(location.trim());
        } catch (IllegalArgumentException e) {
            return Optional.of("tokenizer URL is not a valid URI");
        }
        if (!schemes.contains(uri.getScheme().toLowerCase(Locale.ROOT)) || uri.getHost() == null
                || !hosts.contains("*") && !hosts.contains(uri.getHost().toLowerCase(Locale.ROOT))) {
            return Optional.of("tokenizer URL's scheme or host not on the allow-list");
        }
        if (uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            return Optional.of("tokenizer URL must not carry credentials, a query or a fragment");
        }
        return Optional.empty();
    }

    private static boolean sameNode(NodeRegistration a, NodeRegistration b) {
        return a.upstreamBaseUrl().equals(b.upstreamBaseUrl()) && a.tier().equals(b.tier())
                && a.cluster().equals(b.cluster());
    }
}
