using System;
using System.IO;
using System.Text;
using Newtonsoft.Json;
using Serbench.Harness;

namespace Serbench
{
    public static class Program
    {
        public static int Main(string[] args)
        {
            // Nothing catches an OutOfMemoryException (see Harness/Untrusted.cs): it ends the
            // process, and this first line of stderr names it in plain words.
            AppDomain.CurrentDomain.UnhandledException += (sender, e) =>
            {
                if (e.ExceptionObject is OutOfMemoryException)
                    Console.Error.WriteLine("serbench-dotnet: out of memory: " + ((Exception)e.ExceptionObject).Message);
            };
            var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false)) { AutoFlush = true, NewLine = "\n" };
            string mode = args.Length == 1 ? args[0] : null;
            if (mode == "describe")
            {
                stdout.WriteLine(Describe.Build().ToString(Formatting.None));
                return 0;
            }
            if (mode == "serve")
            {
                var server = new Server();
                var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
                string line;
                while ((line = stdin.ReadLine()) != null)
                {
                    if (line.Trim().Length == 0)
                        continue;
                    var reply = server.Handle(line);
                    stdout.WriteLine(reply.ToString(Formatting.None));
                    if ((string)reply["event"] == "bye")
                        break;
                }
                return 0;
            }
            if (mode == "transport")
                return Transport.Run(new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false)), stdout);
            Console.Error.WriteLine("usage: serbench-dotnet.exe describe | serve | transport");
            return 2;
        }
    }
}
