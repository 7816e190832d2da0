package serbench.typegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The typed-model generator, run by Maven in generate-sources as a single-file program (JDK 17's
 * source launcher runs one file, so the generator is one file): reads types.json files
 * (datasets/README.md, protocol section 7) and writes, per file, Java classes (one per record,
 * public fields in order), enums and a {@code serbench.harness.TypedModel} converting between the
 * typed generic value tree of {@code UserTypes} and the classes.
 *
 * <p>Arguments: {@code OUT DATASETS_DIR USER_DATASETS_DIR}, or {@code --fixtures OUT DIR} for the
 * tests' types files. The built-in families go to package {@code serbench.model} (their classes'
 * names are unique across families) with a {@code BuiltinModels} switch over dataset ids; a user
 * types file goes to {@code serbench.typed.t<sha256 prefix>}, found at run time by the sha256 of
 * the dataset's types file.
 */
public final class TypeGen {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> KEYWORDS =
      Set.of(
          "abstract",
          "assert",
          "boolean",
          "break",
          "byte",
          "case",
          "catch",
          "char",
          "class",
          "const",
          "continue",
          "default",
          "do",
          "double",
          "else",
          "enum",
          "extends",
          "final",
          "finally",
          "float",
          "for",
          "goto",
          "if",
          "implements",
          "import",
          "instanceof",
          "int",
          "interface",
          "long",
          "native",
          "new",
          "package",
          "private",
          "protected",
          "public",
          "return",
          "short",
          "static",
          "strictfp",
          "super",
          "switch",
          "synchronized",
          "this",
          "throw",
          "throws",
          "transient",
          "try",
          "void",
          "volatile",
          "while",
          "true",
          "false",
          "null",
          "var",
          "record",
          "yield",
          "sealed",
          "permits",
          "serialVersionUID",
          "_");

  public static void main(String[] args) throws Exception {
    if (args[0].equals("--fixtures")) {
      fixtures(Path.of(args[1]), Path.of(args[2]));
      return;
    }
    Path out = Path.of(args[0]);
    Path datasets = Path.of(args[1]);
    Path users = Path.of(args[2]);
    Map<String, String> written = new TreeMap<>();
    Map<String, String> builtinCases = new TreeMap<>();
    Map<String, String> families = new TreeMap<>();
    try (Stream<Path> dirs = Files.list(datasets)) {
      for (Path dir : (Iterable<Path>) dirs.sorted()::iterator) {
        Path types = dir.resolve("types.json");
        if (Files.isRegularFile(types)) {
          String family = dir.getFileName().toString();
          Model m =
              new Model(JSON.readTree(types.toFile()), "serbench.model", camel(family) + "Model");
          m.write(out, written, Files.readAllBytes(types));
          for (Map.Entry<String, String> e : m.messages(family).entrySet()) {
            builtinCases.put(e.getKey(), m.className + "(\"" + esc(e.getValue()) + "\")");
            families.put(e.getKey(), family);
          }
        }
      }
    }
    StringBuilder b = new StringBuilder();
    b.append("package serbench.model;\n\n/** The built-in datasets' generated models. */\n");
    b.append("public final class BuiltinModels {\n  private BuiltinModels() {}\n\n");
    b.append("  /** Every built-in dataset id, sorted: the datasets/ folders' messages. */\n");
    b.append("  public static final java.util.List<java.lang.String> IDS =\n");
    List<String> ids = builtinCases.keySet().stream().map(id -> "\"" + esc(id) + "\"").toList();
    b.append("      java.util.List.of(" + String.join(", ", ids) + ");\n\n");
    // The family (datasets/ folder) of each id: where the generated schemas of its data live.
    b.append("  /** The datasets/ folder of each built-in dataset id. */\n");
    b.append(
        "  public static final java.util.Map<java.lang.String, java.lang.String> FAMILIES =\n");
    List<String> fams =
        families.entrySet().stream()
            .map(
                e ->
                    "java.util.Map.entry(\""
                        + esc(e.getKey())
                        + "\", \""
                        + esc(e.getValue())
                        + "\")")
            .toList();
    b.append("      java.util.Map.ofEntries(" + String.join(", ", fams) + ");\n\n");
    b.append("  /** The model of a built-in dataset id, or null. */\n");
    b.append("  public static serbench.harness.TypedModel forDataset(java.lang.String id) {\n");
    b.append("    switch (id) {\n");
    builtinCases.forEach(
        (id, ctor) -> b.append("      case \"" + id + "\":\n        return new " + ctor + ";\n"));
    b.append("      default:\n        return null;\n    }\n  }\n}\n");
    put(out, "serbench/model/BuiltinModels.java", b.toString(), written);
    for (Path types : userTypes(users)) {
      user(types, out, written);
    }
    prune(out, written);
    System.out.println("typegen: " + written.size() + " files in " + out);
    if (args.length > 3) {
      Path schemasOut = Path.of(args[3]);
      Map<String, String> schemas = new TreeMap<>();
      userSchemas(users, schemasOut, schemas);
      prune(schemasOut, schemas);
      if (schemas.values().stream().noneMatch(rel -> rel.startsWith("proto/"))) {
        // protoc does not run without a .proto, so it would not clear its last output
        Path stale = schemasOut.resolveSibling("generated-sources/user-protobuf");
        if (Files.isDirectory(stale)) {
          try (Stream<Path> all = Files.walk(stale)) {
            for (Path p :
                (Iterable<Path>) all.sorted(java.util.Comparator.reverseOrder())::iterator) {
              Files.delete(p);
            }
          }
        }
      }
      System.out.println("typegen: " + schemas.size() + " user schemas in " + schemasOut);
    }
  }

