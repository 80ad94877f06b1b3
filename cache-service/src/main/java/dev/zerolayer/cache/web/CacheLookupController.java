package dev.zerolayer.cache.web;

import dev.zerolayer.cache.lookup.ConversationParser;
import dev.zerolayer.cache.lookup.PrefixLookup;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /v1/cache/lookup}: an Anthropic-style conversation in; its prompt tokens and blocks, and per node the
 * leading blocks held without a gap (best first), out. Bad input is a 400 naming the field.
 */
@RestController
public class CacheLookupController {

    private final PrefixLookup lookup;

    public CacheLookupController(PrefixLookup lookup) {
        this.lookup = lookup;
    }

    @PostMapping("/v1/cache/lookup")
    public PrefixLookup.Result lookup(@RequestBody(required = false) byte[] body) {
        return lookup.lookup(ConversationParser.parse(body));
    }
}
