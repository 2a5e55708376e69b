package dev.governance.client.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code POST /query/cypher}: the {@code columns}, the {@code rows} as lists of
 * values in column order (nodes as maps of {@code element_id}, {@code labels},
 * {@code properties}; values may be null), and whether more rows than the limit existed.
 */
public record CypherResult(List<String> columns, List<List<Object>> rows, boolean truncated) {

  public CypherResult {
    columns = columns == null ? List.of() : List.copyOf(columns);
    rows =
        rows == null
            ? List.of()
            : rows.stream().map(row -> Collections.unmodifiableList(new ArrayList<>(row))).toList();
  }

  /** Each row as a map from column name to value, in column order. */
  public List<Map<String, Object>> records() {
    List<Map<String, Object>> out = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      Map<String, Object> record = new LinkedHashMap<>();
      for (int i = 0; i < columns.size() && i < row.size(); i++) {
        record.put(columns.get(i), row.get(i));
      }
      out.add(Collections.unmodifiableMap(record));
    }
    return out;
  }
}
