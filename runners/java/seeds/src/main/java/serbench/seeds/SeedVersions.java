package serbench.seeds;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The versions of the seeds' libraries, as this module's pom pins them. */
public final class SeedVersions {
  private static final Properties P = new Properties();

  static {
    try (InputStream in = SeedVersions.class.getResourceAsStream("versions.properties")) {
      P.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private SeedVersions() {}

  /** The version of {@code key} (kryo, msgpack, protobuf). */
  public static String get(String key) {
    String v = P.getProperty(key);
    if (v == null) {
      throw new IllegalArgumentException("no seed version for " + key);
    }
    return v;
  }
}
