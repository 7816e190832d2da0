package serbench.typegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The typed-model generator, run by Maven in generate-sources as a single-file program (JDK 17's
 * source launcher runs one file, so the generator is one file): reads types.json files
 * (datasets/README.md, protocol section 7) and writes, per file, Java classes (one per record,
 * public fields in order), enums, a {@code serbench.harness.TypedModel} converting between the
 * typed generic value tree of {@code UserTypes} and the classes, and the {@code handwritten} row's
 * codec of the classes ({@link Handwritten}).
 *
 * <p>Arguments: {@code OUT DATASETS_DIR USER_DATASETS_DIR [USER_SCHEMAS_OUT]}, or {@code --fixtures
 * OUT DIR [SCHEMAS_OUT]} for the tests' types files, or {@code --glue OUT SCHEMAS PROTOC_OUT
 * THRIFT_OUT} after protoc and thrift. Beside a user model it writes the conversion to flatc's
 * classes ({@link FlatBuffersGlue}); {@code --glue} those to protoc's and thrift's ({@link
 * ProtobufGlue}, {@link ThriftGlue}), checked against their Java output. The built-in families go
 * to package {@code serbench.model} (their classes' names are unique across families) with a {@code
 * BuiltinModels} switch over dataset ids; a user types file goes to {@code serbench.typed.t<sha256
 * prefix>}, found at run time by the sha256 of the dataset's types file.
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
    if (args[0].equals("--glue")) {
      schemaGlue(args);
      return;
    }
    if (args[0].equals("--fixtures")) {
      fixtures(Path.of(args[1]), Path.of(args[2]), args.length > 3 ? Path.of(args[3]) : null);
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
          m.enumWidth = Handwritten.SEED_ENUM_WIDTH.getOrDefault(family, 4);
          m.write(out, written, Files.readAllBytes(types));
          for (Map.Entry<String, String> e : m.messages(family).entrySet()) {
            builtinCases.put(e.getKey(), m.className + "(\"" + esc(e.getValue()) + "\")");
            FlexBuffersGlue.write(m, e.getValue(), camel(e.getKey()) + "FlexBuffers", out, written);
            MsgpackGlue.write(m, e.getValue(), camel(e.getKey()) + "MsgpackCore", out, written);
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
    // Where TypeGen --glue writes an id's glue: this class name + Protobuf / Thrift.
    b.append(
        "  /** The class name, less its library, of each built-in id's protobuf / thrift glue."
            + " */\n");
    b.append("  public static final java.util.Map<java.lang.String, java.lang.String> GLUE =\n");
    List<String> glue =
        families.keySet().stream()
            .map(
                id ->
                    "java.util.Map.entry(\""
                        + esc(id)
                        + "\", \"serbench.model."
                        + camel(id)
                        + "\")")
            .toList();
    b.append("      java.util.Map.ofEntries(" + String.join(", ", glue) + ");\n\n");
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
    userGlue(users, out, written);
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
        put(out, "types/" + sha + ".json", Files.readString(dir.resolve(t.asText())), written);
        for (String kind : List.of("proto", "fbs", "thrift")) {
          JsonNode path = ds.path("schemas").path(kind).path("path");
          if (!path.isTextual()) {
            continue;
          }
          Path src = dir.resolve(path.asText());
          if (!Files.isRegularFile(src) || kind.equals("fbs") && NO_FLATC.contains(sha)) {
            continue;
          }
          String text = inPackage(kind, Files.readString(src), sha);
          put(out, kind + "/" + sha + "/" + src.getFileName(), text, written);
        }
      }
    }
  }

  /** A schema's text with its namespace lines moved to the typed model's package. */
  private static String inPackage(String kind, String text, String sha) {
    String pkg = "serbench.typed." + sha;
    switch (kind) {
      case "proto":
        return text.replaceFirst("(?m)^package [^;]*;", "package " + sha + ";")
            + "\noption java_package = \""
            + pkg
            + ".pb\";\noption java_outer_classname = \"SerbenchProto\";\n";
      case "fbs":
        return text.replaceFirst("(?m)^namespace [^;]*;", "namespace " + pkg + ".fb;");
      default:
        return text.replaceAll("(?m)^namespace .*$", "")
            .replaceFirst("^", "namespace java " + pkg + ".thrift\n");
    }
  }

  /** The models of the tests' hand-made user datasets ({@code *.types.json} in {@code dir}). */
  private static void fixtures(Path out, Path dir, Path schemasOut) throws Exception {
    Map<String, String> written = new TreeMap<>();
    Map<String, String> schemas = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files.sorted()::iterator) {
        String name = p.getFileName().toString();
        if (name.endsWith(".types.json")) {
          user(p, out, written);
          if (schemasOut == null) {
            continue;
          }
          String sha = "t" + sha256(Files.readAllBytes(p)).substring(0, 16);
          put(schemasOut, "types/" + sha + ".json", Files.readString(p), schemas);
          for (String kind : List.of("proto", "fbs", "thrift")) {
            Path src = dir.resolve(name.replace(".types.json", "." + kind));
            if (!Files.isRegularFile(src)) {
              continue;
            }
            if (kind.equals("fbs")) {
              glue(p, src, out, written);
              if (NO_FLATC.contains(sha)) {
                continue;
              }
            }
            String text = inPackage(kind, Files.readString(src), sha);
            put(schemasOut, kind + "/" + sha + "/" + src.getFileName(), text, schemas);
          }
        }
      }
    }
    prune(out, written);
    if (schemasOut != null) {
      prune(schemasOut, schemas);
    }
    System.out.println("typegen: " + written.size() + " files in " + out);
  }

  /**
   * {@code --glue OUT SCHEMAS PROTOC_OUT THRIFT_OUT [DATASETS BUILTIN_SCHEMAS BUILTIN_PROTOC_OUT
   * BUILTIN_THRIFT_OUT [SEEDS_PROTOC_OUT]]}, after protoc and thrift: the protobuf and thrift glue
   * of each user dataset whose .proto / .thrift TypeGen copied to SCHEMAS (with its types file,
   * {@code types/t<sha>.json}) and the compiler turned into Java, and of each built-in message of
   * DATASETS (class {@code serbench.model.<BuiltinModels.GLUE name><Protobuf|Thrift>}, from its
   * .fbs {@code <name>FlatBuffers}, its Avro and protobuf@2.6.1 glue). A dataset it cannot write
   * glue for keeps the reflective conversion (said on stderr); a built-in without flatbuffers glue
   * is not applicable there.
   */
  private static void schemaGlue(String[] args) throws Exception {
    Path out = Path.of(args[1]);
    Path schemas = Path.of(args[2]);
    Map<String, String> written = new TreeMap<>();
    Path typesDir = schemas.resolve("types");
    if (Files.isDirectory(typesDir)) {
      try (Stream<Path> files = Files.list(typesDir)) {
        for (Path types : (Iterable<Path>) files.sorted()::iterator) {
          String sha = types.getFileName().toString().replace(".json", "");
          Model m;
          try {
            m = new Model(JSON.readTree(types.toFile()), "serbench.typed." + sha, "SerbenchModel");
          } catch (RuntimeException e) {
            continue;
          }
          String msg = m.messages("").values().iterator().next();
          String dir = m.pkg.replace('.', '/') + "/";
          Path proto = schemaFile(schemas.resolve("proto/" + sha), ".proto");
          Path thrift = schemaFile(schemas.resolve("thrift/" + sha), ".thrift");
          schemaGlue(
              m,
              msg,
              proto,
              Path.of(args[3]).resolve(dir + "pb/SerbenchProto.java"),
              freeName(m, "SerbenchProtobuf"),
              thrift,
              Path.of(args[4]).resolve(dir + "thrift"),
              freeName(m, "SerbenchThrift"),
              out,
              written);
        }
      }
    }
    if (args.length > 5) {
      builtinGlue(
          Path.of(args[5]),
          Path.of(args[6]),
          Path.of(args[7]),
          Path.of(args[8]),
          args.length > 9 ? Path.of(args[9]) : null,
          out,
          written);
    }
    prune(out, written);
    System.out.println("typegen: " + written.size() + " glue files in " + out);
  }

  /**
   * The glue of every built-in message, from its family's types.json and generated schemas; with
   * {@code seedsProtocOut} (protoc 2.6.1's Java, seeds/pom.xml) that of the protobuf@2.6.1 row too.
   */
  private static void builtinGlue(
      Path datasets,
      Path schemas,
      Path protocOut,
      Path thriftOut,
      Path seedsProtocOut,
      Path out,
      Map<String, String> written)
      throws Exception {
    try (Stream<Path> dirs = Files.list(datasets)) {
      for (Path dir : (Iterable<Path>) dirs.sorted()::iterator) {
        Path types = dir.resolve("types.json");
        if (!Files.isRegularFile(types)) {
          continue;
        }
        String family = dir.getFileName().toString();
        Model m =
            new Model(JSON.readTree(types.toFile()), "serbench.model", camel(family) + "Model");
        Path proto = schemaFile(schemas.resolve(family), ".proto");
        Path thrift = schemaFile(schemas.resolve(family), ".thrift");
        Path fbs = schemaFile(schemas.resolve(family), ".fbs");
        Path protoJava = null;
        Path thriftJava = null;
        if (proto != null) {
          String text = Files.readString(proto);
          protoJava =
              protocOut.resolve(
                  option(text, "java_package").replace('.', '/')
                      + "/"
                      + option(text, "java_outer_classname")
                      + ".java");
        }
        if (thrift != null) {
          String ns = ThriftGlue.namespace(Files.readString(thrift));
          thriftJava = thriftOut.resolve(ns.replace('.', '/'));
        }
        for (Map.Entry<String, String> e : m.messages(family).entrySet()) {
          String name = camel(e.getKey());
          schemaGlue(
              m,
              e.getValue(),
              proto,
              protoJava,
              name + "Protobuf",
              thrift,
              thriftJava,
              name + "Thrift",
              out,
              written);
          BuiltinGlue.write(
              m, e.getValue(), name, schemas.resolve(family), seedsProtocOut, out, written);
          if (fbs != null) {
            builtinFlatBuffers(m, e.getValue(), fbs, name + "FlatBuffers", out, written);
          }
        }
      }
    }
  }

  /**
   * The flatbuffers glue of built-in message type {@code msg}: a record is its own table (one .fbs
   * may have several), any other type field 1 of the .fbs's root table.
   */
  private static void builtinFlatBuffers(
      Model m, String msg, Path fbs, String name, Path out, Map<String, String> written)
      throws IOException {
    String text = Files.readString(fbs);
    Matcher ns = Pattern.compile("(?m)^namespace ([\\w.]+);").matcher(text);
    try {
      FlatBuffersGlue g = new FlatBuffersGlue(m, text, ns.find() ? ns.group(1) + "." : "");
      String root = m.defs.path(msg).has("record") ? msg : g.fbs.root;
      String src = g.source(name, root, msg);
      put(out, m.pkg.replace('.', '/') + "/" + name + ".java", src, written);
    } catch (IllegalArgumentException e) {
      System.err.println("typegen: no flatbuffers glue for " + fbs + ": " + e.getMessage());
    }
  }

  /** A .proto's {@code option NAME = "value";}, or "" without one. */
  static String option(String proto, String name) {
    Matcher o = Pattern.compile("(?m)^option " + name + " = \"([^\"]*)\";").matcher(proto);
    return o.find() ? o.group(1) : "";
  }

  /**
   * The protobuf and thrift glue of message type {@code msg} of model {@code m} into {@code m}'s
   * package, where the schema and the compiler's Java for it exist; the root message or struct is
   * the record, or for any other type the types file's {@code schema.root} (default {@code Root}).
   */
  private static void schemaGlue(
      Model m,
      String msg,
      Path proto,
      Path protoJava,
      String protoName,
      Path thrift,
      Path thriftJava,
      String thriftName,
      Path out,
      Map<String, String> written)
      throws IOException {
    String root = rootMessage(m, msg);
    String dir = m.pkg.replace('.', '/') + "/";
    if (proto != null && protoJava != null && Files.isRegularFile(protoJava)) {
      try {
        String src =
            new ProtobufGlue(m, Files.readString(proto), Files.readString(protoJava))
                .source(protoName, root, msg);
        put(out, dir + protoName + ".java", src, written);
      } catch (IllegalArgumentException e) {
        System.err.println("typegen: no protobuf glue for " + proto + ": " + e.getMessage());
      }
    }
    if (thrift != null && thriftJava != null && Files.isDirectory(thriftJava)) {
      try {
        String src =
            new ThriftGlue(m, Files.readString(thrift), thriftJava).source(thriftName, root, msg);
        put(out, dir + thriftName + ".java", src, written);
      } catch (IllegalArgumentException e) {
        System.err.println("typegen: no thrift glue for " + thrift + ": " + e.getMessage());
      }
    }
  }

  /** The root message or struct of {@code msg}: the record, or the types file's schema.root. */
  static String rootMessage(Model m, String msg) {
    return m.defs.path(msg).has("record")
        ? msg
        : m.root.path("schema").path("root").path(0).asText("Root");
  }

  /** The one schema file ending in {@code ext} in {@code dir}, or null. */
  static Path schemaFile(Path dir, String ext) throws IOException {
    if (!Files.isDirectory(dir)) {
      return null;
    }
    try (Stream<Path> ps = Files.list(dir)) {
      return ps.filter(q -> q.toString().endsWith(ext)).findFirst().orElse(null);
    }
  }

  /** {@code base}, with {@code _} appended while a class of the model has the name. */
  private static String freeName(Model m, String base) {
    Set<String> used = new HashSet<>();
    m.classOf.values().forEach(c -> used.add(c.toLowerCase(java.util.Locale.ROOT)));
    used.add(m.className.toLowerCase(java.util.Locale.ROOT));
    String name = base;
    while (used.contains(name.toLowerCase(java.util.Locale.ROOT))) {
      name += "_";
    }
    return name;
  }

  /** The .fbs files (by typed package) whose flatc Java would not compile: not copied. */
  private static final Set<String> NO_FLATC = new HashSet<>();

  /** The flatbuffers glue of each registered user dataset with an .fbs. */
  private static void userGlue(Path users, Path out, Map<String, String> written) throws Exception {
    if (!Files.isDirectory(users)) {
      return;
    }
    try (Stream<Path> dirs = Files.list(users)) {
      for (Path dir : (Iterable<Path>) dirs.sorted()::iterator) {
        Path meta = dir.resolve("dataset.json");
        if (!Files.isRegularFile(meta)) {
          continue;
        }
        JsonNode ds = JSON.readTree(meta.toFile());
        JsonNode t = ds.get("types");
        JsonNode fbs = ds.path("schemas").path("fbs").path("path");
        if (t != null && t.isTextual() && fbs.isTextual()) {
          Path types = dir.resolve(t.asText());
          Path src = dir.resolve(fbs.asText());
          if (Files.isRegularFile(types) && Files.isRegularFile(src)) {
            glue(types, src, out, written);
          }
        }
      }
    }
  }

  /**
   * Writes {@code SerbenchFlatBuffers} (a {@code _} appended while a class of the model has the
   * name) beside a types file's model: the conversion to flatc's classes, or, when the .fbs cannot
   * be walked with the types or flatc's Java for it would not compile, the reason (and the .fbs is
   * then not compiled). A types file the model generator skips gets none.
   */
  private static void glue(Path types, Path fbs, Path out, Map<String, String> written)
      throws Exception {
    byte[] bytes = Files.readAllBytes(types);
    String sha = "t" + sha256(bytes).substring(0, 16);
    Model m;
    try {
      JsonNode root = JSON.readTree(bytes);
      if (!root.path("message").isTextual()) {
        return;
      }
      m = new Model(root, "serbench.typed." + sha, "SerbenchModel");
    } catch (RuntimeException e) {
      return;
    }
    String name = freeName(m, "SerbenchFlatBuffers");
    String src;
    try {
      FlatBuffersGlue g = new FlatBuffersGlue(m, Files.readString(fbs), m.pkg + ".fb.");
      src = g.source(name, g.fbs.root, m.messages("").values().iterator().next());
    } catch (IllegalArgumentException e) {
      NO_FLATC.add(sha);
      src = FlatBuffersGlue.unavailable(m, name, "flatbuffers: " + e.getMessage());
      System.err.println("typegen: no flatbuffers glue for " + fbs + ": " + e.getMessage());
    }
    put(out, m.pkg.replace('.', '/') + "/" + name + ".java", src, written);
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
      Model m = new Model(root, pkg, "SerbenchModel");
      m.write(out, written, bytes);
      String msg = root.get("message").asText();
      MsgpackGlue.write(m, msg, freeName(m, "SerbenchMsgpackCore"), out, written);
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

  /**
   * The parts of an orchestrator-written .fbs (protocol section 7) the glue needs: each table's
   * fields in order (name, type, whether {@code = null}), each enum's base type, the root table.
   */
  static final class Fbs {
    final Map<String, List<String[]>> tables = new HashMap<>();
    final Map<String, String> enums = new HashMap<>();
    final String root;

    Fbs(String text) {
      Matcher t = Pattern.compile("(?m)^table (\\w+) \\{([^}]*)\\}").matcher(text);
      while (t.find()) {
        List<String[]> fields = new ArrayList<>();
        for (String line : t.group(2).split(";")) {
          int colon = line.indexOf(':');
          if (colon < 0) {
            continue;
          }
          String type = line.substring(colon + 1).trim();
          boolean opt = type.endsWith("= null");
          type = opt ? type.substring(0, type.length() - 6).trim() : type;
          fields.add(new String[] {line.substring(0, colon).trim(), type, opt ? "null" : ""});
        }
        tables.put(t.group(1), fields);
      }
      Matcher e = Pattern.compile("(?m)^enum (\\w+) : (\\w+) \\{").matcher(text);
      while (e.find()) {
        enums.put(e.group(1), e.group(2));
      }
      Matcher r = Pattern.compile("(?m)^root_type (\\w+);").matcher(text);
      root = r.find() ? r.group(1) : null;
    }
  }

  /**
   * flatc 2.0.8's Java name of a field: its camel case ({@code upper} for the builder methods, else
   * the accessor, whose first letter is lower-cased and a Java keyword gets {@code _}).
   */
  static String flatcName(String name, boolean upper) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (i == 0 && upper) {
        b.append(Character.toUpperCase(c));
      } else if (c == '_' && i + 1 < name.length()) {
        b.append(Character.toUpperCase(name.charAt(++i)));
      } else {
        b.append(i == 0 ? Character.toLowerCase(c) : c);
      }
    }
    String s = b.toString();
    // flatc escapes the keywords, but not the literals nor the contextual ones
    return !upper && KEYWORDS.contains(s) && !FLATC_UNESCAPED.contains(s) ? s + "_" : s;
  }

  private static final Set<String> FLATC_UNESCAPED =
      Set.of(
          "true",
          "false",
          "null",
          "var",
          "record",
          "yield",
          "sealed",
          "permits",
          "_",
          "serialVersionUID");

  /**
   * Plain Java between a user dataset's typed model and the classes flatc generates from its .fbs
   * (the record's fields and the table's by position, as protocol section 7 writes them): {@code
   * build} creates every string, vector and sub-table before starting its table, {@code read}
   * decodes fully into the model. Throws IllegalArgumentException with the reason when the .fbs
   * cannot be walked with the types, or flatc would give a field a Java name that does not compile.
   */
  static final class FlatBuffersGlue {
    private final Model m;
    final Fbs fbs;
    private final String fb;
    private final StringBuilder methods = new StringBuilder();
    private final Set<String> tablesDone = new HashSet<>();
    private final Set<String> enumsDone = new HashSet<>();
    private int helpers;

    /** {@code fbPkg}: the package of flatc's classes, with a trailing dot. */
    FlatBuffersGlue(Model m, String fbsText, String fbPkg) {
      this.m = m;
      this.fbs = new Fbs(fbsText);
      this.fb = fbPkg;
      for (Map.Entry<String, List<String[]>> t : fbs.tables.entrySet()) {
        Set<String> names = new HashSet<>();
        for (String[] f : t.getValue()) {
          String n = flatcName(f[0], false);
          if (!n.matches("[A-Za-z_$][A-Za-z0-9_$]*")
              || FLATC_UNESCAPED.contains(n)
              || n.startsWith("__")
              || !names.add(n)) {
            throw new IllegalArgumentException(
                "flatc 2.0.8 names field "
                    + t.getKey()
                    + "."
                    + f[0]
                    + " `"
                    + n
                    + "` in Java, which does not compile");
          }
        }
      }
    }

    /**
     * The glue's source (class {@code name} in the model's package) of message type {@code msg} as
     * table {@code rootTable} (a non-record message is its field 1).
     */
    String source(String name, String rootTable, String msg) {
      if (rootTable == null || !fbs.tables.containsKey(rootTable)) {
        throw new IllegalArgumentException("no root table in the .fbs");
      }
      String root = fb + rootTable;
      String rootJava;
      if (isRecord(msg)) {
        rootJava = m.named(msg);
        table(rootTable, msg);
      } else {
        // a message that is not a record: field 1 of the root table
        rootJava = m.javaType(msg, true);
        tableOf(rootTable, rootJava, List.of("x"), List.of(msg), "");
      }
      StringBuilder b = new StringBuilder(m.header());
      b.append("/** Between the typed model and flatc's classes of this dataset's .fbs. */\n");
      b.append("@java.lang.SuppressWarnings(\"unchecked\")\n");
      b.append("public final class ").append(name);
      b.append(" implements serbench.harness.FlatBuffersGlue {\n");
      b.append("  @java.lang.Override\n  public java.lang.String notApplicable() {\n");
      b.append("    return null;\n  }\n\n");
      b.append("  @java.lang.Override\n  public int build(").append(FBB).append(" b, ");
      b.append("java.lang.Object x) {\n    return b").append(rootTable).append("(b, (");
      b.append(rootJava).append(") x);\n  }\n\n");
      b.append("  @java.lang.Override\n  public java.lang.Object read(java.nio.ByteBuffer bb) {\n");
      b.append("    return r").append(rootTable).append('(').append(root).append(".getRootAs");
      b.append(rootTable).append("(bb));\n  }\n\n");
      b.append("  private static byte[] bytes(java.nio.ByteBuffer bb) {\n");
      b.append("    if (bb == null) {\n      return null;\n    }\n");
      b.append("    byte[] a = new byte[bb.remaining()];\n    bb.get(a);\n    return a;\n  }\n");
      return b.append(methods).append("}\n").toString();
    }

    /** The not-applicable glue: why flatc's classes cannot carry the dataset. */
    static String unavailable(Model m, String name, String reason) {
      return m.header()
          + "/** This dataset's .fbs has no glue: {@link #notApplicable} says why. */\n"
          + "public final class "
          + name
          + " implements serbench.harness.FlatBuffersGlue {\n"
          + "  @java.lang.Override\n  public java.lang.String notApplicable() {\n    return \""
          + esc(reason)
          + "\";\n  }\n\n  @java.lang.Override\n  public int build("
          + FBB
          + " b, java.lang.Object x) {\n    throw new java.lang.IllegalStateException();\n  }\n\n"
          + "  @java.lang.Override\n  public java.lang.Object read(java.nio.ByteBuffer bb) {\n"
          + "    throw new java.lang.IllegalStateException();\n  }\n}\n";
    }

    private static final String FBB = "com.google.flatbuffers.FlatBufferBuilder";

    private boolean isRecord(String t) {
      return m.defs.path(t).has("record");
    }

    /** The methods {@code b<Table>} and {@code r<Table>} of a record's table, once. */
    private void table(String table, String record) {
      if (!tablesDone.add(table)) {
        return;
      }
      List<String> exprs = m.fieldExprs(record);
      List<String> types = m.fieldTypes(record);
      tableOf(table, m.named(record), exprs, types, record);
    }

    /**
     * The build and read methods of {@code table} whose k-th field holds {@code exprs[k]} (of
     * types.json type {@code types[k]}); {@code record} empty for the wrapper of a non-record.
     */
    private void tableOf(
        String table, String javaType, List<String> exprs, List<String> types, String record) {
      List<String[]> fields = fbs.tables.get(table);
      if (fields == null || fields.size() != types.size()) {
        throw new IllegalArgumentException(
            "table " + table + " does not match " + (record.isEmpty() ? "the message" : record));
      }
      String c = fb + table;
      String param = record.isEmpty() ? "x" : "r";
      // The children's order (vectors, then strings, then sub-tables last field first) and the
      // adds' (largest first, last field first within a size, as flatc's create<Table>) give
      // the seeds' bytes: one rule for every dataset.
      String[] build = new String[fields.size()];
      String[] adds = new String[fields.size()];
      StringBuilder read = new StringBuilder();
      for (int k = 0; k < fields.size(); k++) {
        String[] f = fields.get(k);
        String t = types.get(k);
        boolean opt = t.startsWith("optional<");
        String base = opt ? Model.inner(t, "optional<") : t;
        String e = exprs.get(k);
        String up = flatcName(f[0], true);
        String get = "t." + flatcName(f[0], false);
        String value;
        if (isOffset(base)) {
          build[k] =
              "    int o" + k + " = " + e + " == null ? 0 : " + offset(c, f, base, e) + ";\n";
          adds[k] =
              "    if (o" + k + " != 0) {\n      " + c + ".add" + up + "(b, o" + k + ");\n    }\n";
          value = readOffset(c, f, base, get, opt);
        } else if (base.equals("null")) {
          value = "t.has" + up + "() ? (java.lang.Object) " + get + "() : null";
        } else if (opt || f[2].equals("null")) {
          // flatc 2.0.8's adder skips a value equal to the default (0) even for `= null`
          adds[k] =
              "    if ("
                  + e
                  + " != null) {\n      b.forceDefaults(true);\n      "
                  + c
                  + ".add"
                  + up
                  + "(b, "
                  + scalar(base, e)
                  + ");\n      b.forceDefaults(false);\n    }\n";
          value = "t.has" + up + "() ? " + box(base, readScalar(base, get + "()")) + " : null";
        } else {
          adds[k] = add("    ", c + ".add" + up, base, e);
          value = readScalar(base, get + "()");
        }
        if (record.isEmpty()) {
          read.append("    return ").append(value).append(";\n");
        } else {
          read.append("    r.").append(exprs.get(k).substring(2)).append(" = ").append(value);
          read.append(";\n");
        }
      }
      methods.append("\n  static int b").append(table).append('(').append(FBB).append(" b, ");
      methods.append(javaType).append(' ').append(param).append(") {\n");
      for (int rank = 0; rank < 3; rank++) {
        for (int j = 0; j < fields.size(); j++) {
          int k = rank == 2 ? fields.size() - 1 - j : j;
          if (build[k] != null && childRank(types.get(k)) == rank) {
            methods.append(build[k]);
          }
        }
      }
      methods.append("    ").append(c).append(".start").append(table).append("(b);\n");
      for (int size = 8; size > 0; size /= 2) {
        for (int k = fields.size() - 1; k >= 0; k--) {
          if (adds[k] != null && width(fields.get(k)[1]) == size) {
            methods.append(adds[k]);
          }
        }
      }
      methods.append("    return ").append(c).append(".end").append(table);
      methods.append("(b);\n  }\n");
      methods.append("\n  static ").append(javaType).append(" r").append(table).append('(');
      methods.append(c).append(" t) {\n");
      if (record.isEmpty()) {
        methods.append(read).append("  }\n");
      } else {
        methods.append("    if (t == null) {\n      return null;\n    }\n");
        methods.append("    ").append(javaType).append(" r = new ").append(javaType);
        methods.append("();\n").append(read).append("    return r;\n  }\n");
      }
    }

    /** The build order of a child of types.json type {@code t}: vector 0, string 1, table 2. */
    private int childRank(String t) {
      String base = t.startsWith("optional<") ? Model.inner(t, "optional<") : t;
      return base.equals("string") ? 1 : isRecord(base) ? 2 : 0;
    }

    /** The bytes a field of .fbs type {@code fbsType} takes in its table (an offset 4). */
    private int width(String fbsType) {
      switch (fbs.enums.getOrDefault(fbsType, fbsType)) {
        case "long":
        case "ulong":
        case "double":
        case "int64":
        case "uint64":
        case "float64":
          return 8;
        case "short":
        case "ushort":
        case "int16":
        case "uint16":
          return 2;
        case "byte":
        case "ubyte":
        case "bool":
        case "int8":
        case "uint8":
          return 1;
        default:
          return 4;
      }
    }

    private boolean isOffset(String t) {
      return t.equals("string")
          || t.equals("bytes")
          || t.startsWith("list<")
          || t.startsWith("map<")
          || isRecord(t);
    }

    /** The table a record-typed position names in the .fbs ({@code [X]} or {@code X}). */
    private static String elemType(String fbsType) {
      return fbsType.startsWith("[") ? fbsType.substring(1, fbsType.length() - 1) : fbsType;
    }

    /** Expression: the offset of the non-null value {@code e} of {@code t} in field {@code f}. */
    private String offset(String c, String[] f, String t, String e) {
      String up = flatcName(f[0], true);
      if (t.equals("string")) {
        return "b.createString(" + e + ")";
      }
      if (t.equals("bytes")) {
        return c + ".create" + up + "Vector(b, " + e + ")";
      }
      if (isRecord(t)) {
        table(f[1], t);
        return "b" + f[1] + "(b, " + e + ")";
      }
      String h = "v" + helpers++;
      StringBuilder b = new StringBuilder();
      if (t.startsWith("list<")) {
        String el = Model.inner(t, "list<");
        String elJava = m.javaType(el, true);
        b.append("\n  private static int ").append(h).append('(').append(FBB);
        b.append(" b, java.util.List<").append(elJava).append("> l) {\n");
        if (el.equals("null")) {
          // list<null> is a [bool] that stays empty: userCodec refuses an element, with its path
          b.append("    if (!l.isEmpty()) {\n      throw new java.lang.IllegalArgumentException(");
          b.append("\"flatbuffers: a null element\");\n    }\n    return ").append(c);
          b.append(".create").append(up).append("Vector(b, new boolean[0]);\n  }\n");
        } else {
          String arr = isOffset(el) ? "int" : array(el);
          b.append("    ").append(arr).append("[] a = new ").append(arr);
          b.append("[l.size()];\n    for (int i = 0; i < a.length; i++) {\n      a[i] = ");
          if (isOffset(el)) {
            b.append(elementOffset(f, el, "l.get(i)"));
          } else {
            b.append(scalar(el, "l.get(i)"));
          }
          b.append(";\n    }\n    return ").append(c).append(".create").append(up);
          b.append("Vector(b, a);\n  }\n");
        }
      } else {
        String v = Model.mapValue(t);
        String entry = fb + elemType(f[1]);
        String entryName = elemType(f[1]);
        List<String[]> ef = fbs.tables.get(entryName);
        if (ef == null || ef.size() != 2) {
          throw new IllegalArgumentException("no entry table " + entryName + " in the .fbs");
        }
        String vJava = m.javaType(v, true);
        b.append("\n  private static int ").append(h).append('(').append(FBB);
        b.append(" b, java.util.Map<java.lang.String, ").append(vJava).append("> m) {\n");
        b.append("    int[] a = new int[m.size()];\n    int i = 0;\n");
        b.append("    for (java.util.Map.Entry<java.lang.String, ").append(vJava);
        b.append("> e : m.entrySet()) {\n      int k = b.createString(e.getKey());\n");
        String[] vf = ef.get(1);
        String vUp = flatcName(vf[0], true);
        String add = "";
        if (isOffset(v)) {
          b.append("      int v = ").append(elementOffset(vf, v, "e.getValue()")).append(";\n");
          add = "      " + entry + ".add" + vUp + "(b, v);\n";
        } else if (!v.equals("null")) {
          add = add("      ", entry + ".add" + vUp, v, "e.getValue()");
        }
        String addKey = "      " + entry + ".add" + flatcName(ef.get(0)[0], true) + "(b, k);\n";
        b.append("      ").append(entry).append(".start").append(entryName).append("(b);\n");
        // as flatc's create<Entry>: the value first unless it is narrower than the key's offset
        b.append(width(vf[1]) >= 4 ? add + addKey : addKey + add);
        b.append("      a[i++] = ").append(entry).append(".end").append(entryName);
        b.append("(b);\n    }\n    return ").append(c).append(".create").append(up);
        b.append("Vector(b, a);\n  }\n");
      }
      methods.append(b);
      return h + "(b, " + e + ")";
    }

    /** The offset of a vector element or map value: a string or a sub-table. */
    private String elementOffset(String[] f, String t, String e) {
      if (t.equals("string")) {
        return "b.createString(" + e + ")";
      }
      if (!isRecord(t)) {
        throw new IllegalArgumentException(t + " inside a vector");
      }
      String table = elemType(f[1]);
      table(table, t);
      return "b" + table + "(b, " + e + ")";
    }

    /** Expression: the value of field {@code f} read with accessor {@code get} of table c. */
    private String readOffset(String c, String[] f, String t, String get, boolean opt) {
      if (t.equals("string")) {
        return get + "()";
      }
      if (t.equals("bytes")) {
        return "bytes(" + get + "AsByteBuffer())";
      }
      if (isRecord(t)) {
        return "r" + f[1] + "(" + get + "())";
      }
      String h = "r" + helpers++;
      StringBuilder b = new StringBuilder();
      String name = get.substring(2);
      if (t.startsWith("list<")) {
        String el = Model.inner(t, "list<");
        String elJava = m.javaType(el, true);
        b.append("\n  private static java.util.List<").append(elJava).append("> ").append(h);
        b.append('(').append(c).append(" t) {\n    int n = t.").append(name).append("Length();\n");
        b.append("    java.util.ArrayList<").append(elJava).append("> l = new ");
        b.append("java.util.ArrayList<>(n);\n");
        String x = "t." + name + "(j)";
        if (isRecord(el)) {
          // one accessor object pointed at each element in turn, not one per element
          b.append("    ").append(fb).append(elemType(f[1])).append(" e = new ").append(fb);
          b.append(elemType(f[1])).append("();\n");
          x = "t." + name + "(e, j)";
        }
        b.append("    for (int j = 0; j < n; j++) {\n      l.add(");
        if (el.equals("null")) {
          b.append("null");
        } else if (isRecord(el)) {
          b.append('r').append(elemType(f[1])).append('(').append(x).append(')');
        } else {
          b.append(readScalar(el, x));
        }
        b.append(");\n    }\n    return l;\n  }\n");
      } else {
        String v = Model.mapValue(t);
        String vJava = m.javaType(v, true);
        String entryName = elemType(f[1]);
        List<String[]> ef = fbs.tables.get(entryName);
        String[] vf = ef.get(1);
        String key = "e." + flatcName(ef.get(0)[0], false) + "()";
        String x = "e." + flatcName(vf[0], false) + "()";
        b.append("\n  private static java.util.Map<java.lang.String, ").append(vJava).append("> ");
        b.append(h).append('(').append(c).append(" t) {\n    int n = t.").append(name);
        b.append("Length();\n    java.util.LinkedHashMap<java.lang.String, ").append(vJava);
        // sized up front: no rehashing while the entries go in
        b.append("> m =\n        new java.util.LinkedHashMap<>((int) (n * 4L / 3 + 1));\n");
        // one accessor object each for the entries and their table values, reused
        b.append("    ").append(fb).append(entryName).append(" e = new ").append(fb);
        b.append(entryName).append("();\n");
        if (isRecord(v)) {
          b.append("    ").append(fb).append(vf[1]).append(" v = new ").append(fb);
          b.append(vf[1]).append("();\n");
        }
        b.append("    for (int j = 0; j < n; j++) {\n      t.").append(name);
        b.append("(e, j);\n      m.put(").append(key).append(", ");
        if (v.equals("null")) {
          b.append("null");
        } else if (isRecord(v)) {
          b.append('r').append(vf[1]).append('(').append(x.replace("()", "(v)")).append(')');
        } else {
          b.append(readScalar(v, x));
        }
        b.append(");\n    }\n    return m;\n  }\n");
      }
      methods.append(b);
      // a vector that may be absent: absent is null, present (even empty) a list or map
      return opt ? "t." + name + "Vector() == null ? null : " + h + "(t)" : h + "(t)";
    }

    /**
     * Statement: {@code adder(b, e)} for a scalar with a default; the builder drops a value equal
     * to it, and -0.0 equals 0.0, so a negative zero is forced in (else it reads back as 0.0).
     */
    private String add(String indent, String adder, String t, String e) {
      String call = adder + "(b, " + scalar(t, e) + ");\n";
      if (!t.equals("float32") && !t.equals("float64")) {
        return indent + call;
      }
      return indent
          + "if ("
          + e
          + " == 0 && 1 / "
          + e
          + " < 0) {\n"
          + indent
          + "  b.forceDefaults(true);\n"
          + indent
          + "  "
          + call
          + indent
          + "  b.forceDefaults(false);\n"
          + indent
          + "} else {\n"
          + indent
          + "  "
          + call
          + indent
          + "}\n";
    }

    /** The Java element type of a scalar vector ({@code create<Field>Vector}'s array). */
    private String array(String t) {
      switch (t) {
        case "int32":
          return "int";
        case "uint32":
        case "int64":
        case "uint64":
        case "timestamp_ms":
          return "long";
        case "float32":
          return "float";
        case "float64":
          return "double";
        case "bool":
          return "boolean";
        default:
          if (m.isEnum(t)) {
            return enumBase(t);
          }
          throw new IllegalArgumentException(t + " has no FlatBuffers scalar");
      }
    }

    private String enumBase(String t) {
      return "short".equals(fbs.enums.get(t)) ? "short" : "byte";
    }

    /** Expression: the model's (possibly boxed) scalar {@code e} as the builder takes it. */
    private String scalar(String t, String e) {
      if (t.equals("timestamp_ms")) {
        return e + ".toEpochMilli()";
      }
      if (m.isEnum(t)) {
        return "(" + enumBase(t) + ") " + e + ".ordinal()";
      }
      array(t);
      return e;
    }

    /** Expression: the accessor's scalar {@code e} as the model's value of {@code t}. */
    private String readScalar(String t, String e) {
      if (t.equals("timestamp_ms")) {
        return "java.time.Instant.ofEpochMilli(" + e + ")";
      }
      if (m.isEnum(t)) {
        // the constants copied once, not per read
        String field = "ENUM_" + m.named(t);
        if (enumsDone.add(field)) {
          methods.append("\n  private static final ").append(m.named(t)).append("[] ");
          methods.append(field).append(" = ").append(m.named(t)).append(".values();\n");
        }
        return field + "[" + e + "]";
      }
      return e;
    }

    /** A read scalar boxed, so {@code cond ? value : null} does not unbox the null. */
    private String box(String t, String e) {
      return t.equals("timestamp_ms") || m.isEnum(t) ? e : "(" + m.javaType(t, true) + ") " + e;
    }
  }

  /**
   * Plain Java between a built-in message's typed model and the flexbuffers row's map layout
   * ({@code serbench.model.<Id>FlexBuffers}, a {@code serbench.harness.FlexBuffersGlue}): one write
   * and one read method per record, the field names as the maps' keys, so the bytes are the ones
   * the typed tree gives a user dataset. Throws IllegalArgumentException for a type it has no
   * direct code for ({@code any}, {@code bigint}); the row then takes the typed tree.
   */
  static final class FlexBuffersGlue {
    private static final String FBB = "com.google.flatbuffers.FlexBuffersBuilder";
    private static final String REF = "com.google.flatbuffers.FlexBuffers.Reference";
    private static final String W = "serbench.harness.FlexBuffersWriter.";

    private final Model m;
    private final StringBuilder methods = new StringBuilder();
    private final Set<String> done = new HashSet<>();
    private int fresh;

    private FlexBuffersGlue(Model m) {
      this.m = m;
    }

    /** Writes the glue of message type {@code msg} as class {@code name}, or says why not. */
    static void write(Model m, String msg, String name, Path out, Map<String, String> written)
        throws IOException {
      try {
        put(
            out,
            "serbench/model/" + name + ".java",
            new FlexBuffersGlue(m).source(name, msg),
            written);
      } catch (IllegalArgumentException e) {
        System.err.println("typegen: no flexbuffers glue for " + name + ": " + e.getMessage());
      }
    }

    private String source(String name, String msg) {
      StringBuilder w = new StringBuilder();
      write(msg, "x0", "null", w, "    ");
      StringBuilder r = new StringBuilder();
      String v = read(msg, "x", r, "    ");
      StringBuilder b = new StringBuilder(m.header());
      b.append(
          "/** FlexBuffers' map layout of the typed model (serbench.harness.FlexBuffersGlue)."
              + " */\n");
      b.append("@java.lang.SuppressWarnings(\"unchecked\")\n");
      b.append("public final class ").append(name);
      b.append(" implements serbench.harness.FlexBuffersGlue {\n");
      b.append("  @java.lang.Override\n  public void write(").append(FBB);
      b.append(" b, java.lang.Object x) {\n    ").append(m.javaType(msg, true)).append(" x0 = (");
      b.append(m.javaType(msg, true)).append(") x;\n").append(w).append("  }\n\n");
      b.append("  @java.lang.Override\n  public java.lang.Object read(").append(REF);
      b.append(" x) {\n").append(r).append("    return ").append(v).append(";\n  }\n");
      return b.append(methods).append("}\n").toString();
    }

    /** Statements writing the value {@code e} of type {@code t} under {@code key} (an expr). */
    private void write(String t, String e, String key, StringBuilder b, String ind) {
      t = t.trim();
      if (t.startsWith("list<")) {
        String elem = Model.inner(t, "list<");
        String s = "s" + fresh++;
        String x = "x" + fresh++;
        b.append(ind).append("int ").append(s).append(" = ").append(W).append("startVector(b, ");
        b.append(key).append(");\n").append(ind).append("for (").append(m.javaType(elem, true));
        b.append(' ').append(x).append(" : ").append(e).append(") {\n");
        write(elem, x, "null", b, ind + "  ");
        b.append(ind).append("}\n").append(ind).append("b.endVector(").append(key).append(", ");
        b.append(s).append(", false, false);\n");
      } else if (t.startsWith("map<")) {
        String val = Model.mapValue(t);
        String s = "s" + fresh++;
        String x = "x" + fresh++;
        b.append(ind).append("int ").append(s).append(" = ").append(W).append("startMap(b, ");
        b.append(key)
            .append(");\n")
            .append(ind)
            .append("for (java.util.Map.Entry<java.lang.String, ");
        b.append(m.javaType(val, true)).append("> ").append(x).append(" : ").append(e);
        b.append(".entrySet()) {\n");
        write(val, x + ".getValue()", x + ".getKey()", b, ind + "  ");
        b.append(ind).append("}\n").append(ind).append("b.endMap(").append(key).append(", ");
        b.append(s).append(");\n");
      } else if (t.startsWith("optional<")) {
        String of = Model.inner(t, "optional<");
        String x = "x" + fresh++;
        b.append(ind).append(m.javaType(of, true)).append(' ').append(x).append(" = ").append(e);
        b.append(";\n").append(ind).append("if (").append(x).append(" == null) {\n");
        b.append(ind).append("  ").append(W).append("putNull(b, ").append(key).append(");\n");
        b.append(ind).append("} else {\n");
        write(of, x, key, b, ind + "  ");
        b.append(ind).append("}\n");
      } else if (t.equals("null")) {
        b.append(ind).append(W).append("putNull(b, ").append(key).append(");\n");
      } else if (m.isEnum(t)) {
        b.append(ind).append("b.putString(").append(key).append(", ").append(symbols(t));
        b.append('[').append(e).append(".ordinal()]);\n");
      } else if (m.defs.path(t).has("record")) {
        record(t);
        b.append(ind).append('w').append(m.named(t)).append("(b, ").append(key).append(", ");
        b.append(e).append(");\n");
      } else {
        String call = WRITES.get(t);
        if (call == null) {
          throw new IllegalArgumentException(t + " has no direct FlexBuffers code");
        }
        b.append(ind).append(call.replace("$k", key).replace("$", e)).append(";\n");
      }
    }

    private static final Map<String, String> WRITES =
        Map.ofEntries(
            Map.entry("int32", "b.putInt($k, $)"),
            Map.entry("int64", "b.putInt($k, $)"),
            Map.entry("uint32", W + "putUInt(b, $k, $)"),
            Map.entry("uint64", W + "putUInt(b, $k, $)"),
            Map.entry("timestamp_ms", "b.putInt($k, $.toEpochMilli())"),
            Map.entry("float32", "b.putFloat($k, $)"),
            Map.entry("float64", "b.putFloat($k, $)"),
            Map.entry("bool", "b.putBoolean($k, $)"),
            Map.entry("string", "b.putString($k, $)"),
            Map.entry("bytes", "b.putBlob($k, $)"));

    private static final Map<String, String> READS =
        Map.ofEntries(
            Map.entry("int32", "$.asInt()"),
            Map.entry("int64", "$.asLong()"),
            Map.entry("uint32", "$.asUInt()"),
            Map.entry("uint64", "$.asUInt()"),
            Map.entry("timestamp_ms", "java.time.Instant.ofEpochMilli($.asLong())"),
            Map.entry("float32", "(float) $.asFloat()"),
            Map.entry("float64", "$.asFloat()"),
            Map.entry("bool", "$.asBoolean()"),
            Map.entry("string", "$.asString()"),
            Map.entry("bytes", "$.asBlob().getBytes()"));

    /**
     * Appends the statements that read a value of type {@code t} from reference {@code x} and
     * returns the expression of the value, evaluated right after them.
     */
    private String read(String t, String x, StringBuilder b, String ind) {
      t = t.trim();
      if (t.startsWith("list<")) {
        String elem = Model.inner(t, "list<");
        String v = "v" + fresh++;
        String l = "l" + fresh++;
        String i = "i" + fresh++;
        String n = "n" + fresh++;
        b.append(ind).append("com.google.flatbuffers.FlexBuffers.Vector ").append(v).append(" = ");
        b.append(x).append(".asVector();\n").append(ind).append("int ").append(n).append(" = ");
        b.append(v).append(".size();\n").append(ind).append("java.util.ArrayList<");
        b.append(m.javaType(elem, true)).append("> ").append(l);
        b.append(" = new java.util.ArrayList<>(").append(n).append(");\n");
        b.append(ind).append("for (int ").append(i).append(" = 0; ").append(i).append(" < ");
        b.append(n).append("; ").append(i).append("++) {\n");
        String e = read(elem, v + ".get(" + i + ")", b, ind + "  ");
        b.append(ind).append("  ").append(l).append(".add(").append(e).append(");\n");
        b.append(ind).append("}\n");
        return l;
      }
      if (t.startsWith("map<")) {
        String val = Model.mapValue(t);
        String mp = "m" + fresh++;
        String k = "k" + fresh++;
        String v = "v" + fresh++;
        String out = "o" + fresh++;
        String i = "i" + fresh++;
        String n = "n" + fresh++;
        b.append(ind).append("com.google.flatbuffers.FlexBuffers.Map ").append(mp).append(" = ");
        b.append(x).append(".asMap();\n");
        b.append(ind).append("com.google.flatbuffers.FlexBuffers.KeyVector ").append(k);
        b.append(" = ").append(mp).append(".keys();\n");
        b.append(ind).append("com.google.flatbuffers.FlexBuffers.Vector ").append(v).append(" = ");
        b.append(mp).append(".values();\n").append(ind).append("int ").append(n).append(" = ");
        b.append(k)
            .append(".size();\n")
            .append(ind)
            .append("java.util.LinkedHashMap<java.lang.String, ");
        b.append(m.javaType(val, true)).append("> ").append(out);
        b.append(" =\n").append(ind).append("    new java.util.LinkedHashMap<>(");
        b.append("(int) (").append(n).append(" * 4L / 3 + 1));\n");
        b.append(ind).append("for (int ").append(i).append(" = 0; ").append(i).append(" < ");
        b.append(n).append("; ").append(i).append("++) {\n");
        String e = read(val, v + ".get(" + i + ")", b, ind + "  ");
        b.append(ind).append("  ").append(out).append(".put(").append(k).append(".get(").append(i);
        b.append(").toString(), ").append(e).append(");\n").append(ind).append("}\n");
        return out;
      }
      if (t.startsWith("optional<")) {
        String of = Model.inner(t, "optional<");
        String r = "r" + fresh++;
        String o = "o" + fresh++;
        b.append(ind).append(REF).append(' ').append(r).append(" = ").append(x).append(";\n");
        b.append(ind).append(m.javaType(of, true)).append(' ').append(o).append(" = null;\n");
        b.append(ind).append("if (!").append(r).append(".isNull()) {\n");
        String v = read(of, r, b, ind + "  ");
        b.append(ind).append("  ").append(o).append(" = ").append(v).append(";\n");
        b.append(ind).append("}\n");
        return o;
      }
      if (t.equals("null")) {
        return "null";
      }
      if (m.isEnum(t)) {
        symbols(t);
        return "e" + m.named(t) + "(" + x + ".asString())";
      }
      if (m.defs.path(t).has("record")) {
        record(t);
        return "r" + m.named(t) + "(" + x + ")";
      }
      String call = READS.get(t);
      if (call == null) {
        throw new IllegalArgumentException(t + " has no direct FlexBuffers code");
      }
      return call.replace("$", x);
    }

    /** The methods {@code w<Record>} and {@code r<Record>}, once. */
    private void record(String t) {
      String c = m.named(t);
      if (!done.add(t)) {
        return;
      }
      List<String> exprs = m.fieldExprs(t);
      List<String> types = m.fieldTypes(t);
      JsonNode fields = m.defs.get(t).get("record");
      StringBuilder w = new StringBuilder();
      StringBuilder r = new StringBuilder();
      for (int i = 0; i < exprs.size(); i++) {
        String key = "\"" + esc(fields.get(i).get(0).asText()) + "\"";
        write(types.get(i), exprs.get(i), key, w, "    ");
        String v = read(types.get(i), "m.get(" + key + ")", r, "    ");
        if (!types.get(i).equals("null")) {
          r.append("    ").append(exprs.get(i)).append(" = ").append(v).append(";\n");
        }
      }
      methods.append("\n  private static void w").append(c).append('(').append(FBB);
      methods.append(" b, java.lang.String key, ").append(c).append(" r) {\n");
      methods.append("    int s = ").append(W).append("startMap(b, key);\n").append(w);
      methods.append("    b.endMap(key, s);\n  }\n");
      methods.append("\n  private static ").append(c).append(" r").append(c).append('(');
      methods.append(REF).append(" x) {\n");
      methods.append("    com.google.flatbuffers.FlexBuffers.Map m = x.asMap();\n");
      methods.append("    ").append(c).append(" r = new ").append(c).append("();\n").append(r);
      methods.append("    return r;\n  }\n");
    }

    /** The name of enum {@code t}'s symbols array (and its reader {@code e<Enum>}), once. */
    private String symbols(String t) {
      String c = m.named(t);
      String name = "S_" + c;
      if (done.add("enum " + t)) {
        JsonNode syms = m.defs.get(t).get("enum");
        methods.append("\n  private static final ").append(c).append("[] E_").append(c);
        methods.append(" = ").append(c).append(".values();\n");
        methods.append("\n  private static final java.lang.String[] ").append(name).append(" = {");
        StringBuilder cases = new StringBuilder();
        for (int i = 0; i < syms.size(); i++) {
          String s = "\"" + esc(syms.get(i).asText()) + "\"";
          methods.append(i == 0 ? "" : ", ").append(s);
          cases.append("      case ").append(s).append(":\n        return E_").append(c);
          cases.append('[').append(i).append("];\n");
        }
        methods.append("};\n\n  private static ").append(c).append(" e").append(c);
        methods.append("(java.lang.String s) {\n    switch (s) {\n").append(cases);
        methods.append("      default:\n        throw new java.lang.IllegalArgumentException(");
        methods.append("\"flexbuffers: no symbol \" + s + \" in ").append(esc(t));
        methods.append("\");\n    }\n  }\n");
      }
      return name;
    }
  }

  /** protoc's Java camel case of a field name ({@code upper}: as in {@code set<Name>}). */
  static String protocName(String name, boolean upper) {
    StringBuilder b = new StringBuilder();
    boolean capNext = upper;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c >= 'a' && c <= 'z') {
        b.append(capNext ? Character.toUpperCase(c) : c);
        capNext = false;
      } else if (c >= 'A' && c <= 'Z') {
        b.append(i == 0 && !upper ? Character.toLowerCase(c) : c);
        capNext = false;
      } else if (c >= '0' && c <= '9') {
        b.append(c);
        capNext = true;
      } else {
        capNext = true;
      }
    }
    return b.toString();
  }

  /**
   * What the protobuf and thrift glue share: the schema's messages (structs) with their fields by
   * number, the record walk that matches them to the types (field k of a record is the schema's
   * k-th field, protocol section 7), and one pair of static methods per message: {@code <to>Name}
   * from the model, {@code rName} back. A family writes a field's conversion and the few lines
   * around its builder or struct.
   */
  abstract static class SchemaGlue {
    final Model m;
    final String prefix;
    private final String kind;
    private final String to;
    private final String from;

    /** Each message's fields by number: {name, schema type}. */
    private final Map<String, List<String[]>> schema = new HashMap<>();

    final StringBuilder methods = new StringBuilder();
    final Set<String> done = new HashSet<>();
    final Set<String> calls = new HashSet<>();
    private final Set<String> enums = new HashSet<>();

    /**
     * {@code prefix}: of the compiler's classes; {@code kind}: the schema's word for a record;
     * {@code to}: the to-schema methods' prefix; {@code from}: the from-schema methods' parameter.
     */
    SchemaGlue(Model m, String prefix, String kind, String to, String from) {
      this.m = m;
      this.prefix = prefix;
      this.kind = kind;
      this.to = to;
      this.from = from;
    }

    /**
     * Reads the schema's records: {@code sep} splits a body into fields, {@code field} has the
     * named groups {@code id}, {@code name} and {@code type}.
     */
    void parse(String text, Pattern field, String sep) {
      Matcher t = Pattern.compile("(?m)^" + kind + " (\\w+) \\{([^}]*)\\}").matcher(text);
      while (t.find()) {
        TreeMap<Integer, String[]> byId = new TreeMap<>();
        for (String line : t.group(2).split(sep)) {
          Matcher f = field.matcher(line.trim());
          if (f.matches()) {
            byId.put(
                Integer.parseInt(f.group("id")), new String[] {f.group("name"), f.group("type")});
          }
        }
        schema.put(t.group(1), new ArrayList<>(byId.values()));
      }
    }

    /**
     * Writes the conversions of message type {@code msg} as message {@code root} (a non-record type
     * is one field, {@code x}) and returns its Java type.
     */
    String root(String root, String msg) {
      String rootJava;
      if (m.defs.path(msg).has("record")) {
        rootJava = m.named(msg);
        record(root, msg);
      } else {
        rootJava = m.javaType(msg, true);
        convert(root, rootJava, List.of("x"), List.of(msg), "");
      }
      return rootJava;
    }

    /** Writes, once, the conversions between {@code record} and message {@code name}. */
    void record(String name, String record) {
      if (!done.add(name)) {
        return;
      }
      List<String> exprs = m.fieldExprs(record);
      List<String> types = m.fieldTypes(record);
      convert(name, m.named(record), exprs, types, record);
    }

    private void convert(
        String name, String javaType, List<String> exprs, List<String> types, String record) {
      List<String[]> fields = schema.get(name);
      if (fields == null || fields.size() != types.size()) {
        throw new IllegalArgumentException(kind + " " + name + " does not match the types");
      }
      String c = prefix + name;
      StringBuilder build = new StringBuilder();
      StringBuilder read = new StringBuilder();
      for (int k = 0; k < fields.size(); k++) {
        String t = types.get(k);
        boolean opt = t.startsWith("optional<");
        String base = opt ? Model.inner(t, "optional<") : t;
        String e = exprs.get(k);
        String value = field(name, k, fields.get(k), opt, base, e, build, read);
        if (record.isEmpty()) {
          read.append("    return ").append(value).append(";\n");
        } else {
          read.append("    r.").append(e.substring(2)).append(" = ").append(value).append(";\n");
        }
      }
      String param = record.isEmpty() ? "x" : "r";
      methods.append("\n  static ").append(c).append(' ').append(to).append(name).append('(');
      methods.append(javaType).append(' ').append(param).append(") {\n").append(start(c));
      methods.append(build).append("    return ").append(built()).append(";\n  }\n");
      methods.append("\n  static ").append(javaType).append(" r").append(name).append('(');
      methods.append(c).append(' ').append(from).append(") {\n");
      if (!record.isEmpty()) {
        methods.append(nullRecord());
        methods.append("    ").append(javaType).append(" r = new ").append(javaType);
        methods.append("();\n");
      }
      methods.append(read);
      if (!record.isEmpty()) {
        methods.append("    return r;\n");
      }
      methods.append("  }\n");
    }

    /**
     * Appends field {@code k} ({@code f}: name, schema type) of message {@code name} to the
     * to-schema method's {@code build} (the model's value is {@code e}; {@code base} its type,
     * without {@code optional<>}) and any statements to the from-schema method's {@code read};
     * returns the expression of the model's value.
     */
    abstract String field(
        String name,
        int k,
        String[] f,
        boolean opt,
        String base,
        String e,
        StringBuilder build,
        StringBuilder read);

    /** The to-schema method's first line: its builder or struct of class {@code c}. */
    abstract String start(String c);

    /** The to-schema method's result. */
    abstract String built();

    /** A from-schema method's lines before it makes a record. */
    String nullRecord() {
      return "";
    }

    /** Expression: the constant of enum {@code t} at {@code ordinal}, from a copy made once. */
    String enumOf(String t, String ordinal) {
      String field = "ENUM_" + m.named(t);
      if (enums.add(field)) {
        methods.append("\n  private static final ").append(m.named(t)).append("[] ");
        methods.append(field).append(" = ").append(m.named(t)).append(".values();\n");
      }
      return field + "[" + ordinal + "]";
    }

    /** The value type of a schema's {@code map<string, V>}. */
    static String mapValue(String schemaType) {
      return schemaType.substring(schemaType.indexOf(',') + 1, schemaType.length() - 1).trim();
    }

    /** Whether the model holds {@code t} as a Java primitive when it is not optional. */
    static boolean isPrimitive(String t) {
      switch (t) {
        case "int32":
        case "uint32":
        case "int64":
        case "uint64":
        case "float32":
        case "float64":
        case "bool":
          return true;
        default:
          return false;
      }
    }

    String box(String t, String e) {
      return isPrimitive(t) ? "(" + m.javaType(t, true) + ") " + e : e;
    }
  }

  /**
   * Plain Java between a user dataset's typed model and protoc's classes for its .proto, used by
   * the {@code protobuf} row instead of protobuf's reflection API. Written after protoc ran: every
   * method it calls is checked against protoc's Java source, and a dataset with one missing (protoc
   * renames a field that clashes with its own methods) gets no glue, so its row keeps the
   * reflective conversion.
   */
  static final class ProtobufGlue extends SchemaGlue {
    private final String javaSource;

    /** proto2's enum fields have no int accessors ({@code setXValue}): they take the enum. */
    private final boolean proto2;

    /**
     * The package prefix the seeds' build moved protoc 2.6.1's classes and runtime under ("" for
     * today's protobuf-java): that version's API and {@code harness.Protobuf2Glue}.
     */
    private final String relocated;

    ProtobufGlue(Model m, String proto, String javaSource) {
      this(m, proto, javaSource, option(proto, "java_package"), "");
    }

    /** {@code javaPackage}: where the classes of protoc's output are (relocated or not). */
    ProtobufGlue(Model m, String proto, String javaSource, String javaPackage, String relocated) {
      super(
          m, javaPackage + "." + option(proto, "java_outer_classname") + ".", "message", "m", "p");
      this.javaSource = javaSource;
      this.relocated = relocated;
      this.proto2 = proto.contains("syntax = \"proto2\";");
      parse(
          proto,
          Pattern.compile(
              "^(?:optional |required |repeated )?(?<type>.+?) (?<name>\\w+) = (?<id>\\d+)$"),
          ";");
    }

    String source(String name, String rootMessage, String msg) {
      String rootJava = root(rootMessage, msg);
      for (String c : done) {
        if (!javaSource.contains("class " + c + " ")) {
          throw new IllegalArgumentException("protoc's Java has no class " + c);
        }
      }
      for (String c : calls) {
        if (!javaSource.contains(" " + c + "(")) {
          throw new IllegalArgumentException("protoc's Java has no " + c);
        }
      }
      String p = prefix + rootMessage;
      String rt = relocated + "com.google.protobuf.";
      StringBuilder b = new StringBuilder(m.header());
      b.append("/** Between the typed model and protoc's classes of this dataset's .proto. */\n");
      b.append("public final class ").append(name).append(" implements serbench.harness.");
      b.append(relocated.isEmpty() ? "ProtobufGlue {\n" : "Protobuf2Glue {\n");
      b.append("  private static final ").append(rt).append("Parser<").append(p);
      b.append("> PARSER = ").append(p).append(relocated.isEmpty() ? ".parser()" : ".PARSER");
      b.append(";\n\n  @java.lang.Override\n  public ").append(rt).append("MessageLite toProto(");
      b.append("java.lang.Object x) {\n    return m").append(rootMessage).append("((");
      b.append(rootJava).append(") x);\n  }\n\n  @java.lang.Override\n");
      b.append("  public java.lang.Object fromProto(byte[] buf, int off, int len)\n");
      b.append("      throws ").append(rt).append("InvalidProtocolBufferException {\n");
      b.append("    return r").append(rootMessage).append("(PARSER.parseFrom(buf, off, len));\n");
      b.append("  }\n");
      return b.append(methods).append("}\n").toString();
    }

    @Override
    String start(String c) {
      return "    " + c + ".Builder b = " + c + ".newBuilder();\n";
    }

    @Override
    String built() {
      return "b.build()";
    }

    private String call(String method) {
      calls.add(method);
      return method;
    }

    @Override
    String field(
        String message,
        int k,
        String[] f,
        boolean opt,
        String base,
        String e,
        StringBuilder build,
        StringBuilder read) {
      String up = protocName(f[0], true);
      String value;
      if (base.equals("null")) {
        value = "p." + call("has" + up) + "() ? (java.lang.Object) p.get" + up + "() : null";
      } else if (base.startsWith("list<")) {
        String el = Model.inner(base, "list<");
        String elJava = m.javaType(el, true);
        if (!el.equals("null")) {
          build.append("    if (").append(e).append(" != null) {\n      for (").append(elJava);
          build.append(" e : ").append(e).append(") {\n        b.");
          build.append(call("add" + up + enumSuffix(el)));
          build.append('(').append(toProto(el, f[1], "e")).append(");\n      }\n    }\n");
        }
        String get = "p." + call("get" + up + enumSuffix(el)) + "(i)";
        read.append("    java.util.ArrayList<").append(elJava).append("> l").append(k);
        read.append(" = new java.util.ArrayList<>();\n    for (int i = 0, n = p.");
        read.append(call("get" + up + "Count")).append("(); i < n; i++) {\n      l").append(k);
        read.append(".add(").append(el.equals("null") ? "null" : fromProto(el, f[1], get));
        read.append(");\n    }\n");
        value = "l" + k;
      } else if (base.startsWith("map<")) {
        String v = Model.mapValue(base);
        String vJava = m.javaType(v, true);
        if (!v.equals("null")) {
          build.append("    if (").append(e).append(" != null) {\n      for (java.util.Map.Entry<");
          build.append("java.lang.String, ").append(vJava).append("> e : ").append(e);
          build.append(".entrySet()) {\n        b.");
          build.append(call("put" + up + enumSuffix(v)));
          build.append("(e.getKey(), ").append(toProto(v, mapValue(f[1]), "e.getValue()"));
          build.append(");\n      }\n    }\n");
        }
        read.append("    java.util.LinkedHashMap<java.lang.String, ").append(vJava);
        read.append("> m").append(k).append(" = new java.util.LinkedHashMap<>();\n");
        read.append("    for (var e : p.");
        read.append(call("get" + up + enumSuffix(v) + "Map"));
        read.append("().entrySet()) {\n      m").append(k).append(".put(e.getKey(), ");
        read.append(v.equals("null") ? "null" : fromProto(v, mapValue(f[1]), "e.getValue()"));
        read.append(");\n    }\n");
        value = "m" + k;
      } else {
        boolean primitive = !opt && isPrimitive(base);
        if (!primitive) {
          build.append("    if (").append(e).append(" != null) {\n  ");
        }
        build.append("    b.").append(call("set" + up + enumSuffix(base)));
        build.append('(').append(toProto(base, f[1], e)).append(");\n");
        if (!primitive) {
          build.append("    }\n");
        }
        String get = "p." + call("get" + up + enumSuffix(base)) + "()";
        value = fromProto(base, f[1], get);
        if (opt || m.defs.path(base).has("record")) {
          value = "p." + call("has" + up) + "() ? " + box(base, value) + " : null";
        }
      }
      return value;
    }

    /** The accessors' suffix of a field of type {@code t}: enums' int accessors in proto3. */
    private String enumSuffix(String t) {
      return m.isEnum(t) && !proto2 ? "Value" : "";
    }

    /**
     * Expression: the model's value {@code e} of {@code t} as protoc's setter takes it for the
     * .proto's {@code protoType} (a bool the types file's {@code schema.field_types} makes an
     * integer is 0 or 1).
     */
    private String toProto(String t, String protoType, String e) {
      switch (t) {
        case "uint32":
          return "(int) (long) " + e;
        case "bool":
          return protoType.equals("bool") ? e : "(" + e + " ? 1 : 0)";
        case "timestamp_ms":
          return e + ".toEpochMilli()";
        case "bytes":
          return relocated + "com.google.protobuf.ByteString.copyFrom(" + e + ")";
        case "int32":
        case "int64":
        case "uint64":
        case "float32":
        case "float64":
        case "string":
          return e;
        default:
          if (m.isEnum(t)) {
            if (!proto2) {
              return e + ".ordinal()";
            }
            // protobuf-java 2.6.1 has valueOf(int) only
            return prefix
                + protoType
                + (relocated.isEmpty() ? ".forNumber(" : ".valueOf(")
                + e
                + ".ordinal())";
          }
          if (!m.defs.path(t).has("record")) {
            throw new IllegalArgumentException(t + " has no protobuf type");
          }
          record(protoType, t);
          return "m" + protoType + "(" + e + ")";
      }
    }

    /** Expression: protoc's value {@code x} (a getter's) as the model's value of {@code t}. */
    private String fromProto(String t, String protoType, String x) {
      switch (t) {
        case "uint32":
          return "java.lang.Integer.toUnsignedLong(" + x + ")";
        case "bool":
          return protoType.equals("bool") ? x : x + " != 0";
        case "timestamp_ms":
          return "java.time.Instant.ofEpochMilli(" + x + ")";
        case "bytes":
          return x + ".toByteArray()";
        default:
          if (m.isEnum(t)) {
            return enumOf(t, proto2 ? x + ".getNumber()" : x);
          }
          if (m.defs.path(t).has("record")) {
            record(protoType, t);
            return "r" + protoType + "(" + x + ")";
          }
          return x;
      }
    }
  }

  /**
   * Plain Java between a user dataset's typed model and the structs thrift generates from its
   * .thrift, used by the {@code thrift} row instead of libthrift's field metadata. Written after
   * thrift ran: every method it calls is checked against the struct's generated source; a dataset
   * with one missing keeps the reflective conversion.
   */
  static final class ThriftGlue extends SchemaGlue {
    private final Path javaDir;
    private int helpers;

    ThriftGlue(Model m, String thrift, Path javaDir) {
      super(m, namespace(thrift) + ".", "struct", "t", "s");
      this.javaDir = javaDir;
      // the split leaves the last field its comma
      parse(
          thrift,
          Pattern.compile("^(?<id>\\d+): (?:required|optional) (?<type>.+?) (?<name>\\w+),?$"),
          ",\\s*\\n");
    }

    String source(String name, String root, String msg) throws IOException {
      String rootJava = root(root, msg);
      for (String c : calls) {
        String[] sm = c.split("#");
        Path src = javaDir.resolve(sm[0] + ".java");
        if (!Files.isRegularFile(src) || !Files.readString(src).contains(" " + sm[1] + "(")) {
          throw new IllegalArgumentException("thrift's Java has no " + sm[0] + "." + sm[1]);
        }
      }
      String s = prefix + root;
      StringBuilder b = new StringBuilder(m.header());
      b.append("/** Between the typed model and thrift's structs of this dataset's .thrift. */\n");
      b.append("public final class ").append(name);
      b.append(" implements serbench.harness.ThriftGlue {\n");
      b.append("  @java.lang.Override\n  public org.apache.thrift.TBase<?, ?> toThrift(");
      b.append("java.lang.Object x) {\n    return t").append(root).append("((");
      b.append(rootJava).append(") x);\n  }\n\n");
      b.append("  @java.lang.Override\n  public org.apache.thrift.TBase<?, ?> newRoot() {\n");
      b.append("    return new ").append(s).append("();\n  }\n\n");
      b.append("  @java.lang.Override\n  public java.lang.Object fromThrift(");
      b.append("org.apache.thrift.TBase<?, ?> x) {\n    return r").append(root).append("((");
      b.append(s).append(") x);\n  }\n");
      return b.append(methods).append("}\n").toString();
    }

    @Override
    String start(String c) {
      return "    " + c + " s = new " + c + "();\n";
    }

    @Override
    String built() {
      return "s";
    }

    /** Unlike protoc's getters, thrift's return null for an unset struct field. */
    @Override
    String nullRecord() {
      return "    if (s == null) {\n      return null;\n    }\n";
    }

    /** The .thrift's Java namespace. */
    static String namespace(String thrift) {
      Matcher ns = Pattern.compile("(?m)^namespace java (\\S+)").matcher(thrift);
      if (!ns.find()) {
        throw new IllegalArgumentException("the .thrift has no Java namespace");
      }
      return ns.group(1);
    }

    private String call(String struct, String method) {
      calls.add(struct + "#" + method);
      return method;
    }

    private static String cap(String name) {
      return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    @Override
    String field(
        String struct,
        int k,
        String[] f,
        boolean opt,
        String base,
        String e,
        StringBuilder build,
        StringBuilder read) {
      String up = cap(f[0]);
      String isSet = "s." + call(struct, "isSet" + up) + "()";
      String get = "s." + call(struct, (f[1].equals("bool") ? "is" : "get") + up) + "()";
      String value;
      if (base.equals("null")) {
        value = isSet + " ? (java.lang.Object) " + get + " : null";
      } else {
        boolean primitive = !opt && isPrimitive(base);
        build.append(primitive ? "" : "    if (" + e + " != null) {\n  ");
        build.append("    s.").append(call(struct, "set" + up)).append('(');
        build.append(toThrift(base, f[1], e, k)).append(");\n");
        build.append(primitive ? "" : "    }\n");
        value = fromThrift(base, f[1], get, k);
        value = primitive ? value : isSet + " ? " + box(base, value) + " : null";
      }
      return value;
    }

    /** The boxed Java type thrift uses for a .thrift type (list elements, map values). */
    private String boxed(String tt) {
      switch (tt) {
        case "i32":
          return "java.lang.Integer";
        case "i64":
          return "java.lang.Long";
        case "double":
          return "java.lang.Double";
        case "bool":
          return "java.lang.Boolean";
        case "string":
          return "java.lang.String";
        case "binary":
          return "java.nio.ByteBuffer";
        default:
          if (tt.startsWith("list<") || tt.startsWith("map<")) {
            throw new IllegalArgumentException("nested container " + tt);
          }
          return prefix + tt;
      }
    }

    /**
     * Whether a list or map holds the same Java values in the model and in thrift's struct (a
     * {@code list<string>}, a {@code map<string,int32>}): then it is passed as it is, not copied.
     */
    private boolean sameContainer(String t, String tt) {
      String el = t.startsWith("list<") ? Model.inner(t, "list<") : Model.mapValue(t);
      String ett = t.startsWith("list<") ? listElem(tt) : mapValue(tt);
      return toThrift(el, ett, "v", -1).equals("v")
          && fromThrift(el, ett, "v", -1).equals("v")
          && boxed(ett).equals(m.javaType(el, true));
    }

    private static String listElem(String tt) {
      return tt.substring(tt.indexOf('<') + 1, tt.length() - 1).trim();
    }

    /** A helper method's call converting a model list or map {@code e} to thrift's. */
    private String toThrift(String t, String tt, String e, int k) {
      switch (t) {
        case "int32":
        case "uint32":
        case "int64":
        case "float64":
        case "bool":
        case "string":
          return e;
        case "float32":
          return "(double) " + e;
        case "timestamp_ms":
          return e + ".toEpochMilli()";
        case "bytes":
          return tt.equals("binary") && k < 0 ? "java.nio.ByteBuffer.wrap(" + e + ")" : e;
        default:
          break;
      }
      if (m.isEnum(t)) {
        return prefix + tt + ".findByValue(" + e + ".ordinal())";
      }
      if (m.defs.path(t).has("record")) {
        record(tt, t);
        return "t" + tt + "(" + e + ")";
      }
      if (sameContainer(t, tt)) {
        return e;
      }
      String h = "tc" + helpers++;
      StringBuilder b = new StringBuilder();
      if (t.startsWith("list<")) {
        String el = Model.inner(t, "list<");
        String ett = listElem(tt);
        b.append("\n  private static java.util.List<").append(boxed(ett)).append("> ").append(h);
        b.append("(java.util.List<").append(m.javaType(el, true)).append("> l) {\n");
        b.append("    java.util.ArrayList<").append(boxed(ett)).append("> a = ");
        b.append("new java.util.ArrayList<>(l.size());\n    for (").append(m.javaType(el, true));
        b.append(" v : l) {\n      a.add(").append(toThrift(el, ett, "v", -1));
        b.append(");\n    }\n    return a;\n  }\n");
      } else {
        String v = Model.mapValue(t);
        String vtt = mapValue(tt);
        // a HashMap, as thrift's generated code makes for a map field (its read, its copies)
        b.append("\n  private static java.util.Map<java.lang.String, ").append(boxed(vtt));
        b.append("> ").append(h).append("(java.util.Map<java.lang.String, ");
        b.append(m.javaType(v, true)).append("> m) {\n    java.util.HashMap<");
        b.append("java.lang.String, ").append(boxed(vtt)).append("> a = ");
        b.append("new java.util.HashMap<>();\n    for (java.util.Map.Entry<");
        b.append("java.lang.String, ").append(m.javaType(v, true));
        b.append("> e : m.entrySet()) {\n      a.put(e.getKey(), ");
        b.append(toThrift(v, vtt, "e.getValue()", -1)).append(");\n    }\n    return a;\n  }\n");
      }
      methods.append(b);
      return h + "(" + e + ")";
    }

    /** Expression: thrift's value {@code x} as the model's value of {@code t}. */
    private String fromThrift(String t, String tt, String x, int k) {
      switch (t) {
        case "int32":
        case "uint32":
        case "int64":
        case "float64":
        case "bool":
        case "string":
          return x;
        case "float32":
          return "(float) (double) " + x;
        case "timestamp_ms":
          return "java.time.Instant.ofEpochMilli(" + x + ")";
        case "bytes":
          return k < 0 ? "org.apache.thrift.TBaseHelper.byteBufferToByteArray(" + x + ")" : x;
        default:
          break;
      }
      if (m.isEnum(t)) {
        return enumOf(t, x + ".getValue()");
      }
      if (m.defs.path(t).has("record")) {
        record(tt, t);
        return "r" + tt + "(" + x + ")";
      }
      if (sameContainer(t, tt)) {
        return x;
      }
      String h = "rc" + helpers++;
      StringBuilder b = new StringBuilder();
      if (t.startsWith("list<")) {
        String el = Model.inner(t, "list<");
        String ett = listElem(tt);
        b.append("\n  private static java.util.List<").append(m.javaType(el, true)).append("> ");
        b.append(h).append("(java.util.List<").append(boxed(ett)).append("> l) {\n");
        b.append("    java.util.ArrayList<").append(m.javaType(el, true)).append("> a = ");
        b.append("new java.util.ArrayList<>(l.size());\n    for (").append(boxed(ett));
        b.append(" v : l) {\n      a.add(").append(fromThrift(el, ett, "v", -1));
        b.append(");\n    }\n    return a;\n  }\n");
      } else {
        String v = Model.mapValue(t);
        String vtt = mapValue(tt);
        b.append("\n  private static java.util.Map<java.lang.String, ").append(m.javaType(v, true));
        b.append("> ").append(h).append("(java.util.Map<java.lang.String, ").append(boxed(vtt));
        b.append("> m) {\n    java.util.LinkedHashMap<java.lang.String, ");
        b.append(m.javaType(v, true)).append("> a = new java.util.LinkedHashMap<>();\n");
        b.append("    for (java.util.Map.Entry<java.lang.String, ").append(boxed(vtt));
        b.append("> e : m.entrySet()) {\n      a.put(e.getKey(), ");
        b.append(fromThrift(v, vtt, "e.getValue()", -1)).append(");\n    }\n    return a;\n  }\n");
      }
      methods.append(b);
      return h + "(" + x + ")";
    }
  }

  /**
   * The {@code handwritten} row's codec of a types file's messages ({@code serbench.harness.Wire}'s
   * layout), written beside its model as a {@code serbench.harness.Codec}: one write and one read
   * method per record, field by field in the file's order, as a person writes it by hand. A message
   * that reaches an {@code any} value has no codec: its reason names the path.
   */
  static final class Handwritten {
    /**
     * What a types file cannot say: S1's Parcelable stand-in writes an enum in one byte (every
     * other dataset in four, as the other runners' handwritten rows do).
     */
    static final Map<String, Integer> SEED_ENUM_WIDTH = Map.of("android-users", 1);

    private static final String W = "serbench.harness.Wire.";

    private final Model m;
    private final String name;
    private final int enumWidth;
    private int fresh;

    Handwritten(Model m, String name, int enumWidth) {
      this.m = m;
      this.name = name;
      this.enumWidth = enumWidth;
    }

    /** The first path from {@code t} to an {@code any} value, or null. */
    String anyPath(String t, String path, Set<String> seen) {
      t = t.trim();
      if (t.equals("any")) {
        return path;
      }
      if (t.startsWith("list<")) {
        return anyPath(Model.inner(t, "list<"), path + "[*]", seen);
      }
      if (t.startsWith("map<")) {
        return anyPath(Model.mapValue(t), path + "[\"*\"]", seen);
      }
      if (t.startsWith("optional<")) {
        return anyPath(Model.inner(t, "optional<"), path, seen);
      }
      if (!m.defs.path(t).has("record") || !seen.add(t)) {
        return null;
      }
      for (JsonNode f : m.defs.get(t).get("record")) {
        String found = anyPath(f.get(1).asText(), path + pathKey(f.get(0).asText()), seen);
        if (found != null) {
          return found;
        }
      }
      return null;
    }

    /**
     * A field's step in a path, as the orchestrator writes it: {@code .name} or {@code ["a b"]}.
     */
    static String pathKey(String k) {
      if (k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        return "." + k;
      }
      return "[\"" + k.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
    }

    /** Why message type {@code t} has no codec, or null. */
    String reason(String t) {
      String path = anyPath(t, "$", new HashSet<>());
      return path == null
          ? null
          : "handwritten: "
              + path
              + " is any (JSON of any shape): a field-by-field layout needs its type; give it one"
              + " in the types file and add the dataset again with --types";
    }

    /** The message types that have a codec, in the order of their index in the codec class. */
    List<String> carried() {
      List<String> out = new ArrayList<>();
      for (String t : new java.util.TreeSet<>(m.messages("").values())) {
        if (reason(t) == null) {
          out.add(t);
        }
      }
      return out;
    }

    /** The model's {@code handwritten()}: the codec of its message, or why there is none. */
    String modelMethod() {
      StringBuilder b = new StringBuilder();
      b.append("\n  @java.lang.Override\n  public serbench.harness.Codec handwritten()\n");
      b.append("      throws serbench.harness.NotApplicableException {\n");
      b.append("    switch (message) {\n");
      List<String> carried = carried();
      for (String t : new java.util.TreeSet<>(m.messages("").values())) {
        b.append("      case \"").append(esc(t)).append("\":\n");
        int k = carried.indexOf(t);
        if (k >= 0) {
          b.append("        return new ").append(name).append('(').append(k).append(");\n");
        } else {
          b.append("        throw new serbench.harness.NotApplicableException(\n");
          b.append("            \"").append(esc(reason(t))).append("\");\n");
        }
      }
      b.append("      default:\n        throw new java.lang.IllegalStateException(message);\n");
      return b.append("    }\n  }\n").toString();
    }

    /** The codec class. */
    String source() {
      List<String> carried = carried();
      Set<String> records = new java.util.LinkedHashSet<>();
      for (String t : carried) {
        reach(t, records);
      }
      StringBuilder b = new StringBuilder(m.header());
      b.append(
          "/** The handwritten row's field-by-field codec (serbench.harness.Wire's layout). */\n");
      b.append("final class ").append(name).append(" implements serbench.harness.Codec {\n");
      for (Map.Entry<String, String> e : m.classOf.entrySet()) {
        if (m.isEnum(e.getKey())) {
          String c = e.getValue();
          b.append("  private static final ").append(c).append("[] E_").append(c);
          b.append(" = ").append(c).append(".values();\n");
        }
      }
      b.append("\n  private final int message;\n\n  ").append(name).append("(int message) {\n");
      b.append("    this.message = message;\n  }\n\n");
      b.append("  @java.lang.Override\n  @java.lang.SuppressWarnings(\"unchecked\")\n");
      b.append("  public void encode(java.lang.Object x, serbench.harness.Buf o) {\n");
      b.append("    switch (message) {\n");
      StringBuilder read = new StringBuilder();
      StringBuilder methods = new StringBuilder();
      for (int k = 0; k < carried.size(); k++) {
        String t = carried.get(k);
        String jt = m.javaType(t, true);
        b.append("      case ").append(k).append(":\n        ");
        read.append("      case ").append(k).append(":\n        v = ");
        if (m.defs.path(t).has("record")) {
          b.append('w').append(jt).append("(o, (").append(jt).append(") x);\n");
          read.append('r').append(jt).append("(in);\n");
        } else {
          b.append("encode").append(k).append("(o, (").append(jt).append(") x);\n");
          read.append("decode").append(k).append("(in);\n");
          methods
              .append("\n  private static void encode")
              .append(k)
              .append("(serbench.harness.Buf o, ");
          methods.append(jt).append(" x) {\n");
          write(t, "x", methods, "    ");
          methods.append("  }\n\n  private static ").append(jt).append(" decode").append(k);
          methods.append("(serbench.harness.Wire.Reader in) {\n");
          StringBuilder body = new StringBuilder();
          String v = read(t, body, "    ");
          methods.append(body).append("    return ").append(v).append(";\n  }\n");
        }
        b.append("        return;\n");
        read.append("        break;\n");
      }
      b.append(
          "      default:\n        throw new java.lang.IllegalStateException();\n    }\n  }\n\n");
      b.append("  @java.lang.Override\n");
      b.append("  public java.lang.Object decode(byte[] buf, int off, int len) {\n");
      b.append(
          "    serbench.harness.Wire.Reader in = new serbench.harness.Wire.Reader(buf, off,"
              + " len);\n");
      b.append("    java.lang.Object v;\n    switch (message) {\n").append(read);
      b.append("      default:\n        throw new java.lang.IllegalStateException();\n    }\n");
      b.append("    in.end();\n    return v;\n  }\n").append(methods);
      for (String rec : records) {
        String c = m.named(rec);
        List<String> exprs = m.fieldExprs(rec);
        List<String> types = m.fieldTypes(rec);
        b.append("\n  private static void w").append(c).append("(serbench.harness.Buf o, ");
        b.append(c).append(" r) {\n");
        for (int i = 0; i < exprs.size(); i++) {
          write(types.get(i), exprs.get(i), b, "    ");
        }
        b.append("  }\n\n  private static ").append(c).append(" r").append(c);
        b.append("(serbench.harness.Wire.Reader in) {\n");
        b.append("    ").append(c).append(" r = new ").append(c).append("();\n");
        for (int i = 0; i < exprs.size(); i++) {
          String v = read(types.get(i), b, "    ");
          if (!types.get(i).equals("null")) {
            b.append("    ").append(exprs.get(i)).append(" = ").append(v).append(";\n");
          }
        }
        b.append("    return r;\n  }\n");
      }
      return b.append("}\n").toString();
    }

    /** Adds the records {@code t} reaches to {@code out}. */
    private void reach(String t, Set<String> out) {
      t = t.trim();
      if (t.startsWith("list<")) {
        reach(Model.inner(t, "list<"), out);
      } else if (t.startsWith("map<")) {
        reach(Model.mapValue(t), out);
      } else if (t.startsWith("optional<")) {
        reach(Model.inner(t, "optional<"), out);
      } else if (m.defs.path(t).has("record") && out.add(t)) {
        for (String f : m.fieldTypes(t)) {
          reach(f, out);
        }
      }
    }

    /** Statements writing the value {@code e} of type {@code t} to {@code o}. */
    private void write(String t, String e, StringBuilder b, String ind) {
      t = t.trim();
      if (t.startsWith("list<")) {
        String elem = Model.inner(t, "list<");
        String l = "l" + fresh++;
        b.append(ind).append(m.javaType(t, true)).append(' ').append(l).append(" = ");
        b.append(e).append(";\n").append(ind).append(W).append("i32(o, ").append(l);
        b.append(".size());\n");
        if (!elem.equals("null")) { // list<null>: the count says it all
          String x = "x" + fresh++;
          b.append(ind).append("for (").append(m.javaType(elem, true)).append(' ').append(x);
          b.append(" : ").append(l).append(") {\n");
          write(elem, x, b, ind + "  ");
          b.append(ind).append("}\n");
        }
      } else if (t.startsWith("map<")) {
        String val = Model.mapValue(t);
        String x = "x" + fresh++;
        b.append(ind).append(m.javaType(t, true)).append(' ').append(x).append(" = ");
        b.append(e).append(";\n").append(ind).append(W).append("i32(o, ").append(x);
        b.append(".size());\n");
        String en = "e" + fresh++;
        b.append(ind).append("for (java.util.Map.Entry<java.lang.String, ");
        b.append(m.javaType(val, true)).append("> ").append(en).append(" : ").append(x);
        b.append(".entrySet()) {\n").append(ind).append("  ").append(W).append("str(o, ");
        b.append(en).append(".getKey());\n");
        write(val, en + ".getValue()", b, ind + "  ");
        b.append(ind).append("}\n");
      } else if (t.startsWith("optional<")) {
        String of = Model.inner(t, "optional<");
        String x = "x" + fresh++;
        b.append(ind).append(m.javaType(of, true)).append(' ').append(x).append(" = ");
        b.append(e).append(";\n").append(ind).append(W).append("bool(o, ").append(x);
        b.append(" != null);\n").append(ind).append("if (").append(x).append(" != null) {\n");
        write(of, x, b, ind + "  ");
        b.append(ind).append("}\n");
      } else if (t.equals("null")) {
        // nothing: the type says the value
      } else if (m.isEnum(t)) {
        if (enumWidth == 1 && m.defs.get(t).get("enum").size() > 256) {
          throw new IllegalArgumentException("enum " + t + " has more symbols than one byte holds");
        }
        b.append(ind).append(W).append(enumWidth == 1 ? "u8" : "i32").append("(o, ").append(e);
        b.append(".ordinal());\n");
      } else if (m.defs.path(t).has("record")) {
        b.append(ind).append('w').append(m.named(t)).append("(o, ").append(e).append(");\n");
      } else {
        String call = PRIMITIVE_WRITES.get(t);
        if (call == null) {
          throw new IllegalArgumentException("handwritten: no layout for " + t);
        }
        b.append(ind).append(W).append(call.replace("$", e)).append(";\n");
      }
    }

    private static final Map<String, String> PRIMITIVE_WRITES =
        Map.ofEntries(
            Map.entry("int32", "i32(o, $)"),
            Map.entry("uint32", "i32(o, (int) (long) $)"),
            Map.entry("int64", "i64(o, $)"),
            Map.entry("uint64", "i64(o, $)"),
            Map.entry("timestamp_ms", "i64(o, $.toEpochMilli())"),
            Map.entry("float32", "f32(o, $)"),
            Map.entry("float64", "f64(o, $)"),
            Map.entry("bool", "bool(o, $)"),
            Map.entry("string", "str(o, $)"),
            Map.entry("bytes", "bytes(o, $)"),
            Map.entry("bigint", "bigint(o, $)"));

    private static final Map<String, String> PRIMITIVE_READS =
        Map.ofEntries(
            Map.entry("int32", "in.i32()"),
            Map.entry("uint32", "in.u32()"),
            Map.entry("int64", "in.i64()"),
            Map.entry("uint64", "in.i64()"),
            Map.entry("timestamp_ms", "java.time.Instant.ofEpochMilli(in.i64())"),
            Map.entry("float32", "in.f32()"),
            Map.entry("float64", "in.f64()"),
            Map.entry("bool", "in.bool()"),
            Map.entry("string", "in.str()"),
            Map.entry("bytes", "in.bytes()"),
            Map.entry("bigint", "in.bigint()"));

    /**
     * Appends the statements that read a value of type {@code t} from {@code in} and returns the
     * expression of the value, evaluated right after them.
     */
    private String read(String t, StringBuilder b, String ind) {
      t = t.trim();
      if (t.startsWith("list<")) {
        String elem = Model.inner(t, "list<");
        String je = m.javaType(elem, true);
        String n = "n" + fresh++;
        String l = "l" + fresh++;
        String i = "i" + fresh++;
        b.append(ind).append("int ").append(n).append(" = in.count();\n");
        b.append(ind).append("java.util.ArrayList<").append(je).append("> ").append(l);
        b.append(" = new java.util.ArrayList<>(in.capacity(").append(n).append("));\n");
        b.append(ind).append("for (int ").append(i).append(" = 0; ").append(i).append(" < ");
        b.append(n).append("; ").append(i).append("++) {\n");
        String v = read(elem, b, ind + "  ");
        b.append(ind).append("  ").append(l).append(".add(").append(v).append(");\n");
        b.append(ind).append("}\n");
        return l;
      }
      if (t.startsWith("map<")) {
        String val = Model.mapValue(t);
        String n = "n" + fresh++;
        String x = "x" + fresh++;
        String i = "i" + fresh++;
        String k = "k" + fresh++;
        b.append(ind).append("int ").append(n).append(" = in.count();\n");
        b.append(ind).append("java.util.LinkedHashMap<java.lang.String, ");
        b.append(m.javaType(val, true)).append("> ").append(x);
        b.append(" =\n").append(ind).append("    new java.util.LinkedHashMap<>(in.mapCapacity(");
        b.append(n).append("));\n");
        b.append(ind).append("for (int ").append(i).append(" = 0; ").append(i).append(" < ");
        b.append(n).append("; ").append(i).append("++) {\n");
        b.append(ind).append("  java.lang.String ").append(k).append(" = in.str();\n");
        String v = read(val, b, ind + "  ");
        b.append(ind).append("  ").append(x).append(".put(").append(k).append(", ").append(v);
        b.append(");\n").append(ind).append("}\n");
        return x;
      }
      if (t.startsWith("optional<")) {
        String of = Model.inner(t, "optional<");
        String x = "x" + fresh++;
        b.append(ind).append(m.javaType(of, true)).append(' ').append(x).append(" = null;\n");
        b.append(ind).append("if (in.present()) {\n");
        String v = read(of, b, ind + "  ");
        b.append(ind).append("  ").append(x).append(" = ").append(v).append(";\n");
        b.append(ind).append("}\n");
        return x;
      }
      if (t.equals("null")) {
        return "null";
      }
      if (m.isEnum(t)) {
        String c = m.named(t);
        return "in.symbol(E_" + c + ", " + (enumWidth == 1 ? "in.u8()" : "in.i32()") + ")";
      }
      if (m.defs.path(t).has("record")) {
        return "r" + m.named(t) + "(in)";
      }
      String call = PRIMITIVE_READS.get(t);
      if (call == null) {
        throw new IllegalArgumentException("handwritten: no layout for " + t);
      }
      return call;
    }
  }

  /** One types file's classes and model. */
  static final class Model {
    final JsonNode root;
    final JsonNode defs;
    final String pkg;
    final String className;
    final Map<String, String> classOf = new LinkedHashMap<>();

    /** The bytes of an enum in the handwritten layout ({@link Handwritten#SEED_ENUM_WIDTH}). */
    int enumWidth = 4;

    private Handwritten handwritten;

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

    /** {@code r.<field>} for each field of {@code record}, in order (the glue's field walk). */
    List<String> fieldExprs(String record) {
      List<String> exprs = new ArrayList<>();
      for (String id : fieldIds(defs.get(record).get("record"))) {
        exprs.add("r." + id);
      }
      return exprs;
    }

    /** The types.json type of each field of {@code record}, in order. */
    List<String> fieldTypes(String record) {
      List<String> types = new ArrayList<>();
      for (JsonNode f : defs.get(record).get("record")) {
        types.add(f.get(1).asText().trim());
      }
      return types;
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
      handwritten =
          new Handwritten(
              this, freeName(this, className.replace("Model", "Handwritten")), enumWidth);
      for (Map.Entry<String, String> e : classOf.entrySet()) {
        JsonNode d = defs.get(e.getKey());
        String src =
            d.has("enum") ? enumSource(e.getValue(), d.get("enum")) : recordSource(e.getValue(), d);
        put(out, dir + e.getValue() + ".java", src, written);
      }
      if (!handwritten.carried().isEmpty()) {
        put(out, dir + handwritten.name + ".java", handwritten.source(), written);
      }
      put(out, dir + className + ".java", modelSource(typesBytes), written);
    }

    String header() {
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
      b.append(handwritten.modelMethod());
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

/**
 * The built-in messages' glue for the avro and protobuf@2.6.1 rows (after TypeGen's protobuf and
 * thrift glue in {@code --glue}): {@code serbench.model.<Id>Avro} from the family's .avsc, and
 * {@code <Id>Protobuf2} where the seeds' build ran protoc 2.6.1 on the family's (proto2) .proto.
 */
final class BuiltinGlue {
  private BuiltinGlue() {}

  /** seeds/pom.xml relocates protobuf-java 2.6.1 and protoc's {@code serbench.*} classes here. */
  private static final String SEEDS_PROTOBUF = "serbench.seeds.protobuf261.";

  static void write(
      TypeGen.Model m,
      String msg,
      String name,
      Path schemaDir,
      Path seedsProtocOut,
      Path out,
      Map<String, String> written)
      throws IOException {
    String dir = m.pkg.replace('.', '/') + "/";
    Path avsc = TypeGen.schemaFile(schemaDir, ".avsc");
    if (avsc != null) {
      try {
        org.apache.avro.Schema s = new org.apache.avro.Schema.Parser().parse(avsc.toFile());
        TypeGen.put(
            out, dir + name + "Avro.java", new AvroGlue(m).source(name + "Avro", s, msg), written);
      } catch (IllegalArgumentException | org.apache.avro.SchemaParseException e) {
        System.err.println("typegen: no avro glue for " + avsc + ": " + e.getMessage());
      }
    }
    Path proto = TypeGen.schemaFile(schemaDir, ".proto");
    if (proto == null || seedsProtocOut == null) {
      return;
    }
    String text = Files.readString(proto);
    String pkg = TypeGen.option(text, "java_package");
    Path java =
        seedsProtocOut.resolve(
            pkg.replace('.', '/') + "/" + TypeGen.option(text, "java_outer_classname") + ".java");
    if (!Files.isRegularFile(java) || !pkg.startsWith("serbench.")) {
      return; // protoc 2.6.1 compiles the proto2 schemas only
    }
    try {
      String src =
          new TypeGen.ProtobufGlue(
                  m,
                  text,
                  Files.readString(java),
                  SEEDS_PROTOBUF + pkg.substring("serbench.".length()),
                  SEEDS_PROTOBUF)
              .source(name + "Protobuf2", TypeGen.rootMessage(m, msg), msg);
      TypeGen.put(out, dir + name + "Protobuf2.java", src, written);
    } catch (IllegalArgumentException e) {
      System.err.println("typegen: no protobuf@2.6.1 glue for " + proto + ": " + e.getMessage());
    }
  }
}

/**
 * Plain Java between a built-in message's typed model and Avro generic records of its family's
 * .avsc (a {@code harness.AvroGlue}), instead of a walk over the typed generic tree: the types and
 * the parsed schema side by side, field k of a record being the schema's field k. The schema says
 * what the bytes are (types.json's {@code schema} already shaped it: {@code avro_root} wraps a
 * message that is not a record in the root record's one field, {@code field_types.avro} narrows a
 * uint32 to an Avro int, written as its 32 bits); an optional is a union with null, an enum its
 * symbol (the same order as types.json's), timestamp_ms a long, bytes a ByteBuffer. A list or map
 * whose values Avro takes as they are is passed on, not copied; a converted map is a HashMap, as
 * the hand-written conversion had it. Anything else throws (the row then keeps the generic walk).
 */
final class AvroGlue {
  private static final String GD = "org.apache.avro.generic.GenericData";
  private final TypeGen.Model m;
  private final StringBuilder fields = new StringBuilder();
  private final StringBuilder init = new StringBuilder();
  private final StringBuilder methods = new StringBuilder();
  private final Set<String> done = new HashSet<>();
  private int helpers;

  AvroGlue(TypeGen.Model m) {
    this.m = m;
  }

  /** The glue's source: class {@code name} for message type {@code msg} of the .avsc {@code s}. */
  String source(String name, org.apache.avro.Schema avsc, String msg) {
    org.apache.avro.Schema s = avsc;
    String se = "avsc";
    boolean wrapped = false;
    if (s.getType() == org.apache.avro.Schema.Type.UNION) {
      int i = 0;
      while (i < s.getTypes().size() && !s.getTypes().get(i).getName().equals(msg)) {
        i++;
      }
      if (i == s.getTypes().size()) {
        throw new IllegalArgumentException("the .avsc's union has no " + msg);
      }
      s = s.getTypes().get(i);
      se = "avsc.getTypes().get(" + i + ")";
    } else if (!m.defs.path(msg).has("record")
        && s.getType() == org.apache.avro.Schema.Type.RECORD
        && s.getFields().size() == 1) {
      wrapped = true; // types.json's avro_root: the message is the root record's one field
    }
    String javaType = m.javaType(msg, true);
    fields.append("  private org.apache.avro.Schema root;\n");
    init.append("    root = ").append(se).append(";\n");
    String to;
    String from;
    if (wrapped) {
      org.apache.avro.Schema f = s.getFields().get(0).schema();
      to =
          "    "
              + GD
              + ".Record w = new "
              + GD
              + ".Record(root);\n    w.put(0, "
              + to(msg, f, "root.getFields().get(0).schema()", "x")
              + ");\n    return w;\n";
      from =
          "    return "
              + from(
                  msg,
                  f,
                  "root.getFields().get(0).schema()",
                  "((org.apache.avro.generic.IndexedRecord) a).get(0)")
              + ";\n";
    } else {
      to = "    return " + to(msg, s, "root", "x") + ";\n";
      from = "    return " + from(msg, s, "root", "a") + ";\n";
    }
    StringBuilder b = new StringBuilder();
    b.append(
        "// Generated by serbench.typegen.TypeGen from types.json and the .avsc: do not edit.\n");
    b.append("package ").append(m.pkg).append(";\n\n");
    b.append("/** Between the typed model and Avro generic records of this dataset's .avsc. */\n");
    b.append("public final class ")
        .append(name)
        .append(" implements serbench.harness.AvroGlue {\n");
    b.append(fields);
    b.append("\n  @java.lang.Override\n  public org.apache.avro.Schema bind(");
    b.append("org.apache.avro.Schema avsc) {\n").append(init).append("    return root;\n  }\n");
    b.append("\n  @java.lang.Override\n  @java.lang.SuppressWarnings(\"unchecked\")\n");
    b.append("  public java.lang.Object toAvro(java.lang.Object m) {\n");
    b.append("    ").append(javaType).append(" x = (").append(javaType).append(") m;\n");
    b.append(to).append("  }\n");
    b.append("\n  @java.lang.Override\n  public java.lang.Object fromAvro(java.lang.Object a) {\n");
    b.append(from).append("  }\n");
    return b.append(methods).append("}\n").toString();
  }

  private static IllegalArgumentException mismatch(String t, org.apache.avro.Schema s) {
    return new IllegalArgumentException(t + " does not match the schema's " + s.getType());
  }

  /** Whether Avro's writer takes the model's value of {@code t} as it is for {@code s}. */
  private boolean same(String t, org.apache.avro.Schema s) {
    switch (s.getType()) {
      case INT:
        return t.equals("int32");
      case LONG:
        return t.equals("int64") || t.equals("uint64");
      case FLOAT:
        return t.equals("float32");
      case DOUBLE:
        return t.equals("float64");
      case BOOLEAN:
        return t.equals("bool");
      case STRING:
        return t.equals("string");
      default:
        return false;
    }
  }

  /**
   * Expression: the model's value {@code x} of {@code t} as Avro's writer takes it for {@code s}.
   */
  private String to(String t, org.apache.avro.Schema s, String se, String x) {
    if (s.getType() == org.apache.avro.Schema.Type.UNION) {
      int i = nonNull(t, s);
      String in = TypeGen.Model.inner(t, "optional<");
      return x + " == null ? null : " + to(in, s.getTypes().get(i), branch(se, i), x);
    }
    if (t.startsWith("optional<")) {
      throw new IllegalArgumentException(t + " needs a union with null, not " + s.getType());
    }
    if (t.startsWith("list<")) {
      if (s.getType() != org.apache.avro.Schema.Type.ARRAY) {
        throw mismatch(t, s);
      }
      String el = TypeGen.Model.inner(t, "list<");
      if (same(el, s.getElementType())) {
        return x;
      }
      String elem = to(el, s.getElementType(), se + ".getElementType()", "e");
      String h = "wl" + helpers++;
      String elJava = m.javaType(el, true);
      methods.append("\n  private java.util.List<java.lang.Object> ").append(h).append("(");
      methods.append("java.util.List<").append(elJava).append("> l) {\n");
      methods.append("    java.util.ArrayList<java.lang.Object> a = new java.util.ArrayList<>");
      methods.append("(l.size());\n    for (").append(elJava).append(" e : l) {\n      a.add(");
      methods.append(elem).append(");\n    }\n    return a;\n  }\n");
      return h + "(" + x + ")";
    }
    if (t.startsWith("map<")) {
      if (s.getType() != org.apache.avro.Schema.Type.MAP) {
        throw mismatch(t, s);
      }
      String v = TypeGen.Model.mapValue(t);
      if (same(v, s.getValueType())) {
        return x;
      }
      String value = to(v, s.getValueType(), se + ".getValueType()", "e.getValue()");
      String h = "wm" + helpers++;
      String vJava = m.javaType(v, true);
      methods.append("\n  private java.util.Map<java.lang.String, java.lang.Object> ").append(h);
      methods.append("(java.util.Map<java.lang.String, ").append(vJava).append("> m) {\n");
      methods.append("    java.util.HashMap<java.lang.String, java.lang.Object> a =");
      methods.append(
          " new java.util.HashMap<>();\n    for (java.util.Map.Entry<java.lang.String, ");
      methods.append(vJava).append("> e : m.entrySet()) {\n      a.put(e.getKey(), ");
      methods.append(value).append(");\n    }\n    return a;\n  }\n");
      return h + "(" + x + ")";
    }
    if (m.isEnum(t)) {
      return enumSymbols(t, s, se) + "[" + x + ".ordinal()]";
    }
    if (m.defs.path(t).has("record")) {
      record(t, s, se);
      return "w" + m.named(t) + "(" + x + ")";
    }
    if (same(t, s)) {
      return x;
    }
    switch (t + " " + s.getType()) {
      case "uint32 INT":
        return "(int) (long) " + x;
      case "int32 LONG":
      case "uint32 LONG":
        return "(long) " + x;
      case "timestamp_ms LONG":
        return x + ".toEpochMilli()";
      case "bigint STRING":
        return x + ".toString()";
      case "bytes BYTES":
        return "java.nio.ByteBuffer.wrap(" + x + ")";
      case "null NULL":
        return "null";
      default:
        throw mismatch(t, s);
    }
  }

  /** Expression: Avro's decoded value {@code a} for {@code s} as the model's value of {@code t}. */
  private String from(String t, org.apache.avro.Schema s, String se, String a) {
    if (s.getType() == org.apache.avro.Schema.Type.UNION) {
      int i = nonNull(t, s);
      String in = TypeGen.Model.inner(t, "optional<");
      String v = from(in, s.getTypes().get(i), branch(se, i), a);
      return a + " == null ? null : (" + m.javaType(in, true) + ") " + v;
    }
    if (t.startsWith("list<")) {
      String el = TypeGen.Model.inner(t, "list<");
      String elem = from(el, s.getElementType(), se + ".getElementType()", "e");
      String h = "rl" + helpers++;
      String elJava = m.javaType(el, true);
      methods.append("\n  private java.util.List<").append(elJava).append("> ").append(h);
      methods.append("(java.lang.Object o) {\n    java.util.List<?> l = (java.util.List<?>) o;\n");
      methods.append("    java.util.ArrayList<").append(elJava).append("> r = new ");
      methods.append("java.util.ArrayList<>(l.size());\n    for (java.lang.Object e : l) {\n");
      methods.append("      r.add(").append(elem).append(");\n    }\n    return r;\n  }\n");
      return h + "(" + a + ")";
    }
    if (t.startsWith("map<")) {
      String v = TypeGen.Model.mapValue(t);
      String value = from(v, s.getValueType(), se + ".getValueType()", "e.getValue()");
      String h = "rm" + helpers++;
      String vJava = m.javaType(v, true);
      methods.append("\n  private java.util.Map<java.lang.String, ").append(vJava).append("> ");
      methods.append(h).append("(java.lang.Object o) {\n    java.util.HashMap<java.lang.String, ");
      methods.append(vJava).append("> r = new java.util.HashMap<>();\n");
      methods.append(
          "    for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) o).entrySet())");
      methods
          .append(" {\n      r.put(e.getKey().toString(), ")
          .append(value)
          .append(");\n    }\n    return r;\n  }\n");
      return h + "(" + a + ")";
    }
    if (m.isEnum(t)) {
      String c = m.named(t);
      enumSymbols(t, s, se);
      return "V_" + c + "[S_" + c + ".getEnumOrdinal(" + a + ".toString())]";
    }
    if (m.defs.path(t).has("record")) {
      record(t, s, se);
      return "r" + m.named(t) + "(" + a + ")";
    }
    switch (t + " " + s.getType()) {
      case "int32 INT":
        return "(java.lang.Integer) " + a;
      case "uint32 INT":
        return "java.lang.Integer.toUnsignedLong((java.lang.Integer) " + a + ")";
      case "int32 LONG":
        return "((java.lang.Long) " + a + ").intValue()";
      case "uint32 LONG":
      case "int64 LONG":
      case "uint64 LONG":
        return "(java.lang.Long) " + a;
      case "timestamp_ms LONG":
        return "java.time.Instant.ofEpochMilli((java.lang.Long) " + a + ")";
      case "float32 FLOAT":
        return "(java.lang.Float) " + a;
      case "float64 DOUBLE":
        return "(java.lang.Double) " + a;
      case "bool BOOLEAN":
        return "(java.lang.Boolean) " + a;
      case "string STRING":
        return a + ".toString()";
      case "bigint STRING":
        return "new java.math.BigInteger(" + a + ".toString())";
      case "bytes BYTES":
        if (done.add("bytes")) {
          methods.append("\n  private static byte[] bytes(java.lang.Object o) {\n");
          methods.append("    java.nio.ByteBuffer b = ((java.nio.ByteBuffer) o).duplicate();\n");
          methods.append("    byte[] out = new byte[b.remaining()];\n    b.get(out);\n");
          methods.append("    return out;\n  }\n");
        }
        return "bytes(" + a + ")";
      case "null NULL":
        return "null";
      default:
        throw mismatch(t, s);
    }
  }

  private static int nonNull(String t, org.apache.avro.Schema s) {
    List<org.apache.avro.Schema> b = s.getTypes();
    if (!t.startsWith("optional<") || b.size() != 2) {
      throw new IllegalArgumentException(t + " does not match the union " + s);
    }
    return b.get(0).getType() == org.apache.avro.Schema.Type.NULL ? 1 : 0;
  }

  private static String branch(String se, int i) {
    return se + ".getTypes().get(" + i + ")";
  }

  /**
   * The field holding enum {@code t}'s symbols by model ordinal ({@code A_<Enum>}), with its schema
   * ({@code S_}) and the model's constants ({@code V_}), written once.
   */
  private String enumSymbols(String t, org.apache.avro.Schema s, String se) {
    String c = m.named(t);
    if (s.getType() != org.apache.avro.Schema.Type.ENUM) {
      throw mismatch(t, s);
    }
    List<String> symbols = new ArrayList<>();
    m.defs.get(t).get("enum").forEach(n -> symbols.add(n.asText()));
    if (!symbols.equals(s.getEnumSymbols())) {
      throw new IllegalArgumentException("enum " + t + "'s symbols differ from the schema's");
    }
    if (done.add("enum " + t)) {
      fields.append("  private org.apache.avro.Schema S_").append(c).append(";\n");
      fields.append("  private ").append(GD).append(".EnumSymbol[] A_").append(c).append(";\n");
      fields.append("  private static final ").append(c).append("[] V_").append(c);
      fields.append(" = ").append(c).append(".values();\n");
      init.append("    S_").append(c).append(" = ").append(se).append(";\n");
      init.append("    A_").append(c).append(" = new ").append(GD).append(".EnumSymbol[");
      init.append(symbols.size()).append("];\n    for (int i = 0; i < A_").append(c);
      init.append(".length; i++) {\n      A_").append(c).append("[i] = new ").append(GD);
      init.append(".EnumSymbol(S_").append(c).append(", S_").append(c);
      init.append(".getEnumSymbols().get(i));\n    }\n");
    }
    return "A_" + c;
  }

  /** Writes, once, {@code w<Record>} and {@code r<Record>} between the record and its schema. */
  private void record(String t, org.apache.avro.Schema s, String se) {
    String c = m.named(t);
    if (!done.add(t)) {
      return;
    }
    List<String> exprs = m.fieldExprs(t);
    List<String> types = m.fieldTypes(t);
    if (s.getType() != org.apache.avro.Schema.Type.RECORD || s.getFields().size() != types.size()) {
      throw mismatch(t, s);
    }
    fields.append("  private org.apache.avro.Schema s").append(c).append(";\n");
    init.append("    s").append(c).append(" = ").append(se).append(";\n");
    StringBuilder w = new StringBuilder();
    StringBuilder r = new StringBuilder();
    for (int k = 0; k < types.size(); k++) {
      org.apache.avro.Schema f = s.getFields().get(k).schema();
      String fe = "s" + c + ".getFields().get(" + k + ").schema()";
      w.append("    a.put(").append(k).append(", ");
      w.append(to(types.get(k), f, fe, exprs.get(k))).append(");\n");
      r.append("    ").append(exprs.get(k)).append(" = ");
      r.append(from(types.get(k), f, fe, "a.get(" + k + ")")).append(";\n");
    }
    methods.append("\n  private ").append(GD).append(".Record w").append(c).append("(");
    methods.append(c).append(" r) {\n    ").append(GD).append(".Record a = new ").append(GD);
    methods.append(".Record(s").append(c).append(");\n").append(w).append("    return a;\n  }\n");
    methods
        .append("\n  private ")
        .append(c)
        .append(" r")
        .append(c)
        .append("(java.lang.Object o) {\n");
    methods.append("    org.apache.avro.generic.IndexedRecord a = ");
    methods
        .append("(org.apache.avro.generic.IndexedRecord) o;\n    ")
        .append(c)
        .append(" r = new ");
    methods.append(c).append("();\n").append(r).append("    return r;\n  }\n");
  }
}

/**
 * Plain Java between a message's typed model and msgpack-core's positional layout (a {@code
 * harness.MsgpackCoreGlue}: {@code serbench.model.<Id>MsgpackCore} for a built-in, {@code
 * SerbenchMsgpackCore} beside a user dataset's model), the convention the python, node and go
 * runners share: a record the array of its fields in order, a record of one field that field's bare
 * value (S2's third message a bare string), an enum its ordinal, a timestamp int64 epoch ms, an
 * optional nil or its value, lists arrays, maps maps in the model's order. Throws
 * IllegalArgumentException for a type it has no direct code for ({@code any}, {@code bigint}); the
 * row is then not applicable with the reason.
 */
final class MsgpackGlue {
  private static final String P = "org.msgpack.core.MessagePacker";
  private static final String U = "org.msgpack.core.MessageUnpacker";
  private static final String G = "serbench.harness.MsgpackCoreGlue.";
  private final TypeGen.Model m;
  private final StringBuilder methods = new StringBuilder();
  private final Set<String> done = new HashSet<>();
  private int fresh;

  private MsgpackGlue(TypeGen.Model m) {
    this.m = m;
  }

  /** Writes the glue of message type {@code msg} as class {@code name}, or says why not. */
  static void write(TypeGen.Model m, String msg, String name, Path out, Map<String, String> written)
      throws IOException {
    try {
      TypeGen.put(
          out,
          m.pkg.replace('.', '/') + "/" + name + ".java",
          new MsgpackGlue(m).source(name, msg),
          written);
    } catch (IllegalArgumentException e) {
      System.err.println("typegen: no msgpack-core glue for " + name + ": " + e.getMessage());
    }
  }

  private String source(String name, String msg) {
    StringBuilder w = new StringBuilder();
    write(msg, "message", w, "    ");
    StringBuilder r = new StringBuilder();
    String v = read(msg, r, "    ");
    String type = m.javaType(msg, true);
    StringBuilder b = new StringBuilder(m.header());
    b.append("/** msgpack-core's positional layout of the typed model. */\n");
    b.append("@java.lang.SuppressWarnings(\"unchecked\")\n");
    b.append("public final class ").append(name);
    b.append(" implements serbench.harness.MsgpackCoreGlue {\n");
    b.append("  @java.lang.Override\n  public void write(").append(P);
    b.append(" p, java.lang.Object x) throws java.io.IOException {\n    ").append(type);
    b.append(" message = (").append(type).append(") x;\n").append(w).append("  }\n\n");
    b.append("  @java.lang.Override\n  public java.lang.Object read(").append(U);
    b.append(" u) throws java.io.IOException {\n").append(r);
    b.append("    return ").append(v).append(";\n  }\n");
    return b.append(methods).append("}\n").toString();
  }

  private static final Map<String, String> WRITES =
      Map.ofEntries(
          Map.entry("int32", "p.packInt($)"),
          Map.entry("int64", "p.packLong($)"),
          Map.entry("uint32", "p.packLong($)"),
          Map.entry("uint64", G + "packUInt64(p, $)"),
          Map.entry("timestamp_ms", "p.packLong($.toEpochMilli())"),
          Map.entry("float32", "p.packFloat($)"),
          Map.entry("float64", "p.packDouble($)"),
          Map.entry("bool", "p.packBoolean($)"),
          Map.entry("string", "p.packString($)"),
          Map.entry("bytes", "p.packBinaryHeader($.length).writePayload($)"),
          Map.entry("null", "p.packNil()"));

  private static final Map<String, String> READS =
      Map.ofEntries(
          Map.entry("int32", "u.unpackInt()"),
          Map.entry("int64", "u.unpackLong()"),
          Map.entry("uint32", "u.unpackLong()"),
          Map.entry("uint64", G + "unpackUInt64(u)"),
          Map.entry("timestamp_ms", "java.time.Instant.ofEpochMilli(u.unpackLong())"),
          Map.entry("float32", "u.unpackFloat()"),
          Map.entry("float64", "u.unpackDouble()"),
          Map.entry("bool", "u.unpackBoolean()"),
          Map.entry("string", "u.unpackString()"),
          Map.entry("bytes", "u.readPayload(u.unpackBinaryHeader())"));

  /** Statements packing the value {@code e} of type {@code t}. */
  private void write(String t, String e, StringBuilder b, String ind) {
    t = t.trim();
    if (t.startsWith("list<")) {
      String elem = TypeGen.Model.inner(t, "list<");
      String x = "x" + fresh++;
      b.append(ind).append("p.packArrayHeader(").append(e).append(".size());\n");
      b.append(ind).append("for (").append(m.javaType(elem, true)).append(' ').append(x);
      b.append(" : ").append(e).append(") {\n");
      write(elem, x, b, ind + "  ");
      b.append(ind).append("}\n");
    } else if (t.startsWith("map<")) {
      String val = TypeGen.Model.mapValue(t);
      String x = "x" + fresh++;
      b.append(ind).append("p.packMapHeader(").append(e).append(".size());\n");
      b.append(ind).append("for (java.util.Map.Entry<java.lang.String, ");
      b.append(m.javaType(val, true)).append("> ").append(x).append(" : ").append(e);
      b.append(".entrySet()) {\n").append(ind).append("  p.packString(").append(x);
      b.append(".getKey());\n");
      write(val, x + ".getValue()", b, ind + "  ");
      b.append(ind).append("}\n");
    } else if (t.startsWith("optional<")) {
      String of = TypeGen.Model.inner(t, "optional<");
      String x = "x" + fresh++;
      b.append(ind).append(m.javaType(of, true)).append(' ').append(x).append(" = ").append(e);
      b.append(";\n").append(ind).append("if (").append(x).append(" == null) {\n");
      b.append(ind).append("  p.packNil();\n").append(ind).append("} else {\n");
      write(of, x, b, ind + "  ");
      b.append(ind).append("}\n");
    } else if (m.isEnum(t)) {
      b.append(ind).append("p.packInt(").append(e).append(".ordinal());\n");
    } else if (m.defs.path(t).has("record")) {
      record(t);
      b.append(ind).append('w').append(m.named(t)).append("(p, ").append(e).append(");\n");
    } else {
      String call = WRITES.get(t);
      if (call == null) {
        throw new IllegalArgumentException(t + " has no direct msgpack-core code");
      }
      b.append(ind).append(call.replace("$", e)).append(";\n");
    }
  }

  /**
   * Appends the statements that read a value of type {@code t} and returns the expression of the
   * value, evaluated right after them.
   */
  private String read(String t, StringBuilder b, String ind) {
    t = t.trim();
    if (t.startsWith("list<")) {
      String elem = TypeGen.Model.inner(t, "list<");
      String l = "l" + fresh++;
      String i = "i" + fresh++;
      String n = "n" + fresh++;
      b.append(ind).append("int ").append(n).append(" = u.unpackArrayHeader();\n");
      b.append(ind).append("java.util.ArrayList<").append(m.javaType(elem, true)).append("> ");
      b.append(l).append(" = new java.util.ArrayList<>(").append(n).append(");\n");
      b.append(ind).append("for (int ").append(i).append(" = 0; ").append(i).append(" < ");
      b.append(n).append("; ").append(i).append("++) {\n");
      String v = read(elem, b, ind + "  ");
      b.append(ind).append("  ").append(l).append(".add(").append(v).append(");\n");
      b.append(ind).append("}\n");
      return l;
    }
    if (t.startsWith("map<")) {
      String val = TypeGen.Model.mapValue(t);
      String o = "o" + fresh++;
      String i = "i" + fresh++;
      String n = "n" + fresh++;
      String k = "k" + fresh++;
      b.append(ind).append("int ").append(n).append(" = u.unpackMapHeader();\n");
      b.append(ind).append("java.util.LinkedHashMap<java.lang.String, ");
      b.append(m.javaType(val, true)).append("> ").append(o).append(" =\n").append(ind);
      b.append("    new java.util.LinkedHashMap<>((int) (").append(n).append(" * 4L / 3 + 1));\n");
      b.append(ind).append("for (int ").append(i).append(" = 0; ").append(i).append(" < ");
      b.append(n).append("; ").append(i).append("++) {\n");
      b.append(ind).append("  java.lang.String ").append(k).append(" = u.unpackString();\n");
      String v = read(val, b, ind + "  ");
      b.append(ind).append("  ").append(o).append(".put(").append(k).append(", ").append(v);
      b.append(");\n").append(ind).append("}\n");
      return o;
    }
    if (t.startsWith("optional<")) {
      String of = TypeGen.Model.inner(t, "optional<");
      String o = "o" + fresh++;
      b.append(ind).append(m.javaType(of, true)).append(' ').append(o).append(" = null;\n");
      b.append(ind).append("if (!u.tryUnpackNil()) {\n");
      String v = read(of, b, ind + "  ");
      b.append(ind).append("  ").append(o).append(" = ").append(v).append(";\n");
      b.append(ind).append("}\n");
      return o;
    }
    if (t.equals("null")) {
      b.append(ind).append("u.unpackNil();\n");
      return "null";
    }
    if (m.isEnum(t)) {
      String c = m.named(t);
      if (done.add("enum " + t)) {
        methods.append("\n  private static final ").append(c).append("[] E_").append(c);
        methods.append(" = ").append(c).append(".values();\n");
      }
      return "E_" + c + "[u.unpackInt()]";
    }
    if (m.defs.path(t).has("record")) {
      record(t);
      return "r" + m.named(t) + "(u)";
    }
    String call = READS.get(t);
    if (call == null) {
      throw new IllegalArgumentException(t + " has no direct msgpack-core code");
    }
    return call;
  }

  /** The methods {@code w<Record>} and {@code r<Record>}, once. */
  private void record(String t) {
    String c = m.named(t);
    if (!done.add(t)) {
      return;
    }
    List<String> exprs = m.fieldExprs(t);
    List<String> types = m.fieldTypes(t);
    StringBuilder w = new StringBuilder();
    StringBuilder r = new StringBuilder();
    if (exprs.size() != 1) {
      // a record of one field is that field's bare value: no header
      w.append("    p.packArrayHeader(").append(exprs.size()).append(");\n");
      r.append("    ").append(G).append("expect(u.unpackArrayHeader(), ").append(exprs.size());
      r.append(");\n");
    }
    r.append("    ").append(c).append(" r = new ").append(c).append("();\n");
    for (int i = 0; i < exprs.size(); i++) {
      write(types.get(i), exprs.get(i), w, "    ");
      String v = read(types.get(i), r, "    ");
      if (!types.get(i).equals("null")) {
        r.append("    ").append(exprs.get(i)).append(" = ").append(v).append(";\n");
      }
    }
    methods.append("\n  private static void w").append(c).append('(').append(P).append(" p, ");
    methods.append(c).append(" r) throws java.io.IOException {\n").append(w).append("  }\n");
    methods.append("\n  private static ").append(c).append(" r").append(c).append('(').append(U);
    methods.append(" u) throws java.io.IOException {\n").append(r);
    methods.append("    return r;\n  }\n");
  }
}