  /**
   * Copies of the registered user datasets' .proto, .fbs and .thrift files for protoc, flatc and
   * thrift (the pom runs them): {@code <out>/<proto|fbs|thrift>/t<sha>/<file>}, each declaring the
   * Java package {@code serbench.typed.t<sha>.<pb|fb|thrift>} next to the dataset's typed model
   * (the protobuf package becomes {@code t<sha>}, so two datasets never clash in one protoc run).
   * Only the namespace lines change: field numbers, names and types are the orchestrator's. A
   * dataset whose types file another dataset already has (same sha) is generated once.
   */
  private static void userSchemas(Path users, Path out, Map<String, String> written)
      throws Exception {
    for (String kind : List.of("proto", "fbs", "thrift")) {
      Files.createDirectories(out.resolve(kind));
    }
    if (!Files.isDirectory(users)) {
      return;
    }
    Set<String> done = new HashSet<>();
    try (Stream<Path> dirs = Files.list(users)) {
      for (Path dir : (Iterable<Path>) dirs.sorted()::iterator) {
        Path meta = dir.resolve("dataset.json");
        if (!Files.isRegularFile(meta)) {
          continue;
        }
        JsonNode ds = JSON.readTree(meta.toFile());
        JsonNode t = ds.get("types");
        if (t == null || !t.isTextual() || !Files.isRegularFile(dir.resolve(t.asText()))) {
          continue;
        }
        String sha = "t" + sha256(Files.readAllBytes(dir.resolve(t.asText()))).substring(0, 16);
        if (!done.add(sha)) {
          continue;
        }
        String pkg = "serbench.typed." + sha;
        for (String kind : List.of("proto", "fbs", "thrift")) {
          JsonNode path = ds.path("schemas").path(kind).path("path");
          if (!path.isTextual()) {
            continue;
          }
          Path src = dir.resolve(path.asText());
          if (!Files.isRegularFile(src)) {
            continue;
          }
          String text = Files.readString(src);
          switch (kind) {
            case "proto":
              text =
                  text.replaceFirst("(?m)^package [^;]*;", "package " + sha + ";")
                      + "\noption java_package = \""
                      + pkg
                      + ".pb\";\noption java_outer_classname = \"SerbenchProto\";\n";
              break;
            case "fbs":
              text = text.replaceFirst("(?m)^namespace [^;]*;", "namespace " + pkg + ".fb;");
              break;
            default:
              text =
                  text.replaceAll("(?m)^namespace .*$", "")
                      .replaceFirst("^", "namespace java " + pkg + ".thrift\n");
          }
          put(out, kind + "/" + sha + "/" + src.getFileName(), text, written);
        }
      }
    }
  }

