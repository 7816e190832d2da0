using System;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Threading;

namespace Serbench.Harness
{
    /// <summary>
    /// The clocks read at sample boundaries: clock_gettime(CLOCK_MONOTONIC) for wall time and
    /// clock_gettime(CLOCK_THREAD_CPUTIME_ID) for the calling thread's CPU time, by P/Invoke
    /// into libc (a Mono managed thread is a pthread). Stopwatch on Mono ticks in 100 ns
    /// units, too coarse for a one-iteration batch; this is the clock it reads underneath.
    /// </summary>
    public static class Clocks
    {
        [StructLayout(LayoutKind.Sequential)]
        struct Timespec
        {
            public long Sec;
            public long Nsec;
        }

        [DllImport("libc", EntryPoint = "clock_gettime")]
        static extern int ClockGettime(int clock, out Timespec ts);

        const int Monotonic = 1;
        const int ThreadCpu = 3;

        public static long WallNs()
        {
            Timespec t;
            ClockGettime(Monotonic, out t);
            return t.Sec * 1000000000L + t.Nsec;
        }

        public static long CpuNs()
        {
            Timespec t;
            ClockGettime(ThreadCpu, out t);
            return t.Sec * 1000000000L + t.Nsec;
        }

        /// <summary>Collections of either of sgen's generations (nursery, major) so far.</summary>
        public static long GcCount()
        {
            long n = 0;
            for (int g = 0; g <= GC.MaxGeneration; g++)
                n += GC.CollectionCount(g);
            return n;
        }

        // GC.GetAllocatedBytesForCurrentThread is in Mono 6's mscorlib but not in the 4.5
        // reference assemblies mcs compiles against: bound once, called as a delegate.
        static readonly Func<long> Allocated = (Func<long>)Delegate.CreateDelegate(
            typeof(Func<long>), typeof(GC).GetMethod("GetAllocatedBytesForCurrentThread", BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static));

        /// <summary>Bytes this thread has allocated on the managed heap so far (sgen's per-thread counter).</summary>
        public static long AllocatedBytes()
        {
            return Allocated();
        }
    }

    /// <summary>The `sample` command's loop: batches timed at their boundaries only.</summary>
    public static class Sampler
    {
        public sealed class Result
        {
            public long[] Wall, Cpu, Alloc, Gc;
        }

        public static Result Run(Action op, int iterations, int samples, int untimed = 0)
        {
            var r = new Result { Wall = new long[samples], Cpu = new long[samples], Alloc = new long[samples], Gc = new long[samples] };
            for (int i = 0; i < untimed; i++)
                op();
            for (int s = 0; s < samples; s++)
            {
                long g0 = Clocks.GcCount();
                long a0 = Clocks.AllocatedBytes();
                long c0 = Clocks.CpuNs();
                long w0 = Clocks.WallNs();
                for (int i = 0; i < iterations; i++)
                    op();
                long w1 = Clocks.WallNs();
                long c1 = Clocks.CpuNs();
                long a1 = Clocks.AllocatedBytes();
                long g1 = Clocks.GcCount();
                r.Wall[s] = Math.Max(1, w1 - w0);
                r.Cpu[s] = Math.Max(0, c1 - c0);
                r.Alloc[s] = Math.Max(0, a1 - a0);
                r.Gc[s] = g1 - g0;
            }
            return r;
        }

        /// <summary>
        /// Peak heap growth during one operation: GC.GetTotalMemory(false) polled every
        /// millisecond by another thread while the operation runs, minus its value after a
        /// full collection just before (garbage not yet collected counts: it is memory held).
        /// </summary>
        public static long PeakAlloc(Action op)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            long baseline = GC.GetTotalMemory(false);
            long peak = baseline;
            bool done = false;
            var poller = new Thread(() =>
            {
                while (!Volatile.Read(ref done))
                {
                    long m = GC.GetTotalMemory(false);
                    if (m > Interlocked.Read(ref peak))
                        Interlocked.Exchange(ref peak, m);
                    Thread.Sleep(1);
                }
            });
            poller.IsBackground = true;
            poller.Start();
            op();
            long end = GC.GetTotalMemory(false);
            Volatile.Write(ref done, true);
            poller.Join();
            return Math.Max(0, Math.Max(peak, end) - baseline);
        }
    }
}
