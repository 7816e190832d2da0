package serbench.harness;

import java.io.InputStream;
import java.util.Properties;

/** Library versions, filled in by Maven resource filtering from the pom's properties. */
public final class Versions {
  private static final Properties P = new Properties();

  static {
    try (InputStream in = Versions.class.getResourceAsStream("/serbench-versions.properties")) {
      if (in != null) {
        P.load(in);
      }
    } catch (Exception e) {
      // leave empty: versions show as "unknown"
    }
  }

  private Versions() {}

  public static String get(String key) {
    return P.getProperty(key, "unknown");
  }
}
