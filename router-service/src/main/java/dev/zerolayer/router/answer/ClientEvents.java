package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.codec.EventCodec;
import dev.zerolayer.router.wire.ClientApi;
import dev.zerolayer.router.wire.SseEvent;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client's side of one streamed answer: {@link AnswerEvent}s written in the client's API (Anthropic events, Chat
 * Completions chunks ending in {@code [DONE]}, Responses events), one writer per request, so a continuation on another
 * node goes on where the broken attempt left the client.
 */
public final class ClientEvents {

    private static final byte[] DONE = new SseEvent(null, "[DONE]").bytes();

    private final ClientApi api;
    private final AnthropicSseWriter anthropic;
    private final ChatChunkWriter chat;
    private final ResponsesWriter responses;
    private final boolean clientWantsUsage;
    /** Whether this writer began the stream (else a node's own bytes did, passed on). */
    private boolean began;

    ClientEvents(ClientApi api, String model, Supplier<ObjectNode> debug, boolean clientWantsUsage,
            Supplier<ResponsesWriter> responses) {
        this.api = api;
        this.clientWantsUsage = clientWantsUsage;
        this.anthropic = api == ClientApi.ANTHROPIC ? new AnthropicSseWriter(model, debug) : null;
        this.chat = api == ClientApi.OPENAI ? new ChatChunkWriter(model, debug) : null;
        this.responses = api == ClientApi.RESPONSES ? responses.get() : null;
    }

    /** The client's bytes for one event (none for an event the client does not see). */
    public byte[] write(AnswerEvent event) {
        began |= event instanceof AnswerEvent.Start;
        return switch (api) {
            case ANTHROPIC -> anthropic.write(event);
            case OPENAI -> chatChunks(chat.write(event), event instanceof AnswerEvent.Stop
                    || event instanceof AnswerEvent.Failure);
            case RESPONSES -> events(responses.write(event));
            case COMPLETIONS -> throw new IllegalStateException("legacy completions are never translated");
        };
    }

    /** The API's error ending the stream: the node's error object when it sent one, else {@code message}. */
    public byte[] failure(ObjectNode nodeError, String message) {
        return switch (api) {
            case ANTHROPIC -> AnthropicSseWriter.error(nodeError != null ? nodeError : EventCodec.mapper()
                    .createObjectNode().put("type", "overloaded_error").put("message", message));
            case OPENAI, COMPLETIONS -> ChatPassThrough.errorChunk(nodeError != null
                    ? nodeError.path("message").asString(message) : message);
            case RESPONSES -> events(responses.failed(nodeError != null ? nodeError.path("message").asString(message)
                    : message));
        };
    }

    /** The end of a stream whose stop reason the client already got: the end event, or {@code [DONE]}. */
    public byte[] close() {
        return switch (api) {
            case ANTHROPIC -> anthropic.write(new AnswerEvent.Stop());
            case OPENAI, COMPLETIONS -> DONE;
            case RESPONSES -> events(responses.write(new AnswerEvent.Stop()));
        };
    }

    /** Goes on with a stream another writer began: chunks carry that stream's id ({@code messageId} as read). */
    void resume(String messageId) {
        if (chat != null && messageId != null && !began) {
            chat.resume(messageId.startsWith("msg_chatcmpl-") ? messageId.substring(4) : messageId);
        }
    }

    private byte[] chatChunks(List<ObjectNode> chunks, boolean last) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        for (ObjectNode chunk : chunks) {
            if (!clientWantsUsage && ChatChunkWriter.usageOnly(chunk)) {
                continue;
            }
            out.writeBytes(new SseEvent(null, EventCodec.mapper().writeValueAsString(chunk)).bytes());
        }
        if (last) {
            out.writeBytes(DONE);
        }
        return out.toByteArray();
    }

    private static byte[] events(List<ObjectNode> events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        for (ObjectNode event : events) {
            out.writeBytes(new SseEvent(event.path("type").asString(""), EventCodec.mapper()
                    .writeValueAsString(event)).bytes());
        }
        return out.toByteArray();
    }
}
