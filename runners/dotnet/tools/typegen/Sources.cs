using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using Newtonsoft.Json.Linq;

namespace Serbench.TypeGen
{
    /// <summary>One types file: a built-in family's or a registered user dataset's.</summary>
    public sealed class Source
    {
        public string Name; // family folder or user dataset name
        public bool Builtin;
        public string TypesPath;
        public JObject Types;
        public string Sha256;
    }

    /// <summary>Where the types files are: the build's environment (docs/runner-protocol.md, section 7).</summary>
    public static class Sources
    {
        public static List<Source> All()
        {
            string root = Path.GetFullPath(Path.Combine(AppDomain.CurrentDomain.BaseDirectory, "..", "..", ".."));
            List<Source> sources = Builtins(Env("SERBENCH_DATASETS_DIR") ?? Path.Combine(root, "datasets"));
            sources.AddRange(Users(UserDir(root)));
            return sources;
        }

        static string Env(string name)
        {
            string v = Environment.GetEnvironmentVariable(name);
            return string.IsNullOrEmpty(v) ? null : v;
        }

        /// <summary>$SERBENCH_USER_DATASETS_DIR, else where serbench keeps it ($SERBENCH_HOME/user or .serbench/user).</summary>
        static string UserDir(string root)
        {
            string d = Environment.GetEnvironmentVariable("SERBENCH_USER_DATASETS_DIR");
            if (d != null)
                return d;
            string home = Env("SERBENCH_HOME");
            return home != null ? Path.Combine(home, "user") : Path.Combine(root, ".serbench", "user");
        }

        static List<Source> Builtins(string dir)
        {
            var list = new List<Source>();
            foreach (string family in Directory.GetDirectories(dir).OrderBy(f => f, StringComparer.Ordinal))
            {
                string path = Path.Combine(family, "types.json");
                if (File.Exists(path))
                    list.Add(Read(Path.GetFileName(family), true, path));
            }
            if (list.Count == 0)
                throw new IOException("no built-in types files under " + dir + " (set SERBENCH_DATASETS_DIR)");
            return list;
        }

        static List<Source> Users(string dir)
        {
            var list = new List<Source>();
            if (!Directory.Exists(dir))
                return list;
            foreach (string folder in Directory.GetDirectories(dir).OrderBy(f => f, StringComparer.Ordinal))
            {
                string name = Path.GetFileName(folder);
                string manifest = Path.Combine(folder, "dataset.json");
                if (name.StartsWith(".", StringComparison.Ordinal) || !File.Exists(manifest))
                    continue; // a registration in progress
                try
                {
                    var types = (string)JObject.Parse(File.ReadAllText(manifest))["types"];
                    if (types != null)
                        list.Add(Read(name, false, Path.Combine(folder, types)));
                }
                catch (Exception e) when (e is IOException || e is Newtonsoft.Json.JsonException || e is InvalidCastException)
                {
                    Console.Error.WriteLine("typegen: skipped user dataset " + name + ": " + e.Message);
                }
            }
            return list;
        }

        static Source Read(string name, bool builtin, string path)
        {
            byte[] bytes = File.ReadAllBytes(path);
            string sha;
            using (var h = SHA256.Create())
                sha = string.Concat(h.ComputeHash(bytes).Select(b => b.ToString("x2")));
            var types = JObject.Parse(new UTF8Encoding(false).GetString(bytes));
            return new Source { Name = name, Builtin = builtin, TypesPath = path, Types = types, Sha256 = sha };
        }
    }
}
