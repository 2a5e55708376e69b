package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.NotFoundException;
import dev.governance.client.model.AssetColumn;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.Column;
import dev.governance.client.model.ColumnMapping;
import dev.governance.client.model.ColumnRef;
import dev.governance.client.model.ColumnTagRule;
import dev.governance.client.model.ColumnTagRuleInput;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.InheritedTag;
import dev.governance.client.model.MappingKind;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Column classification against a running service (see {@link Live}): a tag set on a column is
 * inherited downstream, with the path it came by, until the tag's rule stops it.
 */
class ColumnTagsIT {
  private static GovernanceClient client;

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  @Test
  void aTagIsInheritedWithItsPathUntilItsRuleStopsIt() {
    String p = Live.unique("tags");
    String tag = p + "-pii"; // one tag per test: a tag's rule holds everywhere
    String raw = p + ".raw";
    String mart = p + ".mart";
    try {
      client.assets().create(AssetInput.builder(raw, "raw", "table")
          .addColumn(new Column("email", "text", null, List.of(tag))).build());
      client.assets().create(AssetInput.builder(mart, "mart", "table")
          .addColumn(Column.of("contact", "text")).build());
      client.lineage().create(EdgeInput.of(raw, mart).withColumns(ColumnMapping.of("email", "contact")));

      AssetColumn contact = client.assets().columns(mart).columns().get(0);
      assertEquals("contact", contact.name());
      assertEquals(List.of(), contact.tags());
      // A mapping written without a transformation is of kind unknown, which carries a tag.
      InheritedTag expected =
          new InheritedTag(
              tag,
              new ColumnRef(raw, "email"),
              List.of(
                  new InheritedTag.Step(raw, "email", null),
                  new InheritedTag.Step(mart, "contact", MappingKind.UNKNOWN)));
      assertEquals(List.of(expected), contact.inherited());

      ColumnTagRule rule = client.assets().columnTagRule(tag);
      assertTrue(rule.isDefault());
      assertTrue(rule.stops().contains(MappingKind.MASKING));
      rule = client.assets().putColumnTagRule(tag, ColumnTagRuleInput.stops(MappingKind.UNKNOWN));
      assertFalse(rule.isDefault());
      assertEquals(List.of(MappingKind.UNKNOWN), rule.stops());
      assertEquals(List.of(), client.assets().columns(mart).columns().get(0).inherited());
      client.assets().putColumnTagRule(tag, ColumnTagRuleInput.none());
      assertEquals(List.of(expected), client.assets().columns(mart).columns().get(0).inherited());

      assertThrows(NotFoundException.class, () -> client.assets().columns(p + ".never"));
    } finally {
      Live.cleanUp(client, p);
    }
  }
}
