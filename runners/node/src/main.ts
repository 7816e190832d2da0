// serbench Node.js runner: `describe`, `serve`, `transport` (docs/runner-protocol.md).
import { describe, emit, serve } from "./serve.js";
import { transport } from "./transport.js";

const mode = process.argv[2];
if (mode === "describe") emit(describe());
else if (mode === "serve") await serve();
else if (mode === "transport") process.exitCode = await transport();
else {
  process.stderr.write("usage: main.js describe | serve | transport\n");
  process.exitCode = 2;
}
