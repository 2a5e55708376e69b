package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * operations.json maps every operationId of the service to the member that implements it, as a
 * dotted path from {@link GovernanceClient} ({@code "webhooks.create"}: the {@code webhooks()}
 * accessor, then its {@code create} method). Each path must resolve to public methods, so the
 * file cannot name something the client lacks.
 */
class OperationsTest {
  private static JsonNode operations;

  @BeforeAll
  static void load() throws IOException {
    Path path = Path.of(System.getProperty("governance.operations", "operations.json"));
    assertTrue(Files.isRegularFile(path), "operations.json not found at " + path.toAbsolutePath());
    operations = new ObjectMapper().readTree(path.toFile());
  }

  @Test
  void isAFlatObjectOfDottedPaths() {
    assertTrue(operations.isObject(), "operations.json must be one JSON object");
    assertTrue(operations.size() > 0);
    List<String> bad = new ArrayList<>();
    operations.properties().forEach(e -> {
      JsonNode value = e.getValue();
      if (!value.isTextual() || !value.asText().matches("[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)*")) {
        bad.add(e.getKey() + ": " + value);
      }
    });
    assertEquals(List.of(), bad);
  }

  @TestFactory
  Stream<DynamicTest> everyPathIsAPublicMethodOfTheClient() {
    List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
    entries.addAll(operations.properties());
    return entries.stream()
        .map(e -> dynamicTest(e.getKey() + " -> " + e.getValue().asText(), () -> resolve(e.getValue().asText())));
  }

  @TestFactory
  Stream<DynamicTest> everyOperationTakesRequestOptions() {
    List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(operations.properties());
    return entries.stream()
        .map(e -> dynamicTest(e.getKey(), () -> {
          String[] names = e.getValue().asText().split("\\.");
          Class<?> owner = names.length == 1 ? GovernanceClient.class : GovernanceClient.class.getMethod(names[0]).getReturnType();
          String last = names[names.length - 1];
          assertTrue(
              publicMethods(owner).anyMatch(m -> (m.getName().equals(last) || m.getName().equals(last + "WithResponse"))
                  && m.getParameterCount() > 0
                  && m.getParameterTypes()[m.getParameterCount() - 1] == RequestOptions.class),
              owner.getSimpleName() + " has neither " + last + "(..., RequestOptions) nor " + last
                  + "WithResponse(..., RequestOptions)");
        }));
  }

  @Test
  void theVersionSentInTheUserAgentIsThePomVersion() {
    String pomVersion = System.getProperty("governance.version");
    assertTrue(pomVersion != null, "run through Maven, which passes the project version");
    assertEquals(pomVersion, GovernanceClient.VERSION);
  }

  /** Walks the accessors (public, no parameters) to the class that must declare the last name. */
  private static void resolve(String dotted) {
    String[] names = dotted.split("\\.");
    Class<?> owner = GovernanceClient.class;
    for (int i = 0; i < names.length - 1; i++) {
      String name = names[i];
      Optional<Method> accessor =
          publicMethods(owner).filter(m -> m.getName().equals(name) && m.getParameterCount() == 0).findFirst();
      assertTrue(accessor.isPresent(), owner.getSimpleName() + " has no public accessor " + name + "()");
      owner = accessor.get().getReturnType();
    }
    String last = names[names.length - 1];
    Class<?> service = owner;
    assertFalse(
        publicMethods(service).noneMatch(m -> m.getName().equals(last)),
        service.getSimpleName() + " has no public method " + last);
  }

  private static Stream<Method> publicMethods(Class<?> type) {
    return Arrays.stream(type.getMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()))
        .filter(m -> m.getDeclaringClass() != Object.class);
  }
}
