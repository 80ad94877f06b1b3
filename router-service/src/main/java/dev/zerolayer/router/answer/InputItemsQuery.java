package dev.zerolayer.router.answer;

import dev.zerolayer.router.wire.ApiException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One page of {@code GET /v1/responses/{id}/input_items}, as OpenAI's API takes it: {@code limit} 1–100 (20 when not
 * given), {@code order} {@code asc} or {@code desc} (newest first when not given), and the items {@code after} the one
 * with that id in that order.
 */
public record InputItemsQuery(int limit, boolean ascending, String after) {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    /**
     * The page the query parameters ask for.
     *
     * @throws ApiException 400 naming the parameter that is not one the API takes
     */
    public static InputItemsQuery of(Optional<String> limit, Optional<String> order, Optional<String> after) {
        int pageSize = DEFAULT_LIMIT;
        if (limit.isPresent()) {
            try {
                pageSize = Integer.parseInt(limit.get().trim());
            } catch (NumberFormatException e) {
                pageSize = -1;
            }
            if (pageSize < 1 || pageSize > MAX_LIMIT) {
                throw new ApiException(400, "invalid_request_error", "limit: must be an integer from 1 to " + MAX_LIMIT
                        + ", got '" + limit.get() + "'.", "limit", null);
            }
        }
        String direction = order.orElse("desc");
        if (!direction.equals("asc") && !direction.equals("desc")) {
            throw new ApiException(400, "invalid_request_error", "order: must be 'asc' or 'desc', got '" + direction
                    + "'.", "order", null);
        }
        return new InputItemsQuery(pageSize, direction.equals("asc"), after.filter(a -> !a.isEmpty()).orElse(null));
    }

    /**
     * The page of {@code items} (oldest first) this query selects, as the API's list object: {@code data}, {@code
     * first_id}, {@code last_id}, {@code has_more}; an {@code after} that names none of them gives an empty page.
     */
    public ObjectNode page(List<ObjectNode> items) {
        List<ObjectNode> ordered = new ArrayList<>(items);
        if (!ascending) {
            Collections.reverse(ordered);
        }
        int start = 0;
        if (after != null) {
            start = ordered.size();
            for (int k = 0; k < ordered.size(); k++) {
                if (after.equals(ordered.get(k).path("id").asString(""))) {
                    start = k + 1;
                    break;
                }
            }
        }
        ObjectNode list = JsonNodeFactory.instance.objectNode().put("object", "list");
        var data = list.putArray("data");
        int end = Math.min(ordered.size(), start + limit);
        ordered.subList(start, end).forEach(data::add);
        if (data.isEmpty()) {
            list.putNull("first_id");
            list.putNull("last_id");
        } else {
            list.put("first_id", data.get(0).path("id").asString(""));
            list.put("last_id", data.get(data.size() - 1).path("id").asString(""));
        }
        list.put("has_more", end < ordered.size());
        return list;
    }
}
