using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Xml.Serialization;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// XmlSerializer with its defaults (indented UTF-8 XML). It writes public read/write
    /// members only, so the read-only Key/Value of KeyValuePair pairs (S5's) are silently
    /// lost: the seed's NG, which the check reports with the first lost path. It takes no
    /// Dictionary anywhere in the graph (a `map` field): not applicable.
    /// </summary>
    public sealed class XmlSerializerLib : Serializer
    {
        public override string Name { get { return "xmlserializer"; } }
        public override string Format { get { return "xml"; } }
        public override string Library { get { return "XmlSerializer"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(XmlSerializer)); } }
        public override string[] Labels { get { return new[] { "text", "schemaless", "reflective", "copying-decode", "map-layout", "enum-as-name", "runtime-names" }; } }

        public override string NotApplicable(DatasetSpec spec)
        {
            if (spec.Typed.KnownTypes.Length > 0)
                return "XmlSerializer cannot serialize an `any` value (declared object) holding maps or lists it was not told of";
            string where = Dictionary(spec.RootType, "$", new HashSet<Type>());
            return where == null ? null : "XmlSerializer cannot serialize " + where + " (it implements IDictionary): NotSupportedException; store the map as a list of entries to use it";
        }

        /// <summary>The first Dictionary in the type graph, as "path, a Dictionary&lt;K, V&gt;", or null.</summary>
        static string Dictionary(Type t, string path, HashSet<Type> seen)
        {
            if (t.IsArray)
                return null;
            if (t.IsGenericType)
            {
                Type g = t.GetGenericTypeDefinition();
                Type[] args = t.GetGenericArguments();
                if (g == typeof(Dictionary<,>))
                    return path + ", a " + Show(t);
                if (g == typeof(List<>) || g == typeof(Nullable<>))
                    return Dictionary(args[0], g == typeof(List<>) ? path + "[*]" : path, seen);
                return null;
            }
            if (t.Namespace == null || !t.Namespace.StartsWith("Serbench.Model", StringComparison.Ordinal) || !seen.Add(t))
                return null;
            foreach (PropertyInfo p in t.GetProperties())
            {
                string found = Dictionary(p.PropertyType, path + "." + p.Name, seen);
                if (found != null)
                    return found;
            }
            return null;
        }

        static string Show(Type t)
        {
            if (!t.IsGenericType)
                return t.Name;
            string name = t.Name.Substring(0, t.Name.IndexOf('`'));
            return name + "<" + string.Join(", ", t.GetGenericArguments().Select(Show)) + ">";
        }

        public override Codec Bind(DatasetSpec spec)
        {
            var x = new XmlSerializer(spec.RootType);
            return new StreamCodec((o, s) => x.Serialize(s, o), s => x.Deserialize(s));
        }
    }
}
