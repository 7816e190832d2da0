using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using Newtonsoft.Json.Linq;

// typegen: the typed model of every built-in dataset ($SERBENCH_DATASETS_DIR/*/types.json)
// and every registered user dataset ($SERBENCH_USER_DATASETS_DIR/*/dataset.json names its
// types file), as C# written into the folder given (build/generated): one file per types
// file and Index.g.cs listing them. A file is rewritten only when its text changes and the
// stamp (.stamp) is touched only then, so the Makefile recompiles the runner only then.
namespace Serbench.TypeGen
{
    public static class Program
    {
        public static int Main(string[] args)
        {
            if (args.Length != 1)
            {
                Console.Error.WriteLine("usage: typegen OUTPUT_DIR");
                return 2;
            }
            try
            {
                return Write(args[0], Sources.All());
            }
            catch (Exception e) when (e is IOException || e is FormatException || e is Newtonsoft.Json.JsonException || e is InvalidCastException)
            {
                Console.Error.WriteLine("typegen: " + e.Message);
                return 1;
            }
        }

        static int Write(string outDir, List<Source> sources)
        {
            Directory.CreateDirectory(outDir);
            var files = new Dictionary<string, string>();
            var classes = new List<string>();
            var builtinTypes = new Dictionary<string, string>(); // type name -> family, for namespace clashes
            var usedNamespaces = new HashSet<string>();
            foreach (Source s in sources)
            {
                string ns = Namespace(s, builtinTypes, usedNamespaces);
                string cls = (s.Builtin ? "Builtin_" : "User_") + Naming.Pascal(s.Name);
                while (classes.Contains(cls))
                    cls += "_";
                string text;
                try
                {
                    text = new Emitter(s, ns, cls).File();
                }
                catch (Exception e) when (!s.Builtin)
                {
                    // One user dataset the generator cannot follow costs its typed rows
                    // ("typed model not built"), not the runner's build.
                    Console.Error.WriteLine("typegen: skipped user dataset " + s.Name + ": " + e.Message);
                    continue;
                }
                classes.Add(cls);
                files[(s.Builtin ? "builtin." : "user.") + s.Name + ".g.cs"] = text;
            }
            files["Index.g.cs"] = Emitter.Index(classes);
            bool changed = false;
            foreach (KeyValuePair<string, string> f in files)
            {
                string path = Path.Combine(outDir, f.Key);
                if (File.Exists(path) && File.ReadAllText(path) == f.Value)
                    continue;
                File.WriteAllText(path, f.Value, new UTF8Encoding(false));
                changed = true;
            }
            foreach (string stale in Directory.GetFiles(outDir, "*.g.cs"))
            {
                if (!files.ContainsKey(Path.GetFileName(stale)))
                {
                    File.Delete(stale);
                    changed = true;
                }
            }
            string stamp = Path.Combine(outDir, ".stamp");
            if (changed || !File.Exists(stamp))
                File.WriteAllText(stamp, DateTime.UtcNow.ToString("o"));
            Console.WriteLine("typegen: " + classes.Count + " typed model(s), " + (changed ? "model updated" : "model unchanged"));
            return 0;
        }

        /// <summary>
        /// Built-ins share Serbench.Model (so the type names NetDataContractSerializer and
        /// BinaryFormatter write stay those of the seed's classes) unless a name is taken by an
        /// earlier family; each user dataset gets Serbench.Model.User.Name.
        /// </summary>
        static string Namespace(Source s, Dictionary<string, string> builtinTypes, HashSet<string> used)
        {
            string ns;
            if (s.Builtin)
            {
                var names = ((JObject)s.Types["types"]).Properties().Select(p => p.Name).ToList();
                ns = names.Any(builtinTypes.ContainsKey) ? "Serbench.Model." + Naming.Pascal(s.Name) : "Serbench.Model";
                foreach (string n in names)
                    builtinTypes[n] = s.Name;
            }
            else
            {
                ns = "Serbench.Model.User." + Naming.Pascal(s.Name);
            }
            while (ns != "Serbench.Model" && !used.Add(ns))
                ns += "_";
            return ns;
        }
    }
}
