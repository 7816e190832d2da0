package serbench.harness;

import java.io.File;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/** Bytes a library adds to an application: its entries' compressed size in the runner jar. */
public final class Footprint {
  private Footprint() {}

  /** Null when not running from the shaded jar; 0 for JDK-only serializers. */
  public static Long of(List<String> packages) {
    if (packages.isEmpty()) {
      return 0L;
    }
    try {
      File f =
          new File(Footprint.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (!f.isFile()) {
        return null;
      }
      long total = 0;
      try (JarFile jar = new JarFile(f)) {
        for (Enumeration<JarEntry> en = jar.entries(); en.hasMoreElements(); ) {
          JarEntry e = en.nextElement();
          for (String p : packages) {
            if (e.getName().startsWith(p) && !e.isDirectory()) {
              total += Math.max(0, e.getCompressedSize());
              break;
            }
          }
        }
      }
      return total;
    } catch (Exception e) {
      return null;
    }
  }
}
