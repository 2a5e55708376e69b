import dev.governance.client.GovernanceClient;
import dev.governance.client.model.Direction;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.Traversal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The client's overhead over plain java.net.http: a bulk write of 1,000 new edges and a
 * downstream traversal of depth 3, each through the client and through a bare HttpClient with
 * the same body and headers, alternating which goes first, after 3 warm-up runs. Prints one
 * JSON line on stdout; run by bench.sh.
 */
public final class Bench {
  private static final int EDGES = 1_000;
  private static final int WARMUP = 3;

  public static void main(String[] args) throws Exception {
    String url = System.getenv("GOVERNANCE_URL").replaceAll("/+$", "").replaceAll("/api/v1$", "");
    String token = System.getenv("GOVERNANCE_TOKEN");
    String root = System.getenv("BENCH_ROOT");
    String runsText = System.getenv("BENCH_RUNS");
    int runs = runsText == null || runsText.isBlank() ? 21 : Integer.parseInt(runsText.strip());
    String nonce = Long.toString(System.currentTimeMillis(), 36);

    GovernanceClient client = GovernanceClient.builder().baseUrl(url).token(token).build();
    HttpClient plain =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    String api = url + "/api/v1";
    URI bulkUri = URI.create(api + "/lineage/bulk");
    URI traversalUri =
        URI.create(
            api + "/lineage/" + URLEncoder.encode(root, StandardCharsets.UTF_8).replace("+", "%20")
                + "?direction=downstream&depth=3");

    List<Double> bulkClient = new ArrayList<>();
    List<Double> bulkHttp = new ArrayList<>();
    List<Double> travClient = new ArrayList<>();
    List<Double> travHttp = new ArrayList<>();
    for (int run = 0; run < WARMUP + runs; run++) {
      String prefix = "bench-java-" + nonce + "-" + run;
      List<EdgeInput> viaClient = edges(prefix + "-client");
      byte[] viaHttp = body(prefix + "-http");
      Timed clientBulk = () -> client.lineage().bulk(viaClient);
      Timed httpBulk = () -> send(plain, post(bulkUri, token, viaHttp));
      Timed clientTrav = () -> client.lineage().graph(root, Direction.DOWNSTREAM, Traversal.depth(3));
      Timed httpTrav = () -> send(plain, get(traversalUri, token));
      boolean clientFirst = run % 2 == 0;
      double[] bulk = pair(clientFirst, clientBulk, httpBulk);
      double[] trav = pair(clientFirst, clientTrav, httpTrav);
      if (run >= WARMUP) {
        bulkClient.add(bulk[0]);
        bulkHttp.add(bulk[1]);
        travClient.add(trav[0]);
        travHttp.add(trav[1]);
      }
    }
    System.out.println(
        "{\"language\":\"java\",\"bulk\":{\"client_ms\":" + json(bulkClient) + ",\"http_ms\":"
            + json(bulkHttp) + "},\"traversal\":{\"client_ms\":" + json(travClient)
            + ",\"http_ms\":" + json(travHttp) + "}}");
  }

  @FunctionalInterface
  private interface Timed {
    void run() throws Exception;
  }

  /** Both timings in milliseconds, the client's first, measured in the order asked. */
  private static double[] pair(boolean clientFirst, Timed viaClient, Timed viaHttp) throws Exception {
    if (clientFirst) {
      double c = time(viaClient);
      return new double[] {c, time(viaHttp)};
    }
    double h = time(viaHttp);
    return new double[] {time(viaClient), h};
  }

  private static double time(Timed work) throws Exception {
    long start = System.nanoTime();
    work.run();
    return (System.nanoTime() - start) / 1e6;
  }

  private static List<EdgeInput> edges(String prefix) {
    List<EdgeInput> edges = new ArrayList<>(EDGES);
    for (int i = 0; i < EDGES; i++) {
      edges.add(EdgeInput.of(prefix + "-" + i, prefix + "-" + (i + 1)));
    }
    return edges;
  }

  /** The JSON the client sends for {@link #edges}. */
  private static byte[] body(String prefix) {
    StringJoiner json = new StringJoiner(",", "[", "]");
    for (int i = 0; i < EDGES; i++) {
      json.add("{\"source\":\"" + prefix + "-" + i + "\",\"target\":\"" + prefix + "-" + (i + 1) + "\"}");
    }
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static HttpRequest post(URI uri, String token, byte[] body) {
    return headers(HttpRequest.newBuilder(uri), token)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
  }

  private static HttpRequest get(URI uri, String token) {
    return headers(HttpRequest.newBuilder(uri), token).GET().build();
  }

  private static HttpRequest.Builder headers(HttpRequest.Builder builder, String token) {
    return builder
        .version(HttpClient.Version.HTTP_1_1)
        .timeout(Duration.ofSeconds(60))
        .header("Accept", "application/json, application/problem+json")
        .header("User-Agent", "governance-bench-java")
        .header("Authorization", "Bearer " + token);
  }

  private static void send(HttpClient http, HttpRequest request) throws Exception {
    HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() >= 300) {
      throw new IllegalStateException(request.method() + " " + request.uri() + " -> "
          + response.statusCode() + ": " + new String(response.body(), StandardCharsets.UTF_8));
    }
  }

  private static String json(List<Double> values) {
    StringJoiner out = new StringJoiner(",", "[", "]");
    values.forEach(v -> out.add(String.format(java.util.Locale.ROOT, "%.3f", v)));
    return out.toString();
  }
}
