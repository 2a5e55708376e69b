package dev.governance.client;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The one ObjectMapper: unknown fields ignored (v1 grows only by addition), unknown enum
 * values read as null, timestamps (RFC 3339) as {@link Instant} without the jsr310 module.
 */
final class Json {
  static final ObjectMapper MAPPER = create();

  private Json() {}

  private static ObjectMapper create() {
    SimpleModule time = new SimpleModule("governance-time");
    time.addSerializer(Instant.class, new InstantSerializer());
    time.addDeserializer(Instant.class, new InstantDeserializer());
    return new ObjectMapper()
        .registerModule(time)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
  }

  static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot serialise request body: " + e.getOriginalMessage(), e);
    }
  }

  static <T> T read(byte[] body, JavaType type) throws IOException {
    return MAPPER.readValue(body, type);
  }

  private static final class InstantSerializer extends JsonSerializer<Instant> {
    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      gen.writeString(value.toString());
    }
  }

  private static final class InstantDeserializer extends JsonDeserializer<Instant> {
    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
      if (p.currentToken() != JsonToken.VALUE_STRING) {
        return (Instant) ctx.handleUnexpectedToken(Instant.class, p);
      }
      String text = p.getText();
      try {
        return OffsetDateTime.parse(text).toInstant();
      } catch (DateTimeParseException e) {
        return (Instant) ctx.handleWeirdStringValue(Instant.class, text, "not an RFC 3339 time");
      }
    }
  }
}
