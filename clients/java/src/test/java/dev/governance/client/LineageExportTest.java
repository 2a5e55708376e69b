package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.Direction;
import dev.governance.client.model.ExportFormat;
import dev.governance.client.model.ExportRequest;
import dev.governance.client.model.LineageExport;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Lineage export, scripted: what is asked for, and the file, its name and truncation read back. */
class LineageExportTest {
  private static final String DOT = "digraph lineage {\n  // truncated at 2 assets\n}\n";

  @Test
  void asksForTheFormatAndReadsTheFileItsNameAndTheCut() {
    FakeTransport fake =
        new FakeTransport()
            .then(
                request ->
                    FakeTransport.response(
                        200,
                        DOT,
                        "text/vnd.graphviz; charset=utf-8",
                        "Content-Disposition",
                        "attachment; filename=\"lineage-s3_lake_x.dot\"; "
                            + "filename*=UTF-8''lineage-s3%3A__lake_x.dot",
                        "Lineage-Truncated",
                        "true"));
    ExportRequest request =
        ExportRequest.of(ExportFormat.DOT)
            .withDirection(Direction.UPSTREAM)
            .withDepth(3)
            .withLimit(2)
            .withAsOf(Instant.parse("2026-11-01T12:00:00.123456Z"));
    Response<LineageExport> answer =
        VectorsTest.client(fake)
            .lineage()
            .exportWithResponse("s3://lake/x", request, RequestOptions.DEFAULTS);
    assertEquals(new LineageExport(DOT, "lineage-s3:__lake_x.dot", true), answer.value());
    assertEquals(200, answer.status());
    TransportRequest sent = fake.last();
    assertEquals("/api/v1/lineage/s3%3A%2F%2Flake%2Fx/export", sent.uri().getRawPath());
    assertEquals(
        "format=dot&direction=upstream&depth=3&limit=2&as_of=2026-11-01T12%3A00%3A00.123Z",
        sent.uri().getRawQuery());
    assertEquals("text/vnd.graphviz, application/problem+json", sent.header("Accept").orElseThrow());
  }

  @Test
  void withoutBoundsSendsOnlyTheFormatAndReadsAPlainName() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(
                200,
                "[]",
                "Content-Disposition",
                "attachment; filename=\"lineage-a.json\"",
                "Lineage-Truncated",
                "false");
    LineageExport export =
        VectorsTest.client(fake).lineage().export("a", ExportRequest.of(ExportFormat.OPENLINEAGE));
    assertEquals(new LineageExport("[]", "lineage-a.json", false), export);
    assertEquals("format=openlineage", fake.last().uri().getRawQuery());
  }

  @Test
  void anAnswerWithoutTheHeadersIsNotTruncatedAndUnnamed() {
    FakeTransport fake =
        new FakeTransport()
            .then(request -> FakeTransport.response(200, "kind,source\n", "text/csv"));
    LineageExport export =
        VectorsTest.client(fake).lineage().export("a", ExportRequest.of(ExportFormat.CSV));
    assertFalse(export.truncated());
    assertNull(export.filename());
  }

  @Test
  void refusesAMissingFormatOrABadBoundBeforeSending() {
    assertThrows(NullPointerException.class, () -> ExportRequest.of(null));
    assertThrows(
        IllegalArgumentException.class, () -> ExportRequest.of(ExportFormat.DOT).withLimit(0));
    assertThrows(
        IllegalArgumentException.class, () -> ExportRequest.of(ExportFormat.DOT).withDepth(0));
  }

  @Test
  void theServicesRefusalsAreTypedExceptions() {
    FakeTransport fake =
        new FakeTransport().thenProblem(404, "asset_not_found").thenProblem(422, "validation_error");
    LineageService lineage = VectorsTest.client(fake).lineage();
    ExportRequest mermaid = ExportRequest.of(ExportFormat.MERMAID);
    assertThrows(NotFoundException.class, () -> lineage.export("gone", mermaid));
    assertThrows(ValidationException.class, () -> lineage.export("a", mermaid.withLimit(99_999)));
    assertTrue(fake.requests.get(1).uri().getRawQuery().contains("limit=99999"));
  }

  @Test
  void readsTheFileNameAsRfc6266Says() {
    assertEquals("a b.csv", ContentDisposition.filename("attachment; filename*=UTF-8''a%20b.csv"));
    assertEquals("x\"y.dot", ContentDisposition.filename("attachment; filename=\"x\\\"y.dot\""));
    assertEquals(
        "plain.dot",
        ContentDisposition.filename("attachment; filename=plain.dot; filename*=UTF-8''%zz"));
    assertNull(ContentDisposition.filename("attachment"));
    assertNull(ContentDisposition.filename(null));
  }
}
