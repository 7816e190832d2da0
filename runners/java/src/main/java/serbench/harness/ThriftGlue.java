package serbench.harness;

import org.apache.thrift.TBase;

/**
 * The plain Java TypeGen writes, after thrift, per user dataset between its typed model and the
 * structs thrift generates from its .thrift ({@code serbench.typed.t<sha>.SerbenchThrift}): the
 * {@code thrift} row's conversion without libthrift's field metadata.
 */
public interface ThriftGlue {
  /** The root struct of one model message. */
  TBase<?, ?> toThrift(Object message);

  /** An empty root struct to read into. */
  TBase<?, ?> newRoot();

  /** The model message of a root struct read from thrift bytes. */
  Object fromThrift(TBase<?, ?> root);
}
