using System;
using System.IO;
using System.Linq;
using System.Reflection;
using Newtonsoft.Json.Linq;

namespace Serbench.Harness
{
    /// <summary>`describe` (docs/runner-protocol.md section 2).</summary>
    public static class Describe
    {
        public static string MonoVersion()
        {
            Type mono = Type.GetType("Mono.Runtime");
            MethodInfo display = mono == null ? null : mono.GetMethod("GetDisplayName", BindingFlags.NonPublic | BindingFlags.Static);
            return display == null ? Environment.Version.ToString() : ((string)display.Invoke(null, null)).Split(' ')[0];
        }

        /// <summary>The platform's serializers ship with the runtime: their version is Mono's.</summary>
        public static string PlatformVersion(Type type)
        {
            return "Mono " + MonoVersion() + " (" + type.Assembly.GetName().Name + " " + type.Assembly.GetName().Version + ")";
        }

        /// <summary>A library assembly's own file version.</summary>
        public static string AssemblyVersion(Assembly a)
        {
            var file = (AssemblyFileVersionAttribute)Attribute.GetCustomAttribute(a, typeof(AssemblyFileVersionAttribute));
            return file != null ? file.Version : a.GetName().Version.ToString();
        }

        public static JObject Build()
        {
            string details = "Mono " + MonoVersion() + "; mcs -optimize+ (Makefile); sgen GC" +
                "; MONO_ENV_OPTIONS=" + (Environment.GetEnvironmentVariable("MONO_ENV_OPTIONS") ?? "") +
                "; " + Environment.OSVersion + "; " + (Environment.Is64BitProcess ? "64-bit" : "32-bit");
            var serializers = new JArray();
            foreach (Serializer s in Registry.All)
            {
                var datasets = new JObject();
                foreach (string d in Datasets.Names)
                {
                    string why = s.NotApplicable(Datasets.Builtin(d));
                    datasets[d] = why == null
                        ? new JObject { { "applicable", true } }
                        : new JObject { { "applicable", false }, { "reason", why } };
                }
                serializers.Add(new JObject
                {
                    { "name", s.Name }, { "format", s.Format }, { "library", s.Library }, { "version", s.Version },
                    { "labels", new JArray(s.Labels) },
                    { "footprint_bytes", s.Assemblies.Sum(f => new FileInfo(f).Length) },
                    { "datasets", datasets },
                    { "user_datasets", new JObject { { "applicable", true } } },
                });
            }
            return new JObject
            {
                { "protocol", 2 }, { "protocol_minor", 1 }, { "runner", "dotnet" }, { "language", "csharp" },
                { "runtime", new JObject { { "name", "Mono" }, { "version", MonoVersion() }, { "details", details } } },
                { "capabilities", new JArray("decode_from", "transport", "user_datasets", "untrusted") },
                { "serializers", serializers },
            };
        }
    }
}
