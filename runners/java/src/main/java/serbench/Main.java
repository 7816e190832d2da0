package serbench;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** {@code java -jar serbench-runner.jar describe|serve|transport} (docs/runner-protocol.md). */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    // Replies own stdout; anything a library prints goes to stderr.
    PrintStream out =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    String cmd = args.length > 0 ? args[0] : "";
    switch (cmd) {
      case "describe":
        Describe.print(out);
        out.flush();
        System.exit(0);
        break;
      case "serve":
        new Server(out).serve(System.in);
        out.flush();
        System.exit(0);
        break;
      case "transport":
        System.exit(new Transport(out).run(System.in));
        break;
      default:
        System.err.println("usage: java -jar serbench-runner.jar describe|serve|transport");
        System.exit(2);
    }
  }
}
