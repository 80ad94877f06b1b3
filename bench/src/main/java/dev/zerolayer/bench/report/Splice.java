package dev.zerolayer.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Replaces the text between {@code <!-- bench:NAME begin -->} and {@code <!-- bench:NAME end -->} in a Markdown file
 * with a generated file's content, so a report keeps its prose and takes its tables from the last run. Usage:
 * {@code Splice docs/benchmarks.md NAME=file [NAME=file ...]}; a missing marker is an error naming it.
 */
public final class Splice {

    private Splice() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: Splice <markdown> NAME=file ...");
        }
        Path target = Path.of(args[0]);
        String text = Files.readString(target, StandardCharsets.UTF_8);
        for (int i = 1; i < args.length; i++) {
            String[] pair = args[i].split("=", 2);
            Path source = Path.of(pair[1]);
            String prefix = target.toAbsolutePath().getParent().relativize(source.toAbsolutePath().getParent())
                    .toString();
            text = splice(text, pair[0], rebase(Files.readString(source, StandardCharsets.UTF_8), prefix));
        }
        Files.writeString(target, text, StandardCharsets.UTF_8);
    }

    /**
     * Relative Markdown link targets ({@code ](x)}) prefixed with {@code prefix}, so links of a generated file keep
     * working from the file it is spliced into; absolute paths, URLs and anchors stay as they are.
     */
    public static String rebase(String markdown, String prefix) {
        if (prefix.isEmpty()) {
            return markdown;
        }
        return java.util.regex.Pattern.compile("\\]\\((?!https?:|/|#)([^)]+)\\)").matcher(markdown)
                .replaceAll(m -> java.util.regex.Matcher.quoteReplacement("](" + prefix + "/" + m.group(1) + ")"));
    }

    /** The text with the named block's content replaced by {@code content}. */
    public static String splice(String text, String name, String content) {
        String begin = "<!-- bench:" + name + " begin -->";
        String end = "<!-- bench:" + name + " end -->";
        int b = text.indexOf(begin);
        int e = text.indexOf(end);
        if (b < 0 || e < b) {
            throw new IllegalArgumentException("no block " + begin + " … " + end);
        }
        String body = content.endsWith("\n") ? content : content + "\n";
        return text.substring(0, b + begin.length()) + "\n" + body + text.substring(e);
    }
}
