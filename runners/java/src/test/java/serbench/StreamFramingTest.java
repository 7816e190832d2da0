package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import serbench.harness.DatasetKind;
import serbench.harness.SelfDelimitingCodec;
import serbench.harness.Serializer;

/** The framing label in describe matches the codec that frames the streams. */
class StreamFramingTest {
  private static final DatasetKind[] STREAMS = {
    DatasetKind.TEST1,
    DatasetKind.TEST2,
    DatasetKind.TEST3,
    DatasetKind.TEST4,
    DatasetKind.CLICK_MAPS
  };

  @Test
  void streamConcatenatedLabelFollowsTheCodec() throws Exception {
    for (Serializer s : Registry.ALL) {
      boolean labelled = Describe.labels(s).contains("stream-concatenated");
      for (DatasetKind k : STREAMS) {
        if (s.notApplicable(k) == null) {
          boolean concatenates = s.codec(k) instanceof SelfDelimitingCodec;
          assertEquals(concatenates, labelled, s.name() + " on " + k.id);
        }
      }
    }
  }
}
