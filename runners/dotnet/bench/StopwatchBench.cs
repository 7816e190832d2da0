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
    /// Its own schedule: warm-up for warmup x sample-ms, iterations doubled until one batch
    /// takes sample-ms, then the measured batches. The thread's CPU time per batch is printed
    /// too (the runner's libc clock), for a comparison that preemption cannot blur.
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
            // Warm-up first (warmup x sample-ms of running the body), so that the batch size is
            // calibrated on warm code, as serbench's own calibration ends up doing.
            sw.Start();
            while (sw.Elapsed.TotalMilliseconds < warmup * sampleMs)
                body();
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
            var perOp = new JArray();
            var cpuPerOp = new JArray();
            for (int s = 0; s < samples; s++)
            {
                long c0 = Clocks.CpuNs();
                sw.Restart();
                for (int i = 0; i < iterations; i++)
                    body();
                sw.Stop();
                long c1 = Clocks.CpuNs();
                perOp.Add(sw.Elapsed.Ticks * 100.0 / iterations);
                cpuPerOp.Add((c1 - c0) / (double)iterations);
            }
            Console.WriteLine(new JObject { { "iterations", iterations }, { "ns_per_op", perOp }, { "cpu_ns_per_op", cpuPerOp } }.ToString(Newtonsoft.Json.Formatting.None));
            return 0;
        }
    }
}
