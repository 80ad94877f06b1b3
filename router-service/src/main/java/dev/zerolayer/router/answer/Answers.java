package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import dev.zerolayer.router.wire.ClientApi;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * Picks how a node's stream becomes the client's answer, by the client's API, the node's protocol and whether the
 * client streams: the node's own bytes passed on where the APIs match, else translation through {@link AnswerEvent}s
 * by the request's one {@link ClientEvents}; a continuation is spliced in through the same writer. One per request.
 */
public final class Answers {

    private final ClientApi client;
    private final String model;
    private final Supplier<ObjectNode> debug;
    private final int estimatedInput;
    private final boolean clientWantsUsage;
    private final ObjectNode request;
    private final ItemSink items;
    private final boolean keep;
    private ClientEvents events;

    /**
     * @param client           the client's API
     * @param model            the model the client asked for (every answer names it)
     * @param debug            the {@code debug} object to add (null: none asked)
     * @param estimatedInput   the gateway's input-token count (a translated stream starts with it)
     * @param clientWantsUsage an OpenAI client asked for the usage chunk itself
     * @param request          the client's body (a Responses answer echoes its parameters)
     * @param items            receives each finished Responses output item (for later item references)
     * @param keep             keep what the client got of a stream (a broken one may then go on elsewhere)
     */
    public Answers(ClientApi client, String model, Supplier<ObjectNode> debug, int estimatedInput,
            boolean clientWantsUsage, ObjectNode request, ItemSink items, boolean keep) {
        this.client = client;
        this.model = model;
        this.debug = debug;
        this.estimatedInput = estimatedInput;
        this.clientWantsUsage = clientWantsUsage;
        this.request = request;
        this.items = items;
        this.keep = keep;
    }

    /** Answers that keep nothing for a continuation. */
    public Answers(ClientApi client, String model, Supplier<ObjectNode> debug, int estimatedInput,
            boolean clientWantsUsage, ObjectNode request, ItemSink items) {
        this(client, model, debug, estimatedInput, clientWantsUsage, request, items, false);
    }

    /** A client stream from a node of {@code node}'s protocol. */
    public StreamAnswer stream(UpstreamProtocol node) {
        boolean kept = keep && client != ClientApi.COMPLETIONS;
        if (client.nativeTo(node)) {
            Transcript transcript = kept ? new Transcript(UpstreamDecoder.of(node, estimatedInput)) : null;
            return client == ClientApi.ANTHROPIC ? new AnthropicPassThrough(model, debug, transcript)
                    : new ChatPassThrough(model, debug, clientWantsUsage, transcript);
        }
        return new TranslatedStream(UpstreamDecoder.of(node, estimatedInput), events(),
                kept ? new Transcript(null) : null);
    }

    /** The rest of a broken stream from a node of {@code node}'s protocol, going on from {@code go}. */
    public StreamAnswer continuation(UpstreamProtocol node, Transcript transcript, Transcript.Go go) {
        ClientEvents writer = events();
        writer.resume(transcript.messageId());
        return new Seam(UpstreamDecoder.of(node, estimatedInput), writer, transcript, go);
    }

    private ClientEvents events() {
        if (events == null) {
            events = new ClientEvents(client, model, debug, clientWantsUsage,
                    () -> new ResponsesWriter(request, model, items));
        }
        return events;
    }

    /** A whole client answer from a node of {@code node}'s protocol (kept for a continuation when asked). */
    public WholeAnswer whole(UpstreamProtocol node) {
        boolean kept = keep && client != ClientApi.COMPLETIONS;
        if (client.nativeTo(node) && client != ClientApi.ANTHROPIC) {
            return new ChatWhole(client == ClientApi.COMPLETIONS, model,
                    kept ? new Transcript(UpstreamDecoder.of(node, estimatedInput)) : null);
        }
        UpstreamDecoder decoder = UpstreamDecoder.of(node, estimatedInput);
        Transcript transcript = kept ? new Transcript(null) : null;
        return switch (client) {
            case ANTHROPIC -> EventsWhole.anthropic(decoder, model, transcript);
            case OPENAI -> EventsWhole.chat(decoder, model, transcript);
            case RESPONSES -> EventsWhole.responses(decoder, new ResponsesWriter(request, model, items), transcript);
            case COMPLETIONS -> throw new IllegalStateException("legacy completions are never translated");
        };
    }

    /** The rest of a broken whole answer ({@code broken}, kept) from a node of {@code node}'s protocol. */
    public WholeAnswer continuation(UpstreamProtocol node, WholeAnswer broken, Transcript.Go go) {
        UpstreamDecoder decoder = UpstreamDecoder.of(node, estimatedInput);
        if (broken instanceof ChatWhole chat) {
            return chat.continued(decoder, go);
        }
        return ((EventsWhole) broken).continued(decoder, go);
    }
}
