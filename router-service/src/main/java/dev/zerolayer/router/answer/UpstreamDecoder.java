package dev.zerolayer.router.answer;

import dev.zerolayer.contracts.telemetry.UpstreamProtocol;
import java.util.List;

/** Reads a node's SSE events (whole, as cut by the framer) as {@link AnswerEvent}s, whatever API the node speaks. */
interface UpstreamDecoder {

    List<AnswerEvent> read(byte[] rawEvent);

    /** Events the end of the upstream stream implies (an OpenAI stream closed after its finish reason). */
    List<AnswerEvent> end();

    static UpstreamDecoder of(UpstreamProtocol protocol, int estimatedInputTokens) {
        if (protocol == UpstreamProtocol.OPENAI) {
            ChatEvents chat = new ChatEvents(estimatedInputTokens);
            return new UpstreamDecoder() {
                @Override
                public List<AnswerEvent> read(byte[] rawEvent) {
                    return chat.read(rawEvent);
                }

                @Override
                public List<AnswerEvent> end() {
                    return chat.end();
                }
            };
        }
        return new UpstreamDecoder() {
            @Override
            public List<AnswerEvent> read(byte[] rawEvent) {
                AnswerEvent event = AnthropicEvents.read(rawEvent);
                return event == null ? List.of() : List.of(event);
            }

            @Override
            public List<AnswerEvent> end() {
                return List.of();
            }
        };
    }
}
