package serbench.harness;

/** The serializer cannot represent the dataset; the message says why. */
public final class NotApplicableException extends Exception {
  private static final long serialVersionUID = 1L;

  public NotApplicableException(String reason) {
    super(reason);
  }
}
