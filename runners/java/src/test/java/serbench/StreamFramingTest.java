package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import serbench.harness.DatasetKind;
import serbench.harness.SelfDelimitingCodec;
import serbench.harness.Serializer;

/** The framing label in describe matches the codec that frames the streams. */
class StreamFramingTest {
  private static final String[] STREAMS = {
    "pb-vs-msgpack-test1",
    "pb-vs-msgpack-test2",
    "pb-vs-msgpack-test3",
    "pb-vs-msgpack-test4",
    "click-maps"
  };

  @Test
  void streamConcatenatedLabelFollowsTheCodec() throws Exception {
    for (Serializer s : Registry.ALL) {
      boolean labelled = Describe.labels(s).contains("stream-concatenated");
      for (String id : STREAMS) {
        DatasetKind k = DatasetKind.byId(id);
        if (s.notApplicable(k) == null) {
          boolean concatenates = s.codec(k) instanceof SelfDelimitingCodec;
          assertEquals(concatenates, labelled, s.name() + " on " + k.id);
        }
      }
    }
  }
}
