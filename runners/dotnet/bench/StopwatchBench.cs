using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using Newtonsoft.Json.Linq;
using Serbench.Harness;

namespace Serbench.Bench
{
    /// <summary>
    /// The native harness of `serbench calibrate` (docs/runner-protocol.md, section 12): the
    /// plain .NET way of timing code, a System.Diagnostics.Stopwatch around a loop, with
    /// nothing from serbench's sampler or orchestrator. It binds the same cell (the runner's
    /// Cell.Prepare: the same Workload, codec and sink), runs it untimed for warmup-ms, then
    /// times samples batches of iterations calls and prints each as one JSON line, with the
    /// thread's CPU time (the runner's libc clock), which preemption cannot blur.
    /// Usage: mono serbench-dotnet-bench.exe --serializer S --dataset D --dataset-file F
    ///   --operation OP --iterations N --samples K --warmup-ms W [--sample-ms M]
    /// </summary>
    public static class StopwatchBench
    {
        public static int Main(string[] args)
        {
            var opts = new Dictionary<string, string>();
            for (int i = 0; i + 1 < args.Length; i += 2)
                opts[args[i].TrimStart('-')] = args[i + 1];
            Func<string, string> Arg = name =>
            {
                string value;
                if (!opts.TryGetValue(name, out value))
                    throw new ArgumentException("missing --" + name);
                return value;
            };
            string op = Arg("operation");
            int iterations = int.Parse(Arg("iterations"), CultureInfo.InvariantCulture);
            int samples = int.Parse(Arg("samples"), CultureInfo.InvariantCulture);
            double warmupMs = double.Parse(Arg("warmup-ms"), CultureInfo.InvariantCulture);
            Cell cell = Cell.Prepare("bench", Registry.Find(Arg("serializer")), Datasets.Builtin(Arg("dataset")), new JObject { { "data", Arg("dataset-file") } }, new List<string> { op }, null, null);
            if ((string)cell.Reply["status"] != "ok")
                throw new InvalidOperationException(cell.Reply.ToString());
            Action body = cell.Ops[op];
            var sw = Stopwatch.StartNew();
            while (sw.Elapsed.TotalMilliseconds < warmupMs)
                body();
            for (int s = 0; s < samples; s++)
            {
                long c0 = Clocks.CpuNs();
                sw.Restart();
                for (int i = 0; i < iterations; i++)
                    body();
                sw.Stop();
                long c1 = Clocks.CpuNs();
                Console.WriteLine(new JObject { { "wall_ns", sw.Elapsed.Ticks * 100 }, { "cpu_ns", c1 - c0 }, { "iterations", iterations } }.ToString(Newtonsoft.Json.Formatting.None));
            }
            return 0;
        }
    }
}
