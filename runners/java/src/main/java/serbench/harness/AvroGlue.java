package serbench.harness;

import org.apache.avro.Schema;

/**
 * The plain Java TypeGen writes per built-in message ({@code serbench.model.<Id>Avro}) between its
 * typed model and Avro generic records of its family's .avsc: the {@code avro} row's conversion.
 */
public interface AvroGlue {
  /** Binds the glue to the family's parsed .avsc and returns the message's schema in it. */
  Schema bind(Schema avsc);

  /** The generic record (list, map, value) Avro's writer takes for one model message. */
  Object toAvro(Object message);

  /** The model message of what Avro's generic reader returned. */
  Object fromAvro(Object avro);
}
