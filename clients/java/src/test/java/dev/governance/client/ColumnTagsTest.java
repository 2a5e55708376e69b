package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.NotFoundException;
import dev.governance.client.model.AssetColumn;
import dev.governance.client.model.AssetColumns;
import dev.governance.client.model.ColumnRef;
import dev.governance.client.model.ColumnTagRule;
import dev.governance.client.model.ColumnTagRuleInput;
import dev.governance.client.model.InheritedTag;
import dev.governance.client.model.MappingKind;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An asset's classified columns and the column tag rules, scripted: paths, bodies, answers. */
class ColumnTagsTest {
  private static final String COLUMNS =
      "{\"asset\":\"mart users\",\"columns\":[{\"name\":\"contact\",\"type\":\"text\",\"tags\":[],"
          + "\"inherited\":[{\"tag\":\"pii\",\"from\":{\"asset\":\"raw.users\",\"column\":\"email\"},"
          + "\"path\":[{\"asset\":\"raw.users\",\"column\":\"email\",\"kind\":null},"
          + "{\"asset\":\"mart users\",\"column\":\"contact\",\"kind\":\"identity\"}]}]},"
          + "{\"name\":\"id\",\"type\":null,\"tags\":[\"key\"],\"inherited\":[]}]}";

  @Test
  void columnsReadsOwnAndInheritedTags() {
    FakeTransport fake = new FakeTransport().thenJson(200, COLUMNS);
    AssetColumns got = VectorsTest.client(fake).assets().columns("mart users");
    assertEquals("GET", fake.last().method());
    assertEquals("/api/v1/assets/mart%20users/columns", fake.last().uri().getRawPath());
    InheritedTag why =
        new InheritedTag(
            "pii",
            new ColumnRef("raw.users", "email"),
            List.of(
                new InheritedTag.Step("raw.users", "email", null),
                new InheritedTag.Step("mart users", "contact", MappingKind.IDENTITY)));
    assertEquals(
        List.of(
            new AssetColumn("contact", "text", List.of(), List.of(why)),
            new AssetColumn("id", null, List.of("key"), List.of())),
        got.columns());
  }

  @Test
  void columnsOfAnUnknownAssetIsNotFound() {
    FakeTransport fake = new FakeTransport().thenProblem(404, "asset_not_found");
    assertThrows(NotFoundException.class, () -> VectorsTest.client(fake).assets().columns("x"));
  }

  @Test
  void aRuleIsReadAndPutUnderItsTag() throws IOException {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(
                200,
                "{\"tag\":\"a/b\",\"stops\":[\"masking\",\"aggregation\",\"indirect\"],"
                    + "\"default\":true,\"updated_at\":null}")
            .thenJson(
                200,
                "{\"tag\":\"a/b\",\"stops\":[\"masking\"],\"default\":false,"
                    + "\"updated_at\":\"2026-11-27T10:00:00.000Z\"}");
    AssetsService assets = VectorsTest.client(fake).assets();
    ColumnTagRule rule = assets.columnTagRule("a/b");
    assertTrue(rule.isDefault());
    assertNull(rule.updatedAt());
    assertEquals(
        List.of(MappingKind.MASKING, MappingKind.AGGREGATION, MappingKind.INDIRECT), rule.stops());
    rule = assets.putColumnTagRule("a/b", ColumnTagRuleInput.stops(MappingKind.MASKING));
    assertFalse(rule.isDefault());
    assertEquals(Instant.parse("2026-11-27T10:00:00Z"), rule.updatedAt());
    TransportRequest get = fake.requests.get(0);
    TransportRequest put = fake.requests.get(1);
    assertEquals("GET /api/v1/column-tags/a%2Fb", get.method() + " " + get.uri().getRawPath());
    assertEquals("PUT /api/v1/column-tags/a%2Fb", put.method() + " " + put.uri().getRawPath());
    assertEquals("{\"stops\":[\"masking\"]}", FakeTransport.jsonOf(put).toString());
  }

  @Test
  void noStopsIsSentAsAnEmptyList() throws IOException {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"tag\":\"t\",\"stops\":[],\"default\":false,\"updated_at\":null}");
    VectorsTest.client(fake).assets().putColumnTagRule("t", ColumnTagRuleInput.none());
    assertEquals("{\"stops\":[]}", FakeTransport.jsonOf(fake.last()).toString());
  }
}
