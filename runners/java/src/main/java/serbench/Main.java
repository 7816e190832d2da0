package serbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code java -jar serbench-runner.jar describe|run}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    // Events own stdout; anything a library prints goes to stderr.
    PrintStream events =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    Runner runner = new Runner(events);
    String cmd = args.length > 0 ? args[0] : "";
    if (cmd.equals("describe")) {
      runner.describe();
      System.exit(0);
    }
    if (!cmd.equals("run")) {
      System.err.println("usage: java -jar serbench-runner.jar describe|run");
      System.exit(2);
    }
    JsonNode req;
    try {
      byte[] in = System.in.readAllBytes();
      req = new ObjectMapper().readTree(in);
      if (req == null || !req.isObject()) {
        throw new IllegalArgumentException("the request is not a JSON object");
      }
    } catch (Exception e) {
      Map<String, Object> err = new LinkedHashMap<>();
      err.put("event", "error");
      err.put("code", "bad_request");
      err.put("message", String.valueOf(e.getMessage()));
      runner.emit(err);
      System.exit(2);
      return;
    }
    int status = runner.run(req);
    events.flush();
    System.exit(status);
  }
}
