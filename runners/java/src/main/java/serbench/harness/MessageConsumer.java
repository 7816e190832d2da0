package serbench.harness;

/** Receives the messages of a decoded stream. */
public interface MessageConsumer {
  void accept(int index, Object message) throws Exception;
}