  /** The models of the tests' hand-made user datasets ({@code *.types.json} in {@code dir}). */
  private static void fixtures(Path out, Path dir) throws Exception {
    Map<String, String> written = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files.sorted()::iterator) {
        if (p.getFileName().toString().endsWith(".types.json")) {
          user(p, out, written);
        }
      }
    }
    prune(out, written);
    System.out.println("typegen: " + written.size() + " files in " + out);
  }

  /** The types files of the registered user datasets (dataset.json names each one). */
  private static List<Path> userTypes(Path users) throws IOException {
    List<Path> found = new ArrayList<>();
    if (!Files.isDirectory(users)) {
      return found;
    }
    try (Stream<Path> dirs = Files.list(users)) {
      for (Path dir : (Iterable<Path>) dirs.sorted()::iterator) {
        Path meta = dir.resolve("dataset.json");
        if (Files.isRegularFile(meta)) {
          JsonNode t = JSON.readTree(meta.toFile()).get("types");
          if (t != null && t.isTextual() && Files.isRegularFile(dir.resolve(t.asText()))) {
            found.add(dir.resolve(t.asText()));
          }
        }
      }
    }
    return found;
  }

  /** One user types file; one it cannot model is skipped (its typed rows say why at run time). */
  private static void user(Path types, Path out, Map<String, String> written) throws Exception {
    byte[] bytes = Files.readAllBytes(types);
    String pkg = "serbench.typed.t" + sha256(bytes).substring(0, 16);
    try {
      JsonNode root = JSON.readTree(bytes);
      if (!root.path("message").isTextual()) {
        throw new IllegalArgumentException("'message' must name one type");
      }
      new Model(root, pkg, "SerbenchModel").write(out, written, bytes);
    } catch (RuntimeException e) {
      System.err.println("typegen: skipping " + types + ": " + e.getMessage());
    }
  }

  static String sha256(byte[] b) throws Exception {
    StringBuilder s = new StringBuilder();
    for (byte x : MessageDigest.getInstance("SHA-256").digest(b)) {
      s.append(String.format("%02x", x));
    }
    return s.toString();
  }

  /** Writes a file unless it holds that text already (keeps unchanged sources' timestamps). */
  static void put(Path out, String rel, String text, Map<String, String> written)
      throws IOException {
    Path p = out.resolve(rel);
    written.put(p.toString(), rel);
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    if (Files.isRegularFile(p) && java.util.Arrays.equals(Files.readAllBytes(p), b)) {
      return;
    }
    Files.createDirectories(p.getParent());
    Files.write(p, b);
  }

  /** Removes generated files of datasets that are gone. */
  private static void prune(Path out, Map<String, String> written) throws IOException {
    if (!Files.isDirectory(out)) {
      return;
    }
    try (Stream<Path> all = Files.walk(out)) {
      for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
        if (!written.containsKey(p.toString())) {
          Files.delete(p);
        }
      }
    }
  }

  static String camel(String s) {
    StringBuilder b = new StringBuilder();
    boolean up = true;
    for (char c : s.toCharArray()) {
      if (Character.isLetterOrDigit(c)) {
        b.append(up ? Character.toUpperCase(c) : c);
        up = false;
      } else {
        up = true;
      }
    }
    return b.toString();
  }

  /** A Java identifier for a name: other characters '_', a leading digit or keyword gets '_'. */
  static String ident(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      b.append(c < 128 && Character.isLetterOrDigit(c) || c == '_' ? c : '_');
    }
    String id = b.toString();
    if (id.isEmpty() || Character.isDigit(id.charAt(0))) {
      id = "_" + id;
    }
    return KEYWORDS.contains(id) ? id + "_" : id;
  }

  static String esc(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        // octal: a unicode escape of a line break would end the literal (javac reads those first)
        b.append(String.format("\\%03o", (int) c));
      } else if (c > 0x7e) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** One types file's classes and model. */
  static final class Model {
    final JsonNode root;
    final JsonNode defs;
    final String pkg;
    final String className;
    final Map<String, String> classOf = new LinkedHashMap<>();

    Model(JsonNode root, String pkg, String modelName) {
      this.root = root;
      this.defs = root.path("types");
      this.pkg = pkg;
      Set<String> used = new HashSet<>();
      for (var it = defs.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        String id = ident(name);
        while (!used.add(id.toLowerCase(java.util.Locale.ROOT))) {
          id += "_";
        }
        classOf.put(name, id);
      }
      String m = modelName;
      while (used.contains(m.toLowerCase(java.util.Locale.ROOT))) {
        m += "_";
      }
      this.className = m;
      for (String t : messages("").values()) {
        check(t);
      }
    }

    /** Dataset id -> message type: one message, or S2's object of several. */
    Map<String, String> messages(String family) {
      Map<String, String> m = new LinkedHashMap<>();
      JsonNode msg = root.path("message");
      if (msg.isTextual()) {
        m.put(family, msg.asText());
      } else {
        msg.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
      }
      return m;
    }

    private void check(String t) {
      javaType(t, false);
    }

    static String inner(String t, String prefix) {
      return t.substring(prefix.length(), t.length() - 1).trim();
    }

    static String mapValue(String t) {
      String in = inner(t, "map<");
      if (!in.startsWith("string")) {
        throw new IllegalArgumentException("map keys must be strings: " + t);
      }
      return in.substring(in.indexOf(',') + 1).trim();
    }

    String named(String t) {
      String c = classOf.get(t);
      if (c == null) {
        throw new IllegalArgumentException("unknown type '" + t + "'");
      }
      return c;
    }

    boolean isEnum(String t) {
      return defs.path(t).has("enum");
    }

    /** The Java type of a types.json type; boxed where it is a type argument or nullable. */
    String javaType(String t, boolean boxed) {
      t = t.trim();
      if (t.startsWith("list<")) {
        return "java.util.List<" + javaType(inner(t, "list<"), true) + ">";
      }
      if (t.startsWith("map<")) {
        return "java.util.Map<java.lang.String, " + javaType(mapValue(t), true) + ">";
      }
      if (t.startsWith("optional<")) {
        return javaType(inner(t, "optional<"), true);
      }
      switch (t) {
        case "int32":
          return boxed ? "java.lang.Integer" : "int";
        case "uint32":
        case "int64":
        case "uint64":
          return boxed ? "java.lang.Long" : "long";
        case "float32":
          return boxed ? "java.lang.Float" : "float";
        case "float64":
          return boxed ? "java.lang.Double" : "double";
        case "bool":
          return boxed ? "java.lang.Boolean" : "boolean";
        case "bigint":
          return "java.math.BigInteger";
        case "string":
          return "java.lang.String";
        case "bytes":
          return "byte[]";
        case "timestamp_ms":
          return "java.time.Instant";
        case "null":
        case "any":
          return "java.lang.Object";
        default:
          return named(t);
      }
    }

    /** The message's type as Jackson and reflective templates read it (concrete containers). */
    String messageType(String t) {
      if (t.startsWith("list<")) {
        return "java.util.ArrayList<" + javaType(inner(t, "list<"), true) + ">";
      }
      if (t.startsWith("map<")) {
        return "java.util.HashMap<java.lang.String, " + javaType(mapValue(t), true) + ">";
      }
      return javaType(t, true);
    }

    private static final String S = "serbench.harness.TypedSupport.";

    /** Expression: the tree value {@code x} as the typed value of {@code t}. */
    String fromTree(String t, String x, int depth) {
      t = t.trim();
      String v = "v" + depth;
      if (t.startsWith("list<")) {
        return S
            + "list("
            + x
            + ", "
            + v
            + " -> "
            + fromTree(inner(t, "list<"), v, depth + 1)
            + ")";
      }
      if (t.startsWith("map<")) {
        return S + "map(" + x + ", " + v + " -> " + fromTree(mapValue(t), v, depth + 1) + ")";
      }
      if (t.startsWith("optional<")) {
        return S
            + "opt("
            + x
            + ", "
            + v
            + " -> "
            + fromTree(inner(t, "optional<"), v, depth + 1)
            + ")";
      }
      switch (t) {
        case "uint64":
          return S + "u64(" + x + ")";
        case "null":
        case "any":
          return x;
        case "int32":
        case "uint32":
        case "int64":
        case "float32":
        case "float64":
        case "bool":
        case "bigint":
        case "string":
        case "bytes":
        case "timestamp_ms":
          return "((" + javaType(t, true) + ") " + x + ")";
        default:
          return isEnum(t)
              ? named(t) + ".values()[(java.lang.Integer) " + x + "]"
              : "from" + named(t) + "(" + x + ")";
      }
    }

    /** Expression: the typed value {@code x} of {@code t} as its tree value. */
    String toTree(String t, String x, int depth) {
      t = t.trim();
      String v = "v" + depth;
      if (t.startsWith("list<")) {
        return S
            + "listTree("
            + x
            + ", "
            + v
            + " -> "
            + toTree(inner(t, "list<"), v, depth + 1)
            + ")";
      }
      if (t.startsWith("map<")) {
        return S + "mapTree(" + x + ", " + v + " -> " + toTree(mapValue(t), v, depth + 1) + ")";
      }
      if (t.startsWith("optional<")) {
        return S
            + "optTree("
            + x
            + ", "
            + v
            + " -> "
            + toTree(inner(t, "optional<"), v, depth + 1)
            + ")";
      }
      switch (t) {
        case "uint64":
          return S + "u64Tree(" + x + ")";
        case "any":
          return S + "anyTree(" + x + ")";
        case "int32":
        case "uint32":
        case "int64":
        case "float32":
        case "float64":
        case "bool":
        case "bigint":
        case "string":
        case "bytes":
        case "timestamp_ms":
        case "null":
          return "(java.lang.Object) " + x;
        default:
          return isEnum(t)
              ? "(java.lang.Object) " + x + ".ordinal()"
              : "tree" + named(t) + "(" + x + ")";
      }
    }

    void write(Path out, Map<String, String> written, byte[] typesBytes) throws Exception {
      String dir = pkg.replace('.', '/') + "/";
      for (Map.Entry<String, String> e : classOf.entrySet()) {
        JsonNode d = defs.get(e.getKey());
        String src =
            d.has("enum") ? enumSource(e.getValue(), d.get("enum")) : recordSource(e.getValue(), d);
        put(out, dir + e.getValue() + ".java", src, written);
      }
      put(out, dir + className + ".java", modelSource(typesBytes), written);
    }

    private String header() {
      return "// Generated by serbench.typegen.TypeGen from types.json: do not edit.\npackage "
          + pkg
          + ";\n\n";
    }

    private String enumSource(String name, JsonNode symbols) {
      StringBuilder b = new StringBuilder(header());
      b.append("public enum ").append(name).append(" {\n");
      Set<String> used = new HashSet<>();
      for (JsonNode s : symbols) {
        String id = ident(s.asText());
        while (!used.add(id)) {
          id += "_";
        }
        if (!id.equals(s.asText())) {
          b.append("  @com.fasterxml.jackson.annotation.JsonProperty(\"")
              .append(esc(s.asText()))
              .append("\")\n");
        }
        b.append("  ").append(id).append(",\n");
      }
      return b.append("}\n").toString();
    }

    /** Field names: identifiers, unique within the record. */
    private static List<String> fieldIds(JsonNode fields) {
      List<String> ids = new ArrayList<>();
      Set<String> used = new HashSet<>();
      for (JsonNode f : fields) {
        String id = ident(f.get(0).asText());
        while (!used.add(id)) {
          id += "_";
        }
        ids.add(id);
      }
      return ids;
    }

    private String recordSource(String name, JsonNode d) {
      JsonNode fields = d.get("record");
      List<String> ids = fieldIds(fields);
      StringBuilder b = new StringBuilder(header());
      b.append("@com.fasterxml.jackson.annotation.JsonPropertyOrder({");
      for (int i = 0; i < fields.size(); i++) {
        b.append(i > 0 ? ", " : "")
            .append('"')
            .append(esc(fields.get(i).get(0).asText()))
            .append('"');
      }
      b.append("})\npublic final class ")
          .append(name)
          .append(" implements java.io.Serializable {\n");
      b.append("  private static final long serialVersionUID = 1L;\n\n");
      List<String> types = new ArrayList<>();
      for (int i = 0; i < fields.size(); i++) {
        String key = fields.get(i).get(0).asText();
        types.add(javaType(fields.get(i).get(1).asText(), false));
        if (!ids.get(i).equals(key)) {
          b.append("  @com.fasterxml.jackson.annotation.JsonProperty(\"")
              .append(esc(key))
              .append("\")\n");
        }
        b.append("  public ").append(types.get(i)).append(' ').append(ids.get(i)).append(";\n");
      }
      b.append("\n  public ").append(name).append("() {}\n");
      if (fields.size() > 0 && fields.size() <= 200) {
        b.append("\n  public ").append(name).append('(');
        for (int i = 0; i < fields.size(); i++) {
          b.append(i > 0 ? ", " : "").append(types.get(i)).append(' ').append(ids.get(i));
        }
        b.append(") {\n");
        for (String id : ids) {
          b.append("    this.").append(id).append(" = ").append(id).append(";\n");
        }
        b.append("  }\n");
      }
      b.append("\n  @java.lang.Override\n  public boolean equals(java.lang.Object o) {\n");
      b.append("    if (!(o instanceof ").append(name).append(")) {\n      return false;\n    }\n");
      b.append("    ").append(name).append(" x = (").append(name).append(") o;\n    return true");
      for (int i = 0; i < ids.size(); i++) {
        String f = ids.get(i);
        String jt = types.get(i);
        switch (jt) {
          case "float":
            b.append("\n        && java.lang.Float.compare(this." + f + ", x." + f + ") == 0");
            break;
          case "double":
            b.append("\n        && java.lang.Double.compare(this." + f + ", x." + f + ") == 0");
            break;
          case "int":
          case "long":
          case "boolean":
            b.append("\n        && this." + f + " == x." + f);
            break;
          case "byte[]":
            b.append("\n        && java.util.Arrays.equals(this." + f + ", x." + f + ")");
            break;
          default:
            b.append("\n        && java.util.Objects.equals(this." + f + ", x." + f + ")");
        }
      }
      b.append(";\n  }\n\n  @java.lang.Override\n  public int hashCode() {\n    int h = 1;\n");
      for (int i = 0; i < ids.size(); i++) {
        String f = ids.get(i);
        String hash =
            types.get(i).equals("byte[]")
                ? "java.util.Arrays.hashCode(this." + f + ")"
                : "java.util.Objects.hashCode(this." + f + ")";
        b.append("    h = 31 * h + ").append(hash).append(";\n");
      }
      return b.append("    return h;\n  }\n}\n").toString();
    }

    private String modelSource(byte[] typesBytes) throws Exception {
      Map<String, String> msgs = messages("");
      StringBuilder b = new StringBuilder(header());
      b.append("/** The typed model of one types file: its classes and the tree conversions. */\n");
      b.append("public final class ").append(className);
      b.append(" implements serbench.harness.TypedModel {\n");
      b.append("  public static final java.lang.String TYPES_SHA256 = \"")
          .append(sha256(typesBytes))
          .append("\";\n");
      b.append("  private static final java.lang.String TYPES = \"")
          .append(esc(new String(typesBytes, StandardCharsets.UTF_8)))
          .append("\";\n\n  private final java.lang.String message;\n\n");
      b.append("  public ").append(className).append("(java.lang.String message) {\n");
      b.append("    this.message = message;\n  }\n\n");
      b.append("  public ")
          .append(className)
          .append("() {\n    this(\"")
          .append(esc(msgs.values().iterator().next()))
          .append("\");\n  }\n\n");
      b.append("  @java.lang.Override\n  public java.lang.String typesSha256() {\n");
      b.append("    return TYPES_SHA256;\n  }\n\n");
      b.append("  @java.lang.Override\n  public java.lang.String typesJson() {\n");
      b.append("    return TYPES;\n  }\n\n");
      b.append("  @java.lang.Override\n  public java.lang.String message() {\n");
      b.append("    return message;\n  }\n\n");
      b.append("  @java.lang.Override\n  public java.util.List<java.lang.Class<?>> classes() {\n");
      b.append("    return java.util.List.of(");
      int i = 0;
      for (String c : classOf.values()) {
        b.append(i++ > 0 ? ", " : "").append(c).append(".class");
      }
      b.append(");\n  }\n\n");
      b.append("  @java.lang.Override\n  public java.lang.reflect.Type javaType() {\n");
      b.append("    switch (message) {\n");
      for (String t : new java.util.TreeSet<>(msgs.values())) {
        b.append("      case \"").append(esc(t)).append("\":\n        return new ");
        b.append("com.fasterxml.jackson.core.type.TypeReference<")
            .append(messageType(t))
            .append(">() {}.getType();\n");
      }
      b.append("      default:\n        throw new java.lang.IllegalStateException(message);\n");
      b.append("    }\n  }\n\n");
      b.append("  @java.lang.Override\n  public java.lang.Object fromTree(java.lang.Object x) {\n");
      b.append("    switch (message) {\n");
      for (String t : new java.util.TreeSet<>(msgs.values())) {
        b.append("      case \"").append(esc(t)).append("\":\n        return ");
        b.append(fromTree(t, "x", 0)).append(";\n");
      }
      b.append("      default:\n        throw new java.lang.IllegalStateException(message);\n");
      b.append("    }\n  }\n\n");
      b.append("  @java.lang.Override\n  @java.lang.SuppressWarnings(\"unchecked\")\n");
      b.append("  public java.lang.Object toTree(java.lang.Object x) {\n");
      b.append("    switch (message) {\n");
      for (String t : new java.util.TreeSet<>(msgs.values())) {
        b.append("      case \"").append(esc(t)).append("\":\n        return ");
        b.append(toTree(t, "((" + messageType(t) + ") x)", 0)).append(";\n");
      }
      b.append("      default:\n        throw new java.lang.IllegalStateException(message);\n");
      b.append("    }\n  }\n");
      for (Map.Entry<String, String> e : classOf.entrySet()) {
        JsonNode d = defs.get(e.getKey());
        if (!d.has("record")) {
          continue;
        }
        String c = e.getValue();
        JsonNode fields = d.get("record");
        List<String> ids = fieldIds(fields);
        b.append("\n  static ")
            .append(c)
            .append(" from")
            .append(c)
            .append("(java.lang.Object x) {\n");
        b.append("    java.util.Map<?, ?> m = (java.util.Map<?, ?>) x;\n");
        b.append("    ").append(c).append(" r = new ").append(c).append("();\n");
        for (int k = 0; k < fields.size(); k++) {
          String get = "m.get(\"" + esc(fields.get(k).get(0).asText()) + "\")";
          b.append("    r.").append(ids.get(k)).append(" = ");
          b.append(fromTree(fields.get(k).get(1).asText(), get, 0)).append(";\n");
        }
        b.append("    return r;\n  }\n");
        b.append("\n  static java.lang.Object tree")
            .append(c)
            .append('(')
            .append(c)
            .append(" r) {\n");
        b.append("    java.util.LinkedHashMap<java.lang.String, java.lang.Object> m =\n");
        b.append("        new java.util.LinkedHashMap<>();\n");
        for (int k = 0; k < fields.size(); k++) {
          b.append("    m.put(\"").append(esc(fields.get(k).get(0).asText())).append("\", ");
          b.append(toTree(fields.get(k).get(1).asText(), "r." + ids.get(k), 0)).append(");\n");
        }
        b.append("    return m;\n  }\n");
      }
      return b.append("}\n").toString();
    }
  }
}
