package dev.zerolayer.router.api;

import dev.zerolayer.contracts.codec.EventCodec;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.util.ByteArrayBuilder;

/**
 * A non-streaming answer in the client's own API, copied token by token with its top-level {@code model} set to the
 * requested model (added at the end when missing) and its usage counts read on the way, numbers kept exactly as sent:
 * no tree is built and none serialised again.
 */
public final class PassThroughBody {

    /** The rewritten body and the usage it reported (0 where absent or not a number). */
    public record Rewritten(byte[] body, int inputTokens, int outputTokens) {
    }

    private PassThroughBody() {
    }

    /**
     * @throws ApiException 502 when the upstream sent malformed JSON or no JSON object
     */
    public static Rewritten rewrite(byte[] upstream, ClientApi api, String model) {
        String inputName = api.inputTokensField();
        String outputName = api.outputTokensField();
        int input = 0;
        int output = 0;
        ByteArrayBuilder out = new ByteArrayBuilder(upstream.length + model.length() + 16);
        try (JsonParser parser = EventCodec.mapper().createParser(upstream);
                JsonGenerator generator = EventCodec.mapper().createGenerator(out)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new ApiException(502, "api_error", "the upstream node sent no JSON object");
            }
            generator.copyCurrentEvent(parser);
            boolean modelWritten = false;
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_OBJECT) {
                if (token == null) {
                    throw new ApiException(502, "api_error", "the upstream node sent malformed JSON");
                }
                String name = parser.currentName();
                generator.copyCurrentEvent(parser);
                JsonToken value = parser.nextToken();
                if ("model".equals(name)) {
                    parser.skipChildren();
                    generator.writeString(model);
                    modelWritten = true;
                } else if ("usage".equals(name) && value == JsonToken.START_OBJECT) {
                    generator.copyCurrentEvent(parser);
                    while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                        String field = parser.currentName();
                        generator.copyCurrentEvent(parser);
                        JsonToken count = parser.nextToken();
                        if (field.equals(inputName)) {
                            input = count(parser, count);
                        } else if (field.equals(outputName)) {
                            output = count(parser, count);
                        }
                        generator.copyCurrentStructureExact(parser);
                    }
                    generator.copyCurrentEvent(parser);
                } else {
                    generator.copyCurrentStructureExact(parser);
                }
            }
            if (!modelWritten) {
                generator.writeName("model");
                generator.writeString(model);
            }
            generator.copyCurrentEvent(parser);
            if (parser.nextToken() != null) {
                throw new ApiException(502, "api_error", "the upstream node sent malformed JSON");
            }
        } catch (JacksonException e) {
            throw new ApiException(502, "api_error", "the upstream node sent malformed JSON");
        }
        return new Rewritten(out.toByteArray(), input, output);
    }

    /** An integer count, or 0 (a count that is not an integer within range counts as none, as a tree's asInt). */
    private static int count(JsonParser parser, JsonToken token) {
        if (token == JsonToken.VALUE_NUMBER_INT) {
            try {
                return parser.getIntValue();
            } catch (JacksonException e) {
                return 0;
            }
        }
        if (token == JsonToken.VALUE_STRING) {
            try {
                return Integer.parseInt(parser.getString().trim());
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        if (token == JsonToken.VALUE_NUMBER_FLOAT) {
            return (int) parser.getDoubleValue();
        }
        return 0;
    }
}
