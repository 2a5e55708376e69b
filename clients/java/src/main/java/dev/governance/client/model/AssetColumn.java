package dev.governance.client.model;

import java.util.List;

/**
 * One column of an asset: its {@code type} (null where none is declared), the {@code tags} set on
 * it, and those it {@code inherited} along column lineage, one per tag, by tag.
 */
public record AssetColumn(
    String name, String type, List<String> tags, List<InheritedTag> inherited) {

  public AssetColumn {
    tags = tags == null ? List.of() : List.copyOf(tags);
    inherited = inherited == null ? List.of() : List.copyOf(inherited);
  }
}
