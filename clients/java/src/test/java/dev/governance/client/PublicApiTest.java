package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a caller sees: no Jackson type anywhere in a public signature (Jackson is how the
 * client reads JSON, not part of its contract), and no operation that takes an optional value
 * as a nullable boxed argument (optional things go in request objects or overloads).
 */
class PublicApiTest {
  private static final Set<Class<?>> BOXED = Set.of(Integer.class, Long.class, Boolean.class, Double.class);

  /** Every public class (nested ones too) the client's jar holds. */
  static List<Class<?>> publicClasses() throws IOException, URISyntaxException, ClassNotFoundException {
    Path root = Path.of(GovernanceClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Class<?>> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
        Class<?> type = Class.forName(name.substring(0, name.length() - ".class".length()));
        if (isVisible(type)) {
          found.add(type);
        }
      }
    }
    return found;
  }

  private static boolean isVisible(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
      if (!Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass() || c.isSynthetic()) {
        return false;
      }
    }
    return true;
  }

  private static boolean isVisible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  @Test
  void noJacksonTypeInAnyPublicSignature() throws Exception {
    List<String> leaks = new ArrayList<>();
    List<Class<?>> classes = publicClasses();
    assertTrue(classes.size() > 50, "found only " + classes.size() + " public classes");
    for (Class<?> type : classes) {
      List<Type> seen = new ArrayList<>();
      if (type.getGenericSuperclass() != null) {
        seen.add(type.getGenericSuperclass());
      }
      seen.addAll(List.of(type.getGenericInterfaces()));
      check(leaks, type.getName() + " extends/implements", seen);
      for (Method m : type.getDeclaredMethods()) {
        if (isVisible(m.getModifiers()) && !m.isSynthetic()) {
          List<Type> types = new ArrayList<>(List.of(m.getGenericParameterTypes()));
          types.add(m.getGenericReturnType());
          types.addAll(List.of(m.getGenericExceptionTypes()));
          check(leaks, type.getName() + "." + m.getName(), types);
        }
      }
      for (Constructor<?> c : type.getDeclaredConstructors()) {
        if (isVisible(c.getModifiers())) {
          check(leaks, type.getName() + ".<init>", List.of(c.getGenericParameterTypes()));
        }
      }
      for (Field f : type.getDeclaredFields()) {
        if (isVisible(f.getModifiers())) {
          check(leaks, type.getName() + "." + f.getName(), List.of(f.getGenericType()));
        }
      }
    }
    assertEquals(List.of(), leaks, "Jackson types in the public API");
  }

  private static void check(List<String> leaks, String where, List<Type> types) {
    for (Type t : types) {
      if (t.getTypeName().contains("com.fasterxml.")) {
        leaks.add(where + ": " + t.getTypeName());
      }
    }
  }

  @Test
  void noOperationTakesAnOptionalValueAsANullableBoxedArgument() throws Exception {
    List<String> nullable = new ArrayList<>();
    for (Class<?> type : publicClasses()) {
      boolean operations =
          type.getPackage().getName().equals("dev.governance.client")
              && (type.getSimpleName().endsWith("Service")
                  || type == GovernanceClient.class
                  || type == EventStream.class
                  || type == PagedIterable.class);
      if (!operations) {
        continue;
      }
      for (Method m : type.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers())) {
          continue;
        }
        for (Class<?> p : m.getParameterTypes()) {
          if (BOXED.contains(p)) {
            nullable.add(type.getSimpleName() + "." + m.getName() + "(" + p.getSimpleName() + ")");
          }
        }
      }
    }
    assertEquals(List.of(), nullable, "optional arguments belong in request objects or overloads");
  }
}
