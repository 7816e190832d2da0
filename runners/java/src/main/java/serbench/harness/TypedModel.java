package serbench.harness;

import java.lang.reflect.Type;
import java.util.List;

/**
 * A typed model generated from one types file (serbench.typegen.TypeGen): the classes of its
 * records and enums, and the conversions between the typed generic tree of {@link UserTypes} and
 * the classes.
 */
public interface TypedModel {
  /** The sha256 of the types file the model was generated from. */
  String typesSha256();

  /** The types file's text, for building the {@link UserTypes} of a built-in dataset. */
  String typesJson();

  /** The message type (one of the types file's messages). */
  String message();

  /** The records' and enums' classes, in the types file's order (registration ids follow it). */
  List<Class<?>> classes();

  /** The Java type of one message (concrete containers for a list or map message). */
  Type javaType();

  /** The typed value of a message from its typed generic tree. */
  Object fromTree(Object tree);

  /** The typed generic tree of a message's typed value (for the check). */
  Object toTree(Object value);

  /**
   * The {@code handwritten} row's codec of the message, generated field by field ({@link Wire}'s
   * layout); not applicable, naming the path, where the message holds an {@code any} value.
   */
  Codec handwritten() throws NotApplicableException;
}
