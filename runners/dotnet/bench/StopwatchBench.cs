using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using Newtonsoft.Json.Linq;
using Serbench.Harness;

namespace Serbench.Bench
{
    /// <summary>
    /// The yardstick for the accuracy comparison (bench/compare.py): the plain .NET way of
    /// timing code, a System.Diagnostics.Stopwatch around a loop, with nothing from serbench's
    /// sampler or orchestrator. It binds the same cell (the runner's Cell.Prepare: the same
    /// Workload, codec and sink) and prints the per-operation ns of each sample as JSON.
    /// Its own schedule: iterations doubled until one batch takes sample-ms, warm-up batches,
    /// then the measured batches.
    /// Usage: mono serbench-dotnet-bench.exe serializer dataset data.json operation warmup samples sample-ms
    /// </summary>
    public static class StopwatchBench
    {
        public static int Main(string[] args)
        {
            string serializer = args[0], dataset = args[1], data = args[2], op = args[3];
            int warmup = int.Parse(args[4], CultureInfo.InvariantCulture);
            int samples = int.Parse(args[5], CultureInfo.InvariantCulture);
            double sampleMs = double.Parse(args[6], CultureInfo.InvariantCulture);
            Cell cell = Cell.Prepare("bench", Registry.Find(serializer), Datasets.Builtin(dataset), new JObject { { "data", data } }, new List<string> { op }, null, null);
            if ((string)cell.Reply["status"] != "ok")
                throw new InvalidOperationException(cell.Reply.ToString());
            Action body = cell.Ops[op];
            var sw = new Stopwatch();
            int iterations = 1;
            while (true)
            {
                sw.Restart();
                for (int i = 0; i < iterations; i++)
                    body();
                sw.Stop();
                if (sw.Elapsed.TotalMilliseconds >= sampleMs || iterations >= 1 << 24)
                    break;
                iterations *= 2;
            }
            for (int w = 0; w < warmup; w++)
            {
                for (int i = 0; i < iterations; i++)
                    body();
            }
            var perOp = new JArray();
            for (int s = 0; s < samples; s++)
            {
                sw.Restart();
                for (int i = 0; i < iterations; i++)
                    body();
                sw.Stop();
                perOp.Add(sw.Elapsed.Ticks * 100.0 / iterations);
            }
            Console.WriteLine(new JObject { { "iterations", iterations }, { "ns_per_op", perOp } }.ToString(Newtonsoft.Json.Formatting.None));
            return 0;
        }
    }
}
