package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * One end of an edge to write ({@link EdgeInput#source()}, {@link EdgeInput#target()}): an
 * asset by its id (a former id, an alias, names the asset it was merged into), sent as a JSON
 * string, or a {@link Dataset}, sent as {@code {"namespace", "name"}}, which names the asset
 * holding that dataset.
 */
public sealed interface EdgeEnd permits EdgeEnd.AssetId, Dataset {

  /** The asset with this id. */
  static EdgeEnd asset(String id) {
    return new AssetId(id);
  }

  /** The asset holding this dataset. */
  static EdgeEnd dataset(String namespace, String name) {
    return new Dataset(namespace, name);
  }

  /** An asset by its id; written as the bare id string. */
  record AssetId(@JsonValue String id) implements EdgeEnd {
    @Override
    public String toString() {
      return id;
    }
  }
}
