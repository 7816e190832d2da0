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
   * Why this serializer cannot take user datasets at all (protocol section 7), or null when it can
   * (by default: when it runs on their generated model, {@link #typedUser}). A user can act on the
   * reason.
   */
  public String userNotApplicable() {
    return typedUser() ? null : name + " has code for the built-in datasets only";
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
   * A user dataset's schema of one kind ({@code schemas.<kind>}, as the orchestrator wrote it)
   * holding {@code field}: not applicable with the orchestrator's reason when it marked the schema
   * unavailable, or naming what is missing.
   */
  protected static com.fasterxml.jackson.databind.JsonNode userSchema(
      com.fasterxml.jackson.databind.JsonNode schemas, String kind, String field, String missing)
      throws NotApplicableException {
    com.fasterxml.jackson.databind.JsonNode schema = schemas.path(kind);
    if (schema.has("unavailable")) {
      throw new NotApplicableException(schema.get("unavailable").asText());
    }
    if (!schema.has(field)) {
      throw new NotApplicableException(missing);
    }
    return schema;
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

  /**
   * A built-in dataset's codec from a codec on its typed generic tree (the user-dataset path of a
   * library with a generic API), for a built-in without hand-written conversions: the generated
   * model's {@code toTree} and {@code fromTree} run inside the timed encode and decode, as the
   * hand-written conversions to a library's own objects do.
   */
  protected static Codec overTree(TypedModel model, Codec tree) {
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws Exception {
        tree.encode(model.toTree(message), out);
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws Exception {
        return model.fromTree(tree.decode(buf, off, len));
      }
    };
  }

  /** The types of a built-in dataset's message, from the types file of its generated model. */
  protected static UserTypes types(DatasetKind kind) throws Exception {
    TypedModel model = kind.model();
    return UserTypes.of(model.typesJson(), model.message());
  }

  public static String libVersion(String key) {
    return Versions.get(key);
  }
}
