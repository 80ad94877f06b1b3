package dev.zerolayer.bench.complexity;

import dev.zerolayer.routing.complexity.Conversation;
import dev.zerolayer.routing.complexity.Role;
import dev.zerolayer.routing.complexity.Turn;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The calibration anchors ({@code complexity/anchors.tsv}): target score, category, conversation. */
record Anchors(List<Anchor> all) {

    static final String RESOURCE = "/complexity/anchors.tsv";

    /** One anchor: the score band's centre it should land on, its category and its conversation. */
    record Anchor(double target, String category, Conversation conversation) {
    }

    static Anchors load() {
        try (InputStream in = Anchors.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing " + RESOURCE);
            }
            List<Anchor> anchors = new ArrayList<>();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cols = line.split("\t", 3);
                if (cols.length != 3) {
                    throw new IllegalStateException("anchor line needs target, category, prompt: " + line);
                }
                anchors.add(new Anchor(Double.parseDouble(cols[0]), cols[1], conversation(cols[2])));
            }
            return new Anchors(List.copyOf(anchors));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** " ||| " separates turns, starting with the user and alternating; "\n" is a newline. */
    static Conversation conversation(String text) {
        String[] parts = text.replace("\\n", "\n").split(" \\|\\|\\| ");
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            turns.add(new Turn(i % 2 == 0 ? Role.USER : Role.ASSISTANT, parts[i]));
        }
        return new Conversation("", turns);
    }
}
