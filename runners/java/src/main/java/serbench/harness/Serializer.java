package serbench.harness;

import java.util.List;

/** A library as the runner lists it in {@code describe}; one subclass per library file. */
public abstract class Serializer {
  private final String name;
  private final String format;
  private final String library;
  private final String version;
  private final List<String> labels;
  private final List<String> packages;

  /**
   * @param packages class-name prefixes of the library's code in the runner jar (for
   *     footprint_bytes); empty for code that ships with the JDK.
   */
  protected Serializer(
      String name,
      String format,
      String library,
      String version,
      List<String> labels,
      List<String> packages) {
    this.name = name;
    this.format = format;
    this.library = library;
    this.version = version;
    this.labels = labels;
    this.packages = packages;
  }

  public final String name() {
    return name;
  }

  public final String format() {
    return format;
  }

  public final String library() {
    return library;
  }

  public final String version() {
    return version;
  }

  public final List<String> labels() {
    return labels;
  }

  public final List<String> packages() {
    return packages;
  }

  /** Why this serializer cannot represent {@code kind}, or null when it can. */
  public String notApplicable(DatasetKind kind) {
    return null;
  }

  /**
   * Why this serializer cannot take user datasets at all (protocol section 7), or null when it can.
   * A user can act on the reason.
   */
  public String userNotApplicable() {
    return name + " has code for the built-in datasets only";
  }

  /**
   * A fresh codec for a user dataset (the typed generic tree of {@link UserTypes}); {@code schemas}
   * is the dataset's {@code schemas} object. Throws {@link NotApplicableException} naming the
   * format, the path and the reason for a value the format cannot carry.
   */
  public Codec userCodec(Dataset data, com.fasterxml.jackson.databind.JsonNode schemas)
      throws Exception {
    throw new NotApplicableException(userNotApplicable());
  }

  /**
   * Whether {@link #userCodec} takes a user dataset's items as the classes of its generated model
   * ({@link Dataset#model}) rather than the typed generic tree.
   */
  public boolean typedUser() {
    return false;
  }

  /** A fresh codec for one dataset kind (called outside timing). */
  public abstract Codec codec(DatasetKind kind) throws Exception;

  public static String libVersion(String key) {
    return Versions.get(key);
  }
}
