package dev.zerolayer.deploy.dashboard;

import dev.zerolayer.deploy.repo.Repo;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The Grafana dashboard file: its panels, their PromQL expressions, and the metric names those expressions read. */
final class Dashboard {

    static final String FILE = "deploy/grafana/zerolayer.json";

    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    private Dashboard() {
    }

    static JsonNode load() {
        return JsonMapper.builder().build().readTree(Repo.read(FILE));
    }

    /** Every non-row panel, flattened (row panels may nest panels). */
    static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            if ("row".equals(panel.path("type").asString())) {
                panel.path("panels").forEach(panels::add);
            } else {
                panels.add(panel);
            }
        }
        return panels;
    }

    static List<String> expressions(JsonNode panel) {
        List<String> expressions = new ArrayList<>();
        panel.path("targets").forEach(t -> expressions.add(t.path("expr").asString()));
        return expressions;
    }

    /** The metric (sample) names a PromQL expression reads: identifiers that are not functions, keywords or labels. */
    static Set<String> metricNames(String expression) {
        String text = expression.replaceAll("\\{[^}]*}", " ")      // label matchers
                .replaceAll("\\[[^]]*]", " ")                      // range selectors
                .replaceAll("\\$__\\w+", " ")                      // Grafana variables
                .replaceAll("\"[^\"]*\"", " ");
        text = GROUPING.matcher(text).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(text);
        while (m.find()) {
            String word = m.group();
            int next = m.end();
            while (next < text.length() && text.charAt(next) == ' ') {
                next++;
            }
            boolean function = next < text.length() && text.charAt(next) == '(';
            if (!function && !KEYWORDS.contains(word.toLowerCase())) {
                names.add(word);
            }
        }
        return names;
    }

    static Set<String> allMetricNames(JsonNode dashboard) {
        Set<String> names = new LinkedHashSet<>();
        panels(dashboard).forEach(p -> expressions(p).forEach(e -> names.addAll(metricNames(e))));
        return names;
    }
}
