package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;

/**
 * Field-by-field code with no library, S1's Parcelable stand-in: TypeGen generates it from each
 * dataset's types file beside the typed model ({@code TypedModel.handwritten()}, the layout of
 * {@code harness.Wire}), for the built-in datasets and the user datasets alike.
 */
public final class HandwrittenSerializer extends Serializer {
  public HandwrittenSerializer() {
    super(
        "handwritten",
        "handwritten",
        "java.io/java.nio (JDK)",
        System.getProperty("java.version"),
        List.of("binary", "schema-required", "copying-decode", "handwritten"),
        List.of());
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    try {
      kind.model().handwritten();
      return null;
    } catch (NotApplicableException e) {
      return e.getMessage();
    }
  }

  @Override
  public Codec codec(DatasetKind kind) throws NotApplicableException {
    return kind.model().handwritten();
  }

  @Override
  public boolean typedUser() {
    return true;
  }

  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) throws NotApplicableException {
    return data.model.handwritten();
  }
}
