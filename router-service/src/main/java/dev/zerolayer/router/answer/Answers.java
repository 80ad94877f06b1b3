package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.wire.ClientApi;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * Picks how a node's stream becomes the client's answer, by the client's API, the node's protocol and whether the
 * client streams: the node's own bytes passed on where the APIs match, else translation through {@link AnswerEvent}s.
 *
 * @param client           the client's API
 * @param model            the model the client asked for (every answer names it)
 * @param debug            the {@code debug} object to add (null: none asked)
 * @param estimatedInput   the gateway's input-token count (a translated stream starts with it)
 * @param clientWantsUsage an OpenAI client asked for the usage chunk itself
 * @param request          the client's body (a Responses answer echoes its parameters)
 * @param items            receives each finished Responses output item (for later item references)
 */
public record Answers(ClientApi client, String model, Supplier<ObjectNode> debug, int estimatedInput,
        boolean clientWantsUsage, ObjectNode request, Consumer<ObjectNode> items) {

    /** A client stream from a node of {@code node}'s protocol. */
    public StreamAnswer stream(UpstreamProtocol node) {
        if (client.nativeTo(node)) {
            return client == ClientApi.ANTHROPIC ? new AnthropicPassThrough(model, debug)
                    : new ChatPassThrough(model, debug, clientWantsUsage);
        }
        UpstreamDecoder decoder = UpstreamDecoder.of(node, estimatedInput);
        return switch (client) {
            case ANTHROPIC -> TranslatedStream.toAnthropic(decoder, new AnthropicSseWriter(model, debug));
            case OPENAI -> TranslatedStream.toChat(decoder, new ChatChunkWriter(model), clientWantsUsage);
            case RESPONSES -> TranslatedStream.toResponses(decoder, new ResponsesWriter(request, model, items));
            case COMPLETIONS -> throw new IllegalStateException("legacy completions are never translated");
        };
    }

    /** A whole client answer from a node of {@code node}'s protocol. */
    public WholeAnswer whole(UpstreamProtocol node) {
        if (client.nativeTo(node) && client != ClientApi.ANTHROPIC) {
            return new ChatWhole(client == ClientApi.COMPLETIONS, model);
        }
        UpstreamDecoder decoder = UpstreamDecoder.of(node, estimatedInput);
        return switch (client) {
            case ANTHROPIC -> EventsWhole.anthropic(decoder, model);
            case OPENAI -> EventsWhole.chat(decoder, model);
            case RESPONSES -> EventsWhole.responses(decoder, new ResponsesWriter(request, model, items));
            case COMPLETIONS -> throw new IllegalStateException("legacy completions are never translated");
        };
    }
}
