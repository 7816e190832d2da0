package serbench.harness;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Whether HotSpot still has compilations running or queued, from its own {@code compilerQueue}
 * diagnostic command (what {@code jcmd <pid> Compiler.queue} prints). The compilation-time counter
 * shows a compilation only once it has finished: on a busy machine the compiler threads get little
 * of the cores, and a method whose optimised version is still queued keeps running its earlier tier
 * with no sign of it in that counter.
 */
public final class CompileQueue {
  private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
  private static final ObjectName DIAGNOSTICS = diagnostics();

  private CompileQueue() {}

  private static ObjectName diagnostics() {
    try {
      ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
      return SERVER.isRegistered(name) ? name : null;
    } catch (JMException e) {
      return null;
    }
  }

  /** Whether this JVM serves the diagnostic command at all (HotSpot does). */
  static boolean available() {
    return DIAGNOSTICS != null;
  }

  /** True when a compilation is running or queued; false when none is or the JVM cannot tell. */
  public static boolean busy() {
    if (DIAGNOSTICS == null) {
      return false;
    }
    try {
      Object report =
          SERVER.invoke(
              DIAGNOSTICS,
              "compilerQueue",
              new Object[] {null},
              new String[] {String[].class.getName()});
      return report instanceof String text && busy(text);
    } catch (JMException e) {
      return false;
    }
  }

  /**
   * Reads the command's report: a "Current compiles:" section (one line per compiler thread at
   * work) and one "... compile queue:" section per compiler, each "Empty" or one line per task.
   */
  static boolean busy(String report) {
    for (String line : report.split("\n")) {
      String text = line.strip();
      if (!text.isEmpty() && !text.endsWith(":") && !text.equals("Empty")) {
        return true;
      }
    }
    return false;
  }
}
