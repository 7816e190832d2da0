package serbench.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * Finds the generated model of a user dataset's types file: TypeGen writes it to package {@code
 * serbench.typed.t<first 16 hex digits of the file's sha256>}, class {@code SerbenchModel} (with
 * {@code _} appended while a record of the file has that name).
 */
public final class TypedModels {
  private TypedModels() {}

  /** The model generated from the types file at {@code path}, or null when the build has none. */
  public static TypedModel user(String path) throws Exception {
    StringBuilder sha = new StringBuilder();
    for (byte b : MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(Path.of(path)))) {
      sha.append(String.format("%02x", b));
    }
    String pkg = "serbench.typed.t" + sha.substring(0, 16) + ".";
    for (String name = "SerbenchModel"; name.length() < 20; name += "_") {
      try {
        Class<?> c = Class.forName(pkg + name);
        if (TypedModel.class.isAssignableFrom(c)) {
          TypedModel m = (TypedModel) c.getConstructor().newInstance();
          return m.typesSha256().equals(sha.toString()) ? m : null;
        }
      } catch (ClassNotFoundException e) {
        // not generated, or a record took the name: try the next one
      }
    }
    return null;
  }

  /**
   * The class TypeGen generated beside {@code model} under {@code name} (a record of the dataset
   * may have taken the name: then {@code name_}, {@code name__}, ...), made, or null when the build
   * wrote none.
   */
  public static <T> T glue(TypedModel model, String name, Class<T> type) throws Exception {
    String pkg = model.getClass().getPackageName() + ".";
    for (String n = name; n.length() < name.length() + 10; n += "_") {
      Class<?> c;
      try {
        c = Class.forName(pkg + n);
      } catch (ClassNotFoundException e) {
        return null;
      }
      if (type.isAssignableFrom(c)) {
        return type.cast(c.getConstructor().newInstance());
      }
    }
    return null;
  }
}
