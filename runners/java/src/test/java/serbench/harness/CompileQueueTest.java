package serbench.harness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The compile-queue report as HotSpot 17 prints it, idle and busy. */
class CompileQueueTest {
  private static final String IDLE =
      "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n\n";

  @Test
  void anIdleCompilerIsNotBusy() {
    assertFalse(CompileQueue.busy(IDLE));
  }

  @Test
  void aRunningCompilationIsBusy() {
    String report =
        "Current compiles: \n"
            + "C2 CompilerThread0  1580 %     4       CQ::work @ 13 (73 bytes)\n\n"
            + "C1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n\n";
    assertTrue(CompileQueue.busy(report));
  }

  @Test
  void aQueuedCompilationIsBusy() {
    String report =
        "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\n"
            + "1614       4       java.util.HashMap::putVal (300 bytes)\n\n";
    assertTrue(CompileQueue.busy(report));
  }

  @Test
  void theJvmServesTheReport() {
    assertTrue(CompileQueue.available());
  }
}
